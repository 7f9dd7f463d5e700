import CofferFormats
import Foundation

/// A date pattern the drafter tries, and which way round it writes the day and the month.
struct DraftDatePattern: Sendable {
    enum Order: String, Sendable { case dayFirst = "day first", monthFirst = "month first", yearFirst = "year first" }
    let format: CSVDateFormat
    let order: Order
    var pattern: String { format.pattern }
}

/// Which columns hold dates and in which pattern, tried with `CSVDateFormat` itself so that every pattern drafted is
/// one Coffer reads exactly as the drafter did.
enum DraftDates {
    /// In order of preference within each order: zero-padded before unpadded, four-digit years before two.
    static let patterns: [DraftDatePattern] = {
        let dayFirst = ["dd.MM.yyyy", "d.M.yyyy", "dd.MM.yy", "d.M.yy", "dd/MM/yyyy", "d/M/yyyy", "dd/MM/yy", "d/M/yy",
                        "dd-MM-yyyy", "d-M-yyyy", "dd-MM-yy", "d-M-yy", "dd MMM yyyy", "d MMM yyyy", "dd-MMM-yyyy",
                        "d-MMM-yyyy", "dd-MMM-yy", "d-MMM-yy", "dd MMM yy", "dd. MMM yyyy", "d. MMM yyyy", "dd/MMM/yyyy"]
        let monthFirst = ["MM/dd/yyyy", "M/d/yyyy", "MM/dd/yy", "M/d/yy", "MM-dd-yyyy", "M-d-yyyy", "MM-dd-yy",
                          "MMM dd, yyyy", "MMM d, yyyy", "MMM d yyyy"]
        let yearFirst = ["yyyy-MM-dd", "yyyy-M-d", "yyyy/MM/dd", "yyyy/M/d", "yyyy.MM.dd", "yyyyMMdd"]
        let times = ["", " HH:mm:ss", " HH:mm", " H:mm:ss", " H:mm"]
        var all: [DraftDatePattern] = []
        for (order, list) in [(DraftDatePattern.Order.dayFirst, dayFirst), (.monthFirst, monthFirst), (.yearFirst, yearFirst)] {
            for time in times {
                for pattern in list {
                    if let format = try? CSVDateFormat(pattern + time) { all.append(DraftDatePattern(format: format, order: order)) }
                }
            }
        }
        return all
    }()

    /// The patterns that read every non-empty cell; empty when one cell reads under none, or all are empty.
    static func patterns(reading cells: [String]) -> [DraftDatePattern] {
        // Each distinct value once (a statement has many rows a day); a date has a digit and is short.
        var seen = Set<String>()
        let values = cells.filter { !$0.isEmpty && seen.insert($0).inserted }
        guard let first = values.first, first.utf8.count <= 40, first.contains(where: \.isNumber) else { return [] }
        return patterns.filter { pattern in values.allSatisfy { pattern.format.parse($0) != nil } }
    }

    /// Whether `cells` (one per data row) are all dates under one pattern.
    static func isFullDateColumn(_ cells: [String]) -> Bool {
        !cells.contains(where: \.isEmpty) && !patterns(reading: cells).isEmpty
    }

    /// The chosen pattern for the date column(s), with why, and a note when it stays ambiguous.
    struct Choice {
        var pattern: DraftDatePattern
        var comment: String
        var note: String?
    }

    /// Picks one pattern among those reading every date of every date column. `dates` are the date column's cells
    /// in file order; `dayFirstHint` is the locale evidence (decimal comma, currency) and its reason.
    static func choose(_ candidates: [DraftDatePattern], dates: [String], columnName: String,
                       dayFirstHint: (dayFirst: Bool, reason: String)) -> Choice? {
        var byOrder: [(DraftDatePattern.Order, DraftDatePattern)] = []
        for candidate in candidates where !byOrder.contains(where: { $0.0 == candidate.order }) {
            byOrder.append((candidate.order, candidate))
        }
        // An 8-digit pattern only when no pattern with separators reads the column.
        if byOrder.count > 1 { byOrder.removeAll { $0.1.pattern.hasPrefix("yyyyMMdd") } }
        guard let first = byOrder.first else { return nil }
        let examples = Array(Set(dates.filter { !$0.isEmpty })).sorted().prefix(2).map { "'\($0)'" }.joined(separator: ", ")
        if byOrder.count == 1 {
            let proof = decidingCell(first.1, dates: dates).map { ": \($0) settles day and month" } ?? ""
            return Choice(pattern: first.1, comment: "every cell of \(columnName) reads so (e.g. \(examples))\(proof)")
        }
        let orders = byOrder.filter { $0.0 != .yearFirst }
        guard let dayFirst = orders.first(where: { $0.0 == .dayFirst })?.1,
              let monthFirst = orders.first(where: { $0.0 == .monthFirst })?.1 else { return Choice(pattern: first.1, comment: "every cell of \(columnName) reads so") }
        // Evidence from the data first: statements list their rows in date order, usually only one reading does.
        let dayOrdered = inOrder(dayFirst, dates), monthOrdered = inOrder(monthFirst, dates)
        let pick: DraftDatePattern
        let reason: String
        let daySpan = span(dayFirst, dates), monthSpan = span(monthFirst, dates)
        if dayOrdered != monthOrdered {
            pick = dayOrdered ? dayFirst : monthFirst
            reason = "only \(pick.pattern) puts the rows in date order"
        } else if max(daySpan, monthSpan) > 31, min(daySpan, monthSpan) * 3 < max(daySpan, monthSpan) {
            // A statement covers weeks, not seasons: the reading that keeps the rows close together.
            pick = daySpan < monthSpan ? dayFirst : monthFirst
            reason = "it puts the rows within \(min(daySpan, monthSpan)) days, the other reading over \(max(daySpan, monthSpan))"
        } else {
            pick = dayFirstHint.dayFirst ? dayFirst : monthFirst
            reason = dayFirstHint.reason
        }
        let other = pick.pattern == dayFirst.pattern ? monthFirst : dayFirst
        let note = "dates are ambiguous: every date in \(columnName) (e.g. \(examples)) reads as \(dayFirst.pattern) and "
            + "as \(monthFirst.pattern) (no day above 12); chose \(pick.pattern) because \(reason). "
            + "If your bank writes \(other.pattern), change date_format"
        return Choice(pattern: pick, comment: "GUESS: ambiguous, \(dayFirst.pattern) or \(monthFirst.pattern); \(reason)", note: note)
    }

    /// A cell whose day is above 12, which only one reading accepts.
    private static func decidingCell(_ pattern: DraftDatePattern, dates: [String]) -> String? {
        let text = pattern.pattern
        guard pattern.order != .yearFirst, !text.contains("MMM"), text.contains("/") || text.contains("-") else { return nil }
        for cell in dates where !cell.isEmpty {
            let parts = cell.split { !$0.isNumber }.prefix(2).compactMap { Int($0) }
            if parts.count == 2, parts.contains(where: { $0 > 12 }) { return "'\(cell)'" }
        }
        return nil
    }

    /// Days from the earliest to the latest date under `pattern`.
    static func span(_ pattern: DraftDatePattern, _ dates: [String]) -> Int {
        let days = dates.compactMap { pattern.format.parse($0)?.date }
        guard let first = days.min(), let last = days.max() else { return 0 }
        return Int((last.timeIntervalSince(first) / 86_400).rounded())
    }

    /// Whether the dates are in ascending or descending order under `pattern`.
    static func inOrder(_ pattern: DraftDatePattern, _ dates: [String]) -> Bool {
        let days = dates.compactMap { pattern.format.parse($0)?.date }
        guard days.count > 1 else { return true }
        let pairs = zip(days, days.dropFirst())
        return pairs.allSatisfy { $0 <= $1 } || pairs.allSatisfy { $0 >= $1 }
    }
}
