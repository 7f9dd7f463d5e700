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
        if debit && credit { throw ValidationError("--debit and --credit exclude each other (leave both out for both)") }
        _ = try filter(accountIDs: nil)
    }

    var fromDay: Date? { from.flatMap(CalendarDay.parse) }
    var toDay: Date? { to.flatMap(CalendarDay.parse) }

    /// The options as the library's filter (the words parsed as `coffer serve` parses its query parameters).
    func filter(accountIDs: [UUID]?) throws -> TransactionFilter {
        do {
            var filter = TransactionFilter()
            filter.accountIDs = accountIDs
            filter.fromDay = try from.map { try TransactionFilter.day($0, "--from") }
            filter.throughDay = try to.map { try TransactionFilter.day($0, "--to") }
            filter.minimum = try min.map { try TransactionFilter.amount($0, "--min") }
            filter.maximum = try max.map { try TransactionFilter.amount($0, "--max") }
            filter.statuses = try status.map { try TransactionFilter.statuses($0, "--status") }
            filter.types = try type.map { try TransactionFilter.types($0, "--type") }
            filter.codes = try mcc.map { try TransactionFilter.codes($0, "--mcc") }
            filter.indicator = debit ? .debit : credit ? .credit : nil
            return filter
        } catch let invalid as TransactionFilter.Invalid {
            throw ValidationError(invalid.description)
        }
    }

    /// Each filter as its own small predicate, joined with `allOf`; every part runs in SQLite. `defaultStatuses`
    /// apply when `--status` is not given.
    func predicate(accountIDs: [UUID]?, defaultStatuses: [TransactionStatus]? = nil) throws -> Predicate<Transaction>? {
        try filter(accountIDs: accountIDs).predicate(defaultStatuses: defaultStatuses)
    }
}
