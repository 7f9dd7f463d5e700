import CofferModel
import Foundation
import GRDB

/// One statement as an import read it: the account and period it covers, when it was made, the booked balances
/// it reports and what its rows add up to. An import records one per statement (`StoreWriter.insertStatementPeriod`);
/// `coffer reconcile` reads them to find days no statement covers and balances that do not follow.
///
/// For example, an OFX download of March:
/// ```swift
/// StatementPeriod(accountID: id, currencyCode: "USD", location: "bank.ofx:12",
///                 start: CalendarDay.parse("2026-03-01"), end: CalendarDay.parse("2026-03-31"), periodStated: true,
///                 asOf: CalendarDay.parse("2026-03-31")!,
///                 closing: StatementBalance(code: "LEDGERBAL", amount: 3013.50, indicator: .credit, asOf: …))
/// ```
public struct StatementPeriod: Sendable, Hashable {
    /// The row's id (0 before it is stored); a later import's rows have larger ids.
    public var id: Int64 = 0
    /// The import ledger entry that read the statement.
    public var importID: Int64 = 0
    /// The file as it was named when imported (the ledger's `path`); empty before it is stored.
    public var path: String = ""
    /// The account the statement is for.
    public var accountID: UUID
    /// The currency of its balances and rows (the account's, or a legacy account's other currency).
    public var currencyCode: String
    /// Where the statement starts in its file (`bank.ofx:12:1 (OFX/…/STMTRS)`).
    public var location: String
    /// The statement's own id (camt `Stmt/Id`), when given.
    public var statementID: String?
    /// The first and last instant it covers: the period the file states (OFX `DTSTART`/`DTEND`, camt `FrToDt`),
    /// else its rows' first and last date; nil when it states none and has no rows. A day without a time is
    /// midnight UTC and covers that whole day.
    public var start: Date?
    /// The last instant it covers (see `start`).
    public var end: Date?
    /// The file states both ends of the period; false when they come from its rows (a CSV export), which leave
    /// out the days before its first row and after its last.
    public var periodStated: Bool
    /// When the institution made the statement (docs/dedupe.md, statement chronology).
    public var asOf: Date
    /// The booked balance at its start (camt `OPBD`, else `PRCD`) and at its end (camt `CLBD`, OFX `LEDGERBAL`, a
    /// CSV's newest running balance or footer balance), when it reports them.
    public var opening: StatementBalance?
    /// The booked balance at its end (see `opening`).
    public var closing: StatementBalance?
    /// How many rows it lists, of every status.
    public var rowCount = 0
    /// How many of its rows are booked.
    public var bookedCount = 0
    /// How many of its rows are pending or authorized.
    public var openCount = 0
    /// Σ of its booked rows in micro-units, credits positive, debits negative; nil when it would overflow.
    package var bookedScaled: Int64? = 0
    /// What the import said when the statement's own balance check failed (opening + rows ≠ closing).
    public var balanceProblem: String?
    /// The reported balance minus the one the statement's amounts give, when its own check failed.
    public var balanceDifference: Decimal?

    package init(accountID: UUID, currencyCode: String, location: String, statementID: String? = nil,
                start: Date?, end: Date?, periodStated: Bool, asOf: Date,
                opening: StatementBalance? = nil, closing: StatementBalance? = nil) {
        self.accountID = accountID
        self.currencyCode = currencyCode
        self.location = location
        self.statementID = statementID
        self.start = start
        self.end = end
        self.periodStated = periodStated
        self.asOf = asOf
        self.opening = opening
        self.closing = closing
    }

    /// Σ of its booked rows (credits positive), when known.
    public var bookedTotal: Decimal? { bookedScaled.map(StatementBalance.decimal(micro:)) }

    /// The days it covers, first and last (UTC days, as Coffer dates transactions).
    ///
    /// A stated period's end given with a time is read at its nearest midnight: banks draw periods at their own
    /// midnight, at most 14 hours from UTC's, so `2026-03-01T00:00+01:00` to `2026-03-31T23:59:59+02:00` covers
    /// 2026-03-01 to 2026-03-31 (see `firstDay(from:)`, `lastDay(through:)`). A period taken from the rows covers
    /// their days, through the day of its closing balance when that is later (a CSV export's end balance).
    public var days: ClosedRange<Int>? {
        guard let start, let end else { return nil }
        let first = periodStated ? Self.firstDay(from: start) : CalendarDay.dayNumber(start)
        var last = periodStated ? Self.lastDay(through: end) : CalendarDay.dayNumber(end)
        if !periodStated, let closing {
            last = max(last, Self.lastDay(through: closing.asOf))
        }
        return first <= last ? first...last : nil
    }

    /// The first whole day from a start instant: its day when it is midnight UTC (a date without a time), else the
    /// day that begins at its nearest midnight.
    package static func firstDay(from start: Date) -> Int {
        CalendarDay.isMidnightUTC(start) ? CalendarDay.dayNumber(start) : CalendarDay.dayNumber(start.addingTimeInterval(43_200))
    }

    /// The last day up to an end instant (a period's end, a balance's as-of): its day when it is midnight UTC (a date
    /// without a time: the whole day), else the day that ends at its nearest midnight. A balance as of
    /// `2026-03-31T23:59:59-08:00` is the balance of 2026-03-31; one as of 08:30 in the morning, of the day before.
    package static func lastDay(through end: Date) -> Int {
        CalendarDay.isMidnightUTC(end) ? CalendarDay.dayNumber(end) : CalendarDay.dayNumber(end.addingTimeInterval(43_200)) - 1
    }
}

/// A booked balance a statement reports.
public struct StatementBalance: Sendable, Hashable {
    /// The source's code: `OPBD`, `PRCD`, `CLBD`, `ITBD`, `LEDGERBAL`, a CSV's balance column.
    public var code: String
    /// The magnitude, as the institution sent it.
    public var amount: Decimal
    /// Whether the balance is in the holder's favour (`.credit`) or owed (`.debit`).
    public var indicator: CreditDebitIndicator
    /// When the balance applies.
    public var asOf: Date
    /// Where the file gives it, when known (`bank.ofx:76:1 (OFX/…/LEDGERBAL)`).
    public var location: String?

    package init(code: String, amount: Decimal, indicator: CreditDebitIndicator, asOf: Date, location: String? = nil) {
        self.code = code
        self.amount = amount
        self.indicator = indicator
        self.asOf = asOf
        self.location = location
    }

    /// From the holder's side: credit positive, debit negative.
    public var signed: Decimal { indicator == .debit ? -amount : amount }

    /// The signed amount in micro-units, nil when it has more than six decimals or does not fit.
    package var signedScaled: Int64? {
        guard let magnitude = ExactDecimal.scaled(amount) else { return nil }
        return indicator == .debit ? -magnitude : magnitude
    }

    /// Micro-units as a decimal.
    static func decimal(micro: Int64) -> Decimal {
        Decimal(micro) / Decimal(sign: .plus, exponent: ExactDecimal.storageScale, significand: 1)
    }
}

extension StatementPeriod {
    /// Every read of statement periods starts here: the rows joined with the import they belong to (`l`), so the
    /// imports they are read from can be narrowed in one place (an undone import's rows are not the store's).
    static let liveRows = "statement_period p JOIN import_ledger l ON l.id = p.import_id AND l.undone_by IS NULL"
}
