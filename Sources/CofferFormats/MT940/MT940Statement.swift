import CofferModel
import Foundation

/// One MT940 statement or MT942 report while it is read: its header fields, the balances that wait for `.begin`,
/// and the sums that check it.
struct MT940Statement: Sendable {
    var location: SourceLocation
    /// `:20:`, the sender's reference of the message.
    var reference: String?
    /// `:28C:`, the statement number and page (`00042/001`).
    var number: String?
    var account: MT940Account?
    var currency: String?
    /// An MT942 interim report: its entries are not yet booked (pending), it has no closing balance.
    var isInterim = false
    /// `:13D:`, when an MT942 report was made.
    var reportTime: RawDate?
    var opening: (balance: MT940Balance, tag: String)?
    var closing: (balance: MT940Balance, tag: String)?
    var begun = false
    /// Balances read before `.begin`.
    var waiting: [RawBalance] = []
    var entries = 0
    var firstDay: RawDate?
    var lastDay: RawDate?
    /// Σ credits − Σ debits of the entries.
    var net = Decimal(0)
    var debits = (count: 0, sum: Decimal(0))
    var credits = (count: 0, sum: Decimal(0))
    /// `:90D:` / `:90C:`: the number and sum of debit and credit entries the message says it holds.
    var statedDebits: (count: Int, sum: Decimal, line: Int)?
    var statedCredits: (count: Int, sum: Decimal, line: Int)?

    init(location: SourceLocation) { self.location = location }

    /// Whether anything of a statement was read (a `:20:` alone is not yet one).
    var hasContent: Bool { account != nil || entries > 0 || opening != nil || closing != nil }

    mutating func note(entry amount: Decimal, _ indicator: CreditDebitIndicator, day: RawDate) {
        entries += 1
        if indicator == .debit {
            net -= amount
            debits = (debits.count + 1, debits.sum + amount)
        } else {
            net += amount
            credits = (credits.count + 1, credits.sum + amount)
        }
        if firstDay == nil || day.date < firstDay!.date { firstDay = day }
        if lastDay == nil || day.date > lastDay!.date { lastDay = day }
    }

    /// The days the statement covers and when it was made, once it is read whole (the first pass).
    var summary: MT940Summary {
        var start = opening.flatMap { RawDate.day(after: $0.balance.date) }
        if let first = firstDay, start == nil || first.date < start!.date { start = first }
        var end = closing?.balance.date ?? lastDay
        if let last = lastDay, let e = end, last.date > e.date { end = last }
        if isInterim {
            // A report lists what is noted now: it covers the days of its entries, up to its time.
            start = firstDay
            end = lastDay
        }
        let asOf = reportTime ?? (closing?.balance.date ?? lastDay).map {
            RawDate(date: $0.date.addingTimeInterval(86_399), isDateOnly: false, utcOffset: 0)
        }
        return MT940Summary(periodStart: start, periodEnd: end, asOf: asOf, currency: currency)
    }

    /// A warning when opening balance + entries ≠ closing balance, or when `:90D:`/`:90C:` count other entries.
    func warnings() -> [ParseWarning] {
        var out: [ParseWarning] = []
        func text(_ d: Decimal) -> String { ExactDecimal.text(d, minimumFractionDigits: 2) }
        let unit = currency.map { " \($0)" } ?? ""
        if let opening, let closing {
            let expected = opening.balance.signed + net
            let stated = closing.balance.signed
            if expected != stated {
                let message = "the statement does not reconcile: :\(opening.tag): \(text(opening.balance.signed))\(unit) + "
                    + "entries \(text(net))\(unit) = \(text(expected))\(unit), but :\(closing.tag): is \(text(stated))\(unit) "
                    + "(difference \(text(stated - expected))\(unit)); imported as sent"
                out.append(ParseWarning(message, location: location, needsAttention: true, balanceDifference: stated - expected))
            }
        }
        for (tag, stated, actual) in [("90D", statedDebits, debits), ("90C", statedCredits, credits)] {
            guard let stated, stated.count != actual.count || stated.sum != actual.sum else { continue }
            let side = tag == "90D" ? "debit" : "credit"
            out.append(ParseWarning(
                ":\(tag): says \(stated.count) \(side) entries of \(text(stated.sum))\(unit), the message lists "
                    + "\(actual.count) of \(text(actual.sum))\(unit); imported as listed",
                location: SourceLocation(file: location.file, line: stated.line, element: ":\(tag):"), needsAttention: true))
        }
        return out
    }
}

/// What the first pass learns of each statement: its period and as-of time, which its header needs before its
/// entries are read (the closing balance comes after them).
struct MT940Summary: Sendable {
    var periodStart: RawDate?
    var periodEnd: RawDate?
    var asOf: RawDate?
    /// The currency, when only a field after the entries names it (a `:60F:` that could not be read).
    var currency: String?
}

extension RawDate {
    /// The calendar day after `date`'s day.
    static func day(after date: RawDate) -> RawDate? {
        RawDate(date: CalendarDay.startOfDay(date.date).addingTimeInterval(86_400), isDateOnly: true)
    }
}
