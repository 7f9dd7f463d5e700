import CofferModel
import CofferStore
import Foundation

/// An account's balance over time, from its statements' balances and the booked transactions between them: what
/// `coffer report balance` prints and charts.
///
/// For example:
/// ```swift
/// let report = try BalanceReport(account: checking, balances: balances, transactions: booked, grouping: .week)
/// report.points.last?.balance           // the balance at the end of the last week
/// report.disagreements.first?.difference // a statement's balance minus what the transactions give
/// ```
/// How each day's balance is worked out (the rules `coffer reconcile` checks by):
/// - a statement's balance (the booked one, else the available one) holds on its as-of day
///   (`StatementPeriod.lastDay(through:)`: a time late in the day is that day's); of two on one day, the later;
/// - after a statement day, the balance is that statement's plus the booked transactions booked since (the booking
///   day is the posting date when it differs from the transaction's date, else the bank's own day);
/// - before the first statement day, the first statement's balance minus the transactions booked after the day;
/// - where a statement's balance is not the previous one's plus the transactions between, the report lists a
///   disagreement (how much, and the two balances) and goes on from the statement's figure.
/// Balances are signed from the holder's side: a card's debt is negative.
package struct BalanceReport: Sendable {
    /// The balance at the end of one period.
    package struct Point: Sendable, Hashable {
        /// The period's key and label (`MoneyReport.period`): `2026-03-14`, `2026-03`, `2026-W11`.
        package var key: String
        package var label: String
        /// The period's first day and the day the balance is of (its last day, or the range's end).
        package var start: Date
        package var day: Date
        package var balance: Decimal
        /// The statement balance of that day, when a statement reports one.
        package var statementBalance: Decimal?
    }

    /// A statement balance that is not the previous one plus the transactions between.
    package struct Disagreement: Sendable, Hashable {
        /// The statement balance's day and figure.
        package var day: Date
        package var reported: Decimal
        /// The previous statement balance's day and figure, and the booked transactions between.
        package var previousDay: Date
        package var previous: Decimal
        package var transactionsBetween: Decimal
        package var countBetween: Int
        /// What the transactions give: previous + between.
        package var expected: Decimal { previous + transactionsBetween }
        /// Reported minus expected.
        package var difference: Decimal { reported - expected }
    }

    package var account: Account
    package var currency: String
    package var grouping: MoneyReport.Grouping
    package var points: [Point]
    /// The statement balances in the range that are not the previous one plus the transactions between.
    package var disagreements: [Disagreement]
    /// How many days have a statement balance (in the whole history, not only the range).
    package var statementDays: Int

    /// The booking day of a transaction, as reconciliation counts it.
    package static func bookingDay(_ transaction: Transaction) -> Int {
        if let posted = transaction.postedDate, posted != transaction.transactionDate { return CalendarDay.dayNumber(posted) }
        return transaction.localDay
    }

    /// Builds the report.
    ///
    /// - Parameters:
    ///   - balances: the account's reported balances (others are ignored).
    ///   - transactions: the account's transactions (only booked ones in its currency count).
    ///   - grouping: `.day`, `.week` or `.month` (others are read as `.day`).
    ///   - days: the bank's days to cover; nil: from the first statement or transaction to the last.
    /// - Throws: `CofferError(.usage)` when the account has no statement balance to start from.
    package init(account: Account, balances: [AccountBalance], transactions: [Transaction], grouping: MoneyReport.Grouping,
                 days: ClosedRange<Int>? = nil) throws {
        self.account = account
        self.currency = account.currencyCode
        self.grouping = grouping.isTime ? grouping : .day
        // Statement balances by day: the latest as-of of each day.
        var anchors: [Int: (asOf: Date, amount: Decimal)] = [:]
        for balance in balances where balance.accountID == account.id {
            guard let figure = balance.booked ?? balance.available, figure.amount.currencyCode == currency else { continue }
            let day = StatementPeriod.lastDay(through: figure.asOfDate)
            if let known = anchors[day], known.asOf > figure.asOfDate { continue }
            anchors[day] = (figure.asOfDate, figure.signedAmount)
        }
        guard !anchors.isEmpty else {
            throw CofferError(.usage, "\(account.displayName) has no statement balance to start from: the balance report needs "
                              + "at least one imported statement that reports a balance (see coffer balances)")
        }
        statementDays = anchors.count
        var booked: [Int: (sum: Decimal, count: Int)] = [:]
        for t in transactions where t.accountID == account.id && t.status == .booked && t.transactionAmount.currencyCode == currency {
            booked[Self.bookingDay(t), default: (0, 0)].sum += t.signedAmount
            booked[Self.bookingDay(t), default: (0, 0)].count += 1
        }
        let anchorDays = anchors.keys.sorted()
        let transactionDays = booked.keys.sorted()
        let first = days?.lowerBound ?? min(anchorDays[0], transactionDays.first ?? anchorDays[0])
        let last = days?.upperBound ?? max(anchorDays[anchorDays.count - 1], transactionDays.last ?? anchorDays[0])

        // Balance at the end of each day from the first anchor on, walking forward; disagreements at each anchor.
        var disagreements: [Disagreement] = []
        var running = anchors[anchorDays[0]]!.amount
        var endOfDay: [Int: Decimal] = [anchorDays[0]: running]
        var previousAnchor = anchorDays[0]
        var between: (sum: Decimal, count: Int) = (0, 0)
        let walkEnd = max(last, anchorDays[anchorDays.count - 1])
        var day = anchorDays[0] + 1
        while day <= walkEnd {
            if let moved = booked[day] {
                running += moved.sum
                between.sum += moved.sum
                between.count += moved.count
            }
            if let anchor = anchors[day] {
                if anchor.amount != running {
                    disagreements.append(Disagreement(day: CalendarDay.date(day: day), reported: anchor.amount,
                                                      previousDay: CalendarDay.date(day: previousAnchor),
                                                      previous: anchors[previousAnchor]!.amount,
                                                      transactionsBetween: between.sum, countBetween: between.count))
                }
                running = anchor.amount
                previousAnchor = day
                between = (0, 0)
            }
            endOfDay[day] = running
            day += 1
        }
        // Before the first anchor: walk back, taking off each day's transactions.
        var back = anchors[anchorDays[0]]!.amount
        day = anchorDays[0]
        while day > first {
            back -= booked[day]?.sum ?? 0
            day -= 1
            endOfDay[day] = back
        }
        self.disagreements = disagreements.filter { (first...last).contains(CalendarDay.dayNumber($0.day)) }

        var points: [Point] = []
        var start = MoneyReport.periodStart(first, self.grouping)
        while start <= last {
            let end = min(MoneyReport.periodEnd(start, self.grouping), last)
            let (key, label, _) = MoneyReport.period(start, self.grouping)
            if let balance = endOfDay[end] {
                points.append(Point(key: key, label: label, start: CalendarDay.date(day: max(start, first)),
                                    day: CalendarDay.date(day: end), balance: balance,
                                    statementBalance: anchors[end]?.amount))
            }
            start = MoneyReport.nextPeriod(start, self.grouping)
        }
        self.points = points
    }
}
