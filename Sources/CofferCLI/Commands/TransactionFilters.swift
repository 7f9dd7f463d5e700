import ArgumentParser
import Coffer
import Foundation

/// The filters `coffer transactions` and `coffer report` share; each becomes a small predicate, joined with
/// `allOf`, and every part runs in SQLite.
struct TransactionFilters: ParsableArguments {
    @Option(help: ArgumentHelp("Only these accounts: an id, the last digits of a number, or part of a name; a comma list, or "
                               + "repeat the option.", valueName: "account"))
    var account: [String] = []
    @Option(help: "On or after this day (YYYY-MM-DD).") var from: String?
    @Option(help: "On or before this day (YYYY-MM-DD).") var to: String?
    @Option(help: "Statuses: authorized, booked, memo, pending, rejected.") var status: String?
    @Option(help: "Transaction types, e.g. pointOfSale,atm,directDebit.") var type: String?
    @Option(help: "Merchant category codes, e.g. 5411,5814.") var mcc: String?
    @Option(help: "Text in the description, original description or merchant (ignores case and accents: muller finds Müller).") var text: String?
    @Option(help: "Smallest amount (positive, as stored).") var min: String?
    @Option(help: "Largest amount.") var max: String?
    @Flag(help: "Only debits (money out).") var debit = false
    @Flag(help: "Only credits (money in).") var credit = false

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CalendarDay.parse(value) == nil { throw ValidationError("\(name) expects a day like 2026-03-14, not '\(value)'") }
        }
        for (name, value) in [("--min", min), ("--max", max)] {
            if let value, ExactDecimal.parse(value) == nil { throw ValidationError("\(name) expects a decimal number like 12.50, not '\(value)'") }
        }
        if debit && credit { throw ValidationError("--debit and --credit exclude each other (leave both out for both)") }
        _ = try statuses()
        _ = try types()
        _ = try codes()
    }

    var fromDay: Date? { from.flatMap(CalendarDay.parse) }
    var toDay: Date? { to.flatMap(CalendarDay.parse) }

    func statuses() throws -> [TransactionStatus]? {
        try status.map {
            try list($0, "--status", expected: "one of " + TransactionStatus.allCases.map(\.name).sorted().joined(separator: ", ")) {
                TransactionStatus(name: $0)
            }
        }
    }

    func types() throws -> [TransactionType]? {
        try type.map {
            try list($0, "--type", expected: "one of " + TransactionType.allCases.map(\.name).sorted().joined(separator: ", ")) {
                TransactionType(name: $0)
            }
        }
    }

    func codes() throws -> [MerchantCategoryCode?]? {
        try mcc.map { try list($0, "--mcc", expected: "a four-digit merchant category code such as 5411") { MerchantCategoryCode($0).map { Optional($0) } } }
    }

    func list<T>(_ text: String, _ option: String, expected: String, _ parse: (String) -> T?) throws -> [T] {
        try text.split(separator: ",").map { part in
            let word = part.trimmingCharacters(in: .whitespaces)
            guard let value = parse(word) else { throw ValidationError("\(option): '\(word)' is not a known value; expected \(expected)") }
            return value
        }
    }

    /// Each filter as its own small predicate, joined with `allOf`; every part runs in SQLite. `defaultStatuses`
    /// apply when `--status` is not given.
    func predicate(accountIDs: [UUID]?, defaultStatuses: [TransactionStatus]? = nil) throws -> Predicate<Transaction>? {
        var parts: [Predicate<Transaction>] = []
        if let accountIDs, accountIDs.count == 1, let accountID = accountIDs.first {
            parts.append(#Predicate { $0.accountID == accountID })
        } else if let accountIDs {
            parts.append(#Predicate { accountIDs.contains($0.accountID) })
        }
        let start = fromDay, end = toDay
        if start != nil || end != nil { parts.append(TransactionQuery.predicate(fromDay: start, throughDay: end)) }
        if let low = min.flatMap(ExactDecimal.parse) { parts.append(#Predicate { $0.transactionAmount.amount >= low }) }
        if let high = max.flatMap(ExactDecimal.parse) { parts.append(#Predicate { $0.transactionAmount.amount <= high }) }
        if let statuses = try statuses() ?? defaultStatuses { parts.append(TransactionQuery.predicate(forStatuses: statuses)) }
        if let types = try types() { parts.append(TransactionQuery.predicate(forTransactionTypes: types)) }
        if let codes = try codes() { parts.append(TransactionQuery.predicate(forMerchantCategoryCodes: codes.compactMap { $0 })) }
        if debit || credit {
            let indicator: CreditDebitIndicator = debit ? .debit : .credit
            parts.append(#Predicate { $0.creditDebitIndicator == indicator })
        }
        switch parts.count {
        case 0: return nil
        case 1: return parts[0]
        default: return allOf(parts)
        }
    }
}
