import CofferModel
import Foundation

/// The transaction filters `coffer transactions`, `coffer report` and `coffer serve`'s `GET /v1/transactions`
/// share, parsed from the same words: each becomes a small predicate, joined with `allOf`, and every part runs in
/// SQLite. The CLI reads them from options (`--status`), the server from query parameters (`status=`); a word that
/// is not a valid value throws `Invalid`, naming the option or parameter and what was expected.
package struct TransactionFilter: Sendable {
    package var accountIDs: [UUID]?
    /// On or after this local day (midnight UTC of it, as `CalendarDay.parse` gives).
    package var fromDay: Date?
    /// On or before this local day.
    package var throughDay: Date?
    package var statuses: [TransactionStatus]?
    package var types: [TransactionType]?
    package var codes: [MerchantCategoryCode]?
    package var minimum: Decimal?
    package var maximum: Decimal?
    package var indicator: CreditDebitIndicator?

    package init() {}

    /// A word that is not a valid value of a filter: `name` is the option (`--status`) or parameter (`status`).
    package struct Invalid: Error, CustomStringConvertible {
        /// The option or parameter.
        package let name: String
        /// The whole message, naming it: `--from expects a day like 2026-03-14, not 'March'`.
        package let description: String
    }

    // MARK: Parsing the words

    package static func day(_ text: String, _ name: String) throws(Invalid) -> Date {
        guard let day = CalendarDay.parse(text) else { throw Invalid(name: name, description: "\(name) expects a day like 2026-03-14, not '\(text)'") }
        return day
    }

    package static func amount(_ text: String, _ name: String) throws(Invalid) -> Decimal {
        guard let value = ExactDecimal.parse(text) else {
            throw Invalid(name: name, description: "\(name) expects a decimal number like 12.50, not '\(text)'")
        }
        return value
    }

    package static func statuses(_ text: String, _ name: String) throws(Invalid) -> [TransactionStatus] {
        try list(text, name, expected: "one of " + TransactionStatus.allCases.map(\.name).sorted().joined(separator: ", "),
                 TransactionStatus.init(name:))
    }

    package static func types(_ text: String, _ name: String) throws(Invalid) -> [TransactionType] {
        try list(text, name, expected: "one of " + TransactionType.allCases.map(\.name).sorted().joined(separator: ", "),
                 TransactionType.init(name:))
    }

    package static func codes(_ text: String, _ name: String) throws(Invalid) -> [MerchantCategoryCode] {
        try list(text, name, expected: "a four-digit merchant category code such as 5411") { MerchantCategoryCode($0) }
    }

    /// Account ids, comma separated (the server's `account=`; the CLI resolves names and digits itself).
    package static func accountIDs(_ text: String, _ name: String) throws(Invalid) -> [UUID] {
        try list(text, name, expected: "an account id (a UUID)") { UUID(uuidString: $0) }
    }

    private static func list<T>(_ text: String, _ name: String, expected: String, _ parse: (String) -> T?) throws(Invalid) -> [T] {
        var values: [T] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = part.trimmingCharacters(in: .whitespaces)
            guard let value = parse(word) else {
                throw Invalid(name: name, description: "\(name): '\(word)' is not a known value; expected \(expected)")
            }
            values.append(value)
        }
        return values
    }

    /// `date`, `amount` or `posted`, descending with a leading `-` or a `:desc` suffix (`:asc` is the default).
    /// By date means by the bank's own day, then the instant: 20:00 PST on March 31 (04:00 UTC on April 1) comes
    /// before April 1.
    package static func sortDescriptors(_ text: String, _ name: String) throws(Invalid) -> [SortDescriptor<Transaction>] {
        let descending = text.hasPrefix("-") || text.hasSuffix(":desc")
        let order: SortOrder = descending ? .reverse : .forward
        let key = text.replacingOccurrences(of: ":desc", with: "").replacingOccurrences(of: ":asc", with: "")
        switch key.trimmingCharacters(in: CharacterSet(charactersIn: "-+")) {
        case "date": return [SortDescriptor(\.localDay, order: order), SortDescriptor(\.transactionDate, order: order)]
        case "amount": return [SortDescriptor(\.transactionAmount.amount, order: order)]
        case "posted": return [SortDescriptor(\.postedDate, order: order)]
        default: throw Invalid(name: name, description: "\(name) expects date, amount or posted (with - for descending), not '\(text)'")
        }
    }

    // MARK: The predicate

    /// Each filter as its own small predicate, joined with `allOf`; nil when nothing filters. `defaultStatuses`
    /// apply when no statuses are given.
    package func predicate(defaultStatuses: [TransactionStatus]? = nil) -> Predicate<Transaction>? {
        var parts: [Predicate<Transaction>] = []
        if let accountIDs, accountIDs.count == 1, let accountID = accountIDs.first {
            parts.append(#Predicate { $0.accountID == accountID })
        } else if let accountIDs {
            parts.append(#Predicate { accountIDs.contains($0.accountID) })
        }
        if fromDay != nil || throughDay != nil { parts.append(TransactionQuery.predicate(fromDay: fromDay, throughDay: throughDay)) }
        if let low = minimum { parts.append(#Predicate { $0.transactionAmount.amount >= low }) }
        if let high = maximum { parts.append(#Predicate { $0.transactionAmount.amount <= high }) }
        if let statuses = statuses ?? defaultStatuses { parts.append(TransactionQuery.predicate(forStatuses: statuses)) }
        if let types { parts.append(TransactionQuery.predicate(forTransactionTypes: types)) }
        if let codes { parts.append(TransactionQuery.predicate(forMerchantCategoryCodes: codes)) }
        if let indicator { parts.append(#Predicate { $0.creditDebitIndicator == indicator }) }
        switch parts.count {
        case 0: return nil
        case 1: return parts[0]
        default: return allOf(parts)
        }
    }
}
