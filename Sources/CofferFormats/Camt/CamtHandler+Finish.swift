import CofferModel
import Foundation

/// What `CamtHandler` does when an entry or a balance ends: check it, and emit it.
extension CamtHandler {
    /// Emits the entry's transactions; an entry needs `Amt` and `CdtDbtInd`.
    func finishEntry() throws {
        guard let entry, statement != nil else { return }
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
        statement?.note(entry: amount.value, indicator: indicator, status: entry.status)
        if statement?.currency == nil { statement?.currency = amount.currency }
        for raw in entry.rawTransactions(amount: amount, indicator: indicator) {
            try emit?(.transaction(raw))
        }
    }

    /// Emits a booked (`OPBD`, `CLBD`, `ITBD`, `PRCD`) or available (`CLAV`, `ITAV`, `FWAV`, `OPAV`) balance;
    /// other balance types (`INFO`, `XPCD`, proprietary codes) are skipped.
    func finishBalance() throws {
        guard let draft = balance, statement != nil else { return }
        let kind: RawBalance.Kind
        switch draft.code {
        case "OPBD", "CLBD", "ITBD", "PRCD": kind = .booked
        case "CLAV", "ITAV", "FWAV", "OPAV": kind = .available
        default: return
        }
        let code = draft.code ?? ""
        guard var amount = draft.amount else {
            throw error("expected Amt in the \(code) balance, found none")
        }
        guard let asOf = draft.asOf else {
            throw error("expected Dt/Dt or Dt/DtTm in the \(code) balance, found none")
        }
        var indicator = draft.indicator
        if amount.value < 0, let given = indicator {
            amount.value = -amount.value
            indicator = given.opposite
        }
        let raw = RawBalance(kind: kind, amount: amount.value, indicator: indicator, currencyCode: amount.currency,
                             asOf: asOf, code: code, location: location(upTo: path.count - 1))
        statement?.note(raw)
        if statement?.currency == nil { statement?.currency = amount.currency }
        try emit?(.balance(raw))
    }
}
