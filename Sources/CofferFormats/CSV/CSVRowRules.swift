import CofferModel
import Foundation

/// A profile's `rules` and `ignore_rows`, compiled once per file: which rows to skip and what to set on the
/// others.
///
/// Conditions read cells as text (trimmed). `equals` compares ignoring case and runs of spaces; `matches` is a
/// regular expression searched anywhere in the cell, except that a pattern without regex characters is a plain
/// substring search (much cheaper per row); `empty: true` holds for an empty or missing cell.
struct CSVRowRules {
    enum Test {
        case equals(String)
        case contains(String)
        case regex(NSRegularExpression)
        case empty(Bool)
    }

    struct Compiled {
        var tests: [(index: Int, test: Test)]
        var skip: Bool
        var actions: CSVProfile.Actions?
    }

    let rules: [Compiled]
    let ignoreRows: [NSRegularExpression]
    let delimiter: String

    init(profile: CSVProfile, columnIndex: (String) throws -> Int) throws {
        rules = try profile.rules.map { rule in
            Compiled(tests: try rule.when.map { condition in
                let index = try columnIndex(condition.column)
                if let value = condition.equals { return (index, .equals(CSVProfile.normalizedName(value))) }
                if let empty = condition.empty { return (index, .empty(empty)) }
                let pattern = condition.matches ?? ""
                if !pattern.contains(where: { "\\^$.|?*+()[]{}".contains($0) }) {
                    return (index, .contains(pattern.lowercased()))
                }
                return (index, .regex(try NSRegularExpression(pattern: pattern)))
            }, skip: rule.skip, actions: rule.set)
        }
        ignoreRows = try profile.ignoreRows.map { try NSRegularExpression(pattern: $0) }
        delimiter = profile.delimiter.byte.map { String(UnicodeScalar($0)) } ?? ","
    }

    var isEmpty: Bool { rules.isEmpty && ignoreRows.isEmpty }

    /// Whether the row is one `ignore_rows` names: its cells joined by the delimiter match a pattern.
    func isIgnored(_ r: CSVRecordReader, text: (Int) -> String?) -> Bool {
        guard !ignoreRows.isEmpty else { return false }
        let line = (0..<r.fieldCount).map { text($0) ?? "" }.joined(separator: delimiter)
        let range = NSRange(line.startIndex..., in: line)
        return ignoreRows.contains { $0.firstMatch(in: line, range: range) != nil }
    }

    /// The rules that hold for the row: whether one says skip, and the actions of the others, in order.
    func evaluate(text: (Int) -> String?) -> (skip: Bool, actions: [CSVProfile.Actions]) {
        var actions: [CSVProfile.Actions] = []
        for rule in rules where rule.tests.allSatisfy({ Self.holds($0.test, text($0.index)) }) {
            if rule.skip { return (true, []) }
            if let set = rule.actions { actions.append(set) }
        }
        return (false, actions)
    }

    static func holds(_ test: Test, _ cell: String?) -> Bool {
        switch test {
        case .empty(let wanted): return (cell == nil) == wanted
        case .equals(let value): return cell.map(CSVProfile.normalizedName) == value
        case .contains(let value): return cell?.lowercased().contains(value) ?? false
        case .regex(let regex):
            guard let cell else { return false }
            return regex.firstMatch(in: cell, range: NSRange(cell.startIndex..., in: cell)) != nil
        }
    }

    /// Applies a rule's `set` to a mapped transaction.
    static func apply(_ set: CSVProfile.Actions, to t: inout RawTransaction) {
        if let status = set.status.flatMap(TransactionStatus.init(name:)) { t.status = status }
        if let type = set.type.flatMap(TransactionType.init(name:)) { t.transactionType = type }
        if let mcc = set.mcc.flatMap(MerchantCategoryCode.init) { t.merchantCategoryCode = mcc }
        if let description = set.description { t.name = description }
        switch set.sign {
        case "flip":
            if let indicator = t.indicator { t.indicator = indicator.opposite } else { t.amount = -t.amount }
        case "debit":
            t.amount = abs(t.amount); t.indicator = .debit
        case "credit":
            t.amount = abs(t.amount); t.indicator = .credit
        default: break
        }
    }
}
