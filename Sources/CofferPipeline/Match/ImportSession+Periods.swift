import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// What one statement's rows add up to, counted as they pass through the session: its `statement_period` row.
struct StatementTally {
    /// The statement's currency: rows in another are counted but not summed.
    let currency: String
    var rows = 0
    var booked = 0
    var open = 0
    /// Σ of the booked rows in micro-units, credits positive; nil once it overflowed.
    var bookedScaled: Int64? = 0
    /// The statement's own balance check failed (`ParseWarning.balanceDifference`): the warning and the difference.
    var balanceProblem: (message: String, difference: Decimal)?

    init(currency: String) {
        self.currency = currency
    }

    mutating func note(_ t: Transaction, scaled: Int64) {
        rows += 1
        switch t.status {
        case .booked:
            booked += 1
            guard t.transactionAmount.currencyCode == currency, let sum = bookedScaled else { return }
            let (next, overflow) = sum.addingReportingOverflow(t.creditDebitIndicator == .debit ? -scaled : scaled)
            bookedScaled = overflow ? nil : next
        case .pending, .authorized: open += 1
        case .memo, .rejected: break
        }
    }
}

/// Statements recorded as they end (`statement_period`, for `coffer reconcile`), and the OFX balance checked
/// against the statement before it (docs/dedupe.md, "Balances").
extension ImportSession {
    /// Records the statement that ends, in the import's transaction, and adds a warning a person should look at for
    /// each balance that does not follow from the previous statement's (`BalanceChain`).
    /// `coverage` is the local days the statement covers for pending rows (see `Coverage`).
    func recordStatement(_ account: Account, start: Date?, end: Date?, asOf: Date,
                         coverage: (from: Int, through: Int)?) throws {
        guard let header else { return }
        let booked = balances.filter { $0.kind == .booked && ($0.currencyCode?.uppercased() ?? account.currencyCode) == tally.currency }
        func balance(_ raw: RawBalance?) -> StatementBalance? {
            raw.map { raw in
                StatementBalance(code: raw.code ?? "booked", amount: raw.amount.magnitude,
                                 indicator: raw.amount == 0 ? .credit : raw.resolvedIndicator, asOf: raw.asOf.date,
                                 location: raw.location.description)
            }
        }
        // The opening balance: camt's OPBD (else PRCD), MT940's :60F:.
        let opening = booked.last { $0.code == "OPBD" } ?? booked.last { $0.code == "PRCD" } ?? booked.last { $0.code == "60F" }
        // The closing balance: camt's CLBD, OFX's LEDGERBAL, MT940's :62F:, else the latest other booked balance (a
        // CSV's newest running balance or its footer's, a camt.052's interim ITBD).
        let others = booked.filter { $0.code != "OPBD" && $0.code != "PRCD" && $0.code != "60F" }
        let latest = others.map(\.asOf.date).max()
        let closing = booked.last { $0.code == "CLBD" } ?? booked.last { $0.code == "LEDGERBAL" } ?? booked.last { $0.code == "62F" }
            ?? others.last { $0.asOf.date == latest }
        var period = StatementPeriod(accountID: account.id, currencyCode: tally.currency,
                                     location: header.location.description, statementID: header.statementID,
                                     start: start, end: end, periodStated: header.periodStart != nil && header.periodEnd != nil,
                                     asOf: asOf, opening: balance(opening), closing: balance(closing))
        period.rowCount = tally.rows
        period.bookedCount = tally.booked
        period.openCount = tally.open
        period.bookedScaled = tally.bookedScaled
        period.balanceProblem = tally.balanceProblem?.message
        period.balanceDifference = tally.balanceProblem?.difference
        let stored = try writer.insertStatementPeriod(period)
        if let coverage {
            try writer.noteCoverage(ofStatement: stored.id, fromDay: coverage.from, throughDay: coverage.through,
                                    listsPending: header.listsPending)
        }
        for mismatch in try writer.sequenceMismatches(around: stored) {
            report.warnings.append(mismatch.description)
            report.attention.append(mismatch.description)
        }
    }
}
