import CofferModel
import Foundation
import GRDB

/// A reported balance that does not follow from the transactions.
///
/// Two checks find one (docs/dedupe.md, "Balances"):
/// - `.statement`: the statement's own balances do not add up, as its import found (camt opening + booked entries
///   ≠ closing, a CSV running balance): the parsers' checks, recorded with the statement.
/// - `.sequence`: an OFX `LEDGERBAL` (OFX reports no opening balance) is not the previous statement's closing
///   balance plus the booked transactions stored between the two.
public struct BalanceMismatch: Sendable, Hashable {
    /// Which check failed: the statement's own (opening + rows = closing) or the sequence of OFX balances.
    public enum Check: String, Sendable { case statement, sequence }
    /// Which check failed.
    public var check: Check
    /// The statement whose balance does not follow, and its file as it was named when imported.
    public var statement: StatementPeriod
    /// The balance the statement reports; for `.statement`, its closing balance when known.
    public var reported: Decimal?
    /// What the transactions give; nil when the statement's own check said only the difference.
    public var expected: Decimal?
    /// Reported minus expected: negative when the balance is lower than the amounts give (a debit is missing).
    public var difference: Decimal
    /// `.sequence`: the statement whose closing balance it follows, and the booked transactions between.
    public var previous: StatementPeriod?
    /// `.sequence`: the booked transactions' signed total between the two balances.
    public var bookedBetween: Decimal?
    /// `.sequence`: how many booked transactions that is.
    public var bookedBetweenCount: Int?
    /// `.sequence`: the booking days counted: after the previous balance's day, through this one's.
    public var firstDay: Date?
    /// `.sequence`: the last booking day counted.
    public var lastDay: Date?
    /// One sentence that says all of the above.
    public var message: String
    /// Where the balance is: the closing balance's location, else the statement's.
    public var location: String { statement.closing?.location ?? statement.location }
    /// The message with where it is (`bank.ofx:76:1 (…/LEDGERBAL): …`), as the import warns; the statement's own
    /// check recorded its warning whole.
    public var description: String { check == .statement ? message : "\(location): \(message)" }
}

/// The sequence check of OFX balances: the previous statement's closing balance + the booked transactions between
/// = this `LEDGERBAL`.
///
/// What "between" means, in UTC days (dates without a time are midnight UTC):
/// - a balance as of a day includes every booked transaction **booked** on or before that day; the booking day is
///   the posting date when the transaction has one, else its date. A balance as of a time is the balance of the
///   day that ends at the time's nearest midnight (`StatementPeriod.lastDay(through:)`): `23:59:59-08:00` is that
///   day's, `08:30` in the morning the day before's;
/// - so between two balances are the booked transactions booked after the earlier balance's day, through the later
///   balance's day (two balances of one day: none, they must be equal);
/// - pending, authorized, memo and rejected rows are left out: a ledger balance holds booked rows only;
/// - the previous statement is the one of the same account and currency whose closing balance (of any format:
///   OFX `LEDGERBAL`, camt `CLBD`, a CSV running balance) comes last before this one, by as-of time and then by
///   import order.
package enum BalanceChain {
    /// Whether a statement's closing balance is checked against the statement before it: an OFX `LEDGERBAL`.
    /// camt statements (opening and closing) and CSV running balances are checked within their file.
    package static func isChained(_ statement: StatementPeriod) -> Bool {
        statement.closing?.code == "LEDGERBAL"
    }

    /// Closing balances in order: by as-of time, then by import order.
    static func precedes(_ a: StatementPeriod, _ b: StatementPeriod) -> Bool {
        guard let x = a.closing?.asOf, let y = b.closing?.asOf else { return false }
        return (x, a.id) < (y, b.id)
    }

    /// The statement whose closing balance comes last before `statement`'s, of its account and currency.
    package static func previous(of statement: StatementPeriod, in statements: [StatementPeriod]) -> StatementPeriod? {
        statements.filter {
            $0.accountID == statement.accountID && $0.currencyCode == statement.currencyCode && precedes($0, statement)
        }.max(by: precedes)
    }

    /// The statement whose closing balance comes first after `statement`'s, of its account and currency.
    package static func next(of statement: StatementPeriod, in statements: [StatementPeriod]) -> StatementPeriod? {
        statements.filter {
            $0.accountID == statement.accountID && $0.currencyCode == statement.currencyCode && precedes(statement, $0)
        }.min(by: precedes)
    }

    /// The booking days between two closing balances: after `previous`'s day, through `statement`'s.
    package static func days(after previous: StatementPeriod, through statement: StatementPeriod) -> (after: Int, through: Int)? {
        guard let from = previous.closing?.asOf, let to = statement.closing?.asOf else { return nil }
        return (StatementPeriod.lastDay(through: from), StatementPeriod.lastDay(through: to))
    }

    /// The sequence check of `statement` after `previous`, given the booked transactions between them (Σ in
    /// micro-units, credits positive, and their count); nil when it holds, or when an amount is beyond micro-units.
    ///
    /// `gaps` are the account's days no statement covers: one between the two balances is named, as the likely
    /// reason (a statement not imported).
    package static func mismatch(_ statement: StatementPeriod, after previous: StatementPeriod,
                                booked: (sum: Int64, count: Int), gaps: [AccountReconciliation.Gap] = []) -> BalanceMismatch? {
        guard let closing = statement.closing, let earlier = previous.closing,
              let reported = closing.signedScaled, let start = earlier.signedScaled,
              let days = days(after: previous, through: statement) else { return nil }
        let (expected, overflow) = start.addingReportingOverflow(booked.sum)
        guard !overflow, expected != reported else { return nil }
        let decimal = StatementBalance.decimal(micro:)
        let unit = " " + statement.currencyCode
        let between = days.through > days.after
            ? " + \(booked.count) transaction(s) booked \(day(days.after + 1))"
                + (days.through > days.after + 1 ? " to \(day(days.through))" : "") + " (\(text(decimal(booked.sum))))"
            : ", the same day,"
        var message = "\(closing.code) \(text(decimal(reported)))\(unit) as of \(day(closing.asOf)) does not follow from "
            + "the previous balance: \(earlier.code) \(text(decimal(start)))\(unit) as of \(day(earlier.asOf)) "
            + "(\(previous.path.isEmpty ? "this file" : previous.path))\(between) = \(text(decimal(expected)))\(unit), "
            + "difference \(text(decimal(reported &- expected)))\(unit): "
        let gap = gaps.first { CalendarDay.dayNumber($0.last) > days.after && CalendarDay.dayNumber($0.first) <= days.through }
        message += gap.map { "no statement covers \(day($0.first)) to \(day($0.last)) (one was not imported?)" }
            ?? "a transaction is missing or an amount differs"
        return BalanceMismatch(check: .sequence, statement: statement, reported: decimal(reported),
                               expected: decimal(expected), difference: decimal(reported &- expected), previous: previous,
                               bookedBetween: decimal(booked.sum), bookedBetweenCount: booked.count,
                               firstDay: date(days.after + 1), lastDay: date(days.through), message: message)
    }

    /// The statement's own check, as its import recorded it; nil when its balances add up (or it reports none).
    package static func ownMismatch(_ statement: StatementPeriod) -> BalanceMismatch? {
        guard let difference = statement.balanceDifference else { return nil }
        let reported = statement.closing?.signed
        return BalanceMismatch(check: .statement, statement: statement, reported: reported,
                               expected: reported.map { $0 - difference }, difference: difference,
                               message: statement.balanceProblem ?? "the statement's balances do not add up "
                                   + "(difference \(text(difference)) \(statement.currencyCode))")
    }

    static func text(_ value: Decimal) -> String { ExactDecimal.text(value, minimumFractionDigits: 2) }
    static func day(_ date: Date) -> String { CalendarDay.string(date) }
    static func day(_ number: Int) -> String { CalendarDay.string(date(number)) }
    static func date(_ day: Int) -> Date { Date(timeIntervalSince1970: Double(day) * 86_400) }
}

/// The booked transactions of one account and currency, summed per booking day (see `BalanceChain`), to sum any
/// run of days.
package struct DailyBooked: Sendable {
    /// Booking days in order, with the running Σ (micro-units) and count through each.
    private var days: [Int] = []
    private var running: [(sum: Int64, count: Int)] = []
    /// A running Σ overflowed: sums from there on are unknown.
    private var overflowFrom: Int?

    package init(_ perDay: [(day: Int, sum: Int64, count: Int)]) {
        var total: Int64 = 0, count = 0
        for entry in perDay.sorted(by: { $0.day < $1.day }) {
            let (next, overflow) = total.addingReportingOverflow(entry.sum)
            if overflow, overflowFrom == nil { overflowFrom = entry.day }
            total = next
            count += entry.count
            days.append(entry.day)
            running.append((total, count))
        }
    }

    /// Σ and count of the transactions booked after day `after`, through day `through`; nil when unknown.
    package func between(after: Int, through: Int) -> (sum: Int64, count: Int)? {
        guard through > after else { return (0, 0) }
        if let overflowFrom, overflowFrom <= through { return nil }
        func upTo(_ day: Int) -> (sum: Int64, count: Int) {
            // The last index whose day is ≤ `day`.
            var low = 0, high = days.count
            while low < high {
                let mid = (low + high) / 2
                if days[mid] <= day { low = mid + 1 } else { high = mid }
            }
            return low == 0 ? (0, 0) : running[low - 1]
        }
        let a = upTo(after), b = upTo(through)
        return (b.sum &- a.sum, b.count - a.count)
    }

    /// The booked transactions of an account in a currency, per booking day; with `before`, only those dated before
    /// that instant (which bounds the read by the account's date index).
    ///
    /// With `from`, only rows dated on or after that instant are read: the sums between two days after it are the
    /// same (both running sums leave out the same rows) as long as no row booked after the first day is dated
    /// before `from`; callers leave 40 days' slack for the posting date.
    static func fetch(_ db: Database, accountID: UUID, currency: String, from: Int64? = nil,
                      before: Int64? = nil) throws -> DailyBooked {
        // The booking day: the posting date's when it is another instant than the transaction's (it keeps no
        // offset: its UTC day), else the transaction's own local day (a time late in the evening west of UTC is that
        // evening's, migration v10). Floor division: SQLite's integer division truncates toward zero.
        let day = "CASE WHEN posted_date IS NULL OR posted_date = transaction_date THEN local_day "
            + "ELSE posted_date / 86400000 - (posted_date < 0 AND posted_date % 86400000 != 0) END"
        let sql = """
            SELECT \(day) AS day, SUM(CASE indicator WHEN 1 THEN -amount_scaled ELSE amount_scaled END), COUNT(*)
            FROM txn WHERE account_id = ? AND currency_code = ? AND status = 1\(before == nil ? "" : " AND transaction_date < ?")\(
                from == nil ? "" : " AND transaction_date >= ?")
            GROUP BY day
            """
        var arguments: StatementArguments = [accountID, currency]
        if let before { arguments += [before] }
        if let from { arguments += [from] }
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        return DailyBooked(rows.map { (day: $0[0], sum: $0[1], count: $0[2]) })
    }
}
