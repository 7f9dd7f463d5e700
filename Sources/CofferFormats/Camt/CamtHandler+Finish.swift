import CofferModel
import Foundation

/// What `CamtHandler` does when an entry, a balance or a statement ends: check it, route it to the part of the
/// statement in its currency, and emit it.
extension CamtHandler {
    /// Emits the entry's transactions; an entry needs `Amt` and `CdtDbtInd` (without them its transactions cannot
    /// be trusted, and the file fails).
    func finishEntry() throws {
        // Taken, not copied (the entry ends here): it holds every detail and transaction.
        guard statement != nil, let entry = entry.take() else { return }
        guard var amount = entry.amount else {
            throw error("expected Amt (the entry's amount with its Ccy), found an entry without one")
        }
        guard var indicator = entry.indicator else {
            throw error("expected CdtDbtInd (CRDT or DBIT), found an entry without one")
        }
        if amount.value < 0 {
            // ISO amounts are never negative; a bank that sends one means the other direction.
            amount.value = -amount.value
            indicator = indicator.opposite
            let text = ExactDecimal.text(amount.value)
            try emit?(.warning(ParseWarning(
                "expected a non-negative Amt, found -\(text); read as \(text) \(indicator)", location: entry.location)))
        }
        try begin(entryCurrency: amount.currency)
        var fallback: RawDate?
        if !entry.hasOwnDate, !entry.unreadableDates.isEmpty {
            // Dates were there but none could be read: when it happened is not known, and guessing would store a
            // wrong day.
            throw error("expected a readable booking or value date on the entry, found "
                        + entry.unreadableDates.joined(separator: " and "))
        }
        if !entry.hasOwnDate {
            fallback = statement?.created ?? messageCreated
            let used = statement?.created.map { "the statement's creation time CreDtTm (\($0))" }
                ?? messageCreated.map { "the message's creation time GrpHdr/CreDtTm (\($0))" } ?? "no date at all"
            try emit?(.warning(ParseWarning(
                "expected BookgDt or ValDt (or a related date in TxDtls) on the entry, found none; dated by \(used)",
                location: entry.location)))
        }
        let reading = entry.batchReading(amount: amount, indicator: indicator)
        if case .whole(let reason?) = reading {
            try emit?(.warning(ParseWarning(
                "kept the batch of \(entry.transactions.count) transactions as one entry: \(reason)",
                location: entry.location)))
        }
        var raws = entry.rawTransactions(amount: amount, indicator: indicator, reading: reading, fallbackDate: fallback)
        guard let own = statement?.isOwn(amount.currency), !own, let code = amount.currency else {
            statement?.reconciliation.note(entry: amount.value, indicator: indicator, status: entry.status)
            try Self.emitMoving(&raws, emit)
            return
        }
        guard let index = statement?.part(code) else { return }
        statement?.others[index].reconciliation.note(entry: amount.value, indicator: indicator, status: entry.status)
        statement?.others[index].transactions.append(contentsOf: raws)
    }

    /// Emits a booked (`OPBD`, `CLBD`, `ITBD`, `PRCD`) or available (`CLAV`, `ITAV`, `FWAV`, `OPAV`) balance;
    /// other balance types (`INFO`, `XPCD`, proprietary codes) are skipped. A balance that cannot be read (no
    /// amount, a malformed one, no date) is skipped with a warning: the statement's transactions do not depend on it.
    func finishBalance() throws {
        guard let draft = balance, statement != nil else { return }
        let kind: RawBalance.Kind
        switch draft.code {
        case "OPBD", "CLBD", "ITBD", "PRCD": kind = .booked
        case "CLAV", "ITAV", "FWAV", "OPAV": kind = .available
        default: return
        }
        let code = draft.code ?? ""
        let here = location(upTo: path.count - 1)
        func skip(_ why: String) throws {
            try emit?(.warning(ParseWarning("skipped the \(code) balance: \(why)", location: here)))
        }
        if let problem = draft.problem { return try skip(problem) }
        guard var amount = draft.amount else { return try skip("expected Amt, found none") }
        guard let asOf = draft.asOf else { return try skip("expected Dt/Dt or Dt/DtTm, found none") }
        var indicator = draft.indicator
        if amount.value < 0, let given = indicator {
            amount.value = -amount.value
            indicator = given.opposite
        }
        let raw = RawBalance(kind: kind, amount: amount.value, indicator: indicator,
                             currencyCode: amount.currency ?? statement?.currency, asOf: asOf, code: code, location: here)
        if statement?.begun == true { try route(raw) } else { statement?.pendingBalances.append(raw) }
    }

    /// Emits `.begin` once the statement's currency can be chosen (see `CamtStatement`), then the balances that
    /// waited for it.
    func begin(entryCurrency: String?) throws {
        // Checked before copying the statement: this runs for every entry.
        guard statement?.begun == false, var statement else { return }
        statement.currency = statement.currency
            ?? statement.pendingBalances.lazy.compactMap(\.currencyCode).first ?? entryCurrency
        statement.header.account.currencyCode = statement.currency
        statement.header.asOf = statement.created ?? messageCreated ?? statement.header.periodEnd
        statement.header.listsPending = isReport
        statement.begun = true
        let waiting = statement.pendingBalances
        statement.pendingBalances = []
        self.statement = statement
        try emit?(.begin(statement.header))
        for raw in waiting { try route(raw) }
    }

    /// A balance in the statement's currency is emitted; one in another currency waits for its part.
    private func route(_ raw: RawBalance) throws {
        guard let own = statement?.isOwn(raw.currencyCode), !own, let code = raw.currencyCode else {
            statement?.reconciliation.note(raw)
            try emit?(.balance(raw))
            return
        }
        guard let index = statement?.part(code) else { return }
        statement?.others[index].reconciliation.note(raw)
        statement?.others[index].balances.append(raw)
    }

    /// Ends the statement, then emits each part in another currency as a statement of its own.
    func finishStatement() throws {
        guard statement != nil else { return }
        try begin(entryCurrency: nil)
        guard let statement else { return }
        if let warning = statement.reconciliation.warning(currency: statement.currency, at: statement.header.location) {
            try emit?(.warning(warning))
        }
        try emit?(.end)
        for part in statement.others {
            var header = statement.header
            header.account.currencyCode = part.currency
            // The import says so when this makes a new account (one account per account number and currency).
            try emit?(.begin(header))
            for raw in part.balances { try emit?(.balance(raw)) }
            var raws = part.transactions
            try Self.emitMoving(&raws, emit)
            if let warning = part.reconciliation.warning(currency: part.currency, at: header.location) {
                try emit?(.warning(warning))
            }
            try emit?(.end)
        }
    }

    /// Emits each transaction in order, moved out of `raws` (which ends empty): `for raw in raws` copied each one,
    /// retaining its strings, and released them again with the array.
    private static func emitMoving(_ raws: inout [RawTransaction], _ emit: ((consuming StatementEvent) throws -> Void)?) throws {
        guard let emit else { return }
        raws.reverse()
        while let raw = raws.popLast() { try emit(.transaction(raw)) }
    }
}
