import CofferModel
import Foundation

/// Which transactions to return, in what order: FinanceKit's `TransactionQuery`.
///
/// For example:
/// ```swift
/// let id = account.id, start = CalendarDay.parse("2026-03-01")!
/// let query = TransactionQuery(
///     sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)],
///     predicate: #Predicate { $0.accountID == id && $0.transactionDate >= start },
///     limit: 50)
/// ```
/// With no sort descriptors, results come oldest first (transaction date, then id). Limit and offset page
/// without gaps or repeats because every order ends with the id; Coffer adds `after`, a cursor that continues
/// after a page's last row without walking the rows before it (`FinanceStore.transactionPage(query:)`).
public struct TransactionQuery: Sendable {
    /// The order of the results; every order ends with the id, so pages never skip or repeat.
    public var sortDescriptors: [SortDescriptor<Transaction>]
    /// Which records to return; nil returns all. What SQL cannot express is evaluated in Swift.
    public var predicate: Predicate<Transaction>?
    /// At most this many results.
    public var limit: Int?
    /// Skip this many results first (with `limit`, a page).
    public var offset: Int?
    /// Coffer's addition: text that the description, original description or merchant name contains, ignoring
    /// case and diacritics (`"starbucks"` finds "STARBUCKS #123", `"muller"` finds "Café Müller", `"koln"` finds
    /// "KÖLN"; see `SearchFolding` for the rules). `%` and `_` are plain characters. Foundation predicates on Linux
    /// cannot lowercase text, so this is a query property; it runs in SQLite (`LIKE` over a folded copy of the
    /// texts written at import), and `Transaction.matchesSearchText(_:)` is the same test in Swift.
    public var searchText: String?
    /// Coffer's addition: start right after the row this cursor names (a page's `nextCursor`, see `Cursor`);
    /// the query's sort descriptors must be the ones the cursor was made for.
    public var after: Cursor?

    /// A query; every part is optional.
    public init(sortDescriptors: [SortDescriptor<Transaction>] = [], predicate: Predicate<Transaction>? = nil,
                limit: Int? = nil, offset: Int? = nil, searchText: String? = nil) {
        self.sortDescriptors = sortDescriptors
        self.predicate = predicate
        self.limit = limit
        self.offset = offset
        self.searchText = searchText
    }

    /// Coffer's addition: transactions on these calendar days, inclusive, as the bank's own statement dates them
    /// (`Transaction.localDay`): what `coffer transactions --from --to` asks. A day is given as Coffer writes one,
    /// midnight UTC (`CalendarDay.parse`); any instant counts as the UTC day it falls on. Either bound may be left
    /// open.
    ///
    /// For example:
    /// ```swift
    /// let march31 = CalendarDay.parse("2026-03-31")!
    /// // Finds a row of 20:00 PST on March 31 (04:00 UTC on April 1), and not one of 20:00 PST on March 30.
    /// let query = TransactionQuery(predicate: TransactionQuery.predicate(fromDay: march31, throughDay: march31))
    /// ```
    /// It runs in SQLite, through the date indexes (see `PredicateSQL`).
    public static func predicate(fromDay: Date? = nil, throughDay: Date? = nil) -> Predicate<Transaction> {
        let from = fromDay.map(CalendarDay.dayNumber)
        let through = throughDay.map(CalendarDay.dayNumber)
        switch (from, through) {
        case let (from?, through?): return #Predicate { $0.localDay >= from && $0.localDay <= through }
        case let (from?, nil): return #Predicate { $0.localDay >= from }
        case let (nil, through?): return #Predicate { $0.localDay <= through }
        case (nil, nil): return #Predicate { _ in true }
        }
    }

    /// Transactions with any of these statuses.
    public static func predicate(forStatuses statuses: [TransactionStatus]) -> Predicate<Transaction> {
        #Predicate { statuses.contains($0.status) }
    }

    /// Transactions of any of these types.
    public static func predicate(forTransactionTypes types: [TransactionType]) -> Predicate<Transaction> {
        #Predicate { types.contains($0.transactionType) }
    }

    /// Transactions with any of these merchant category codes.
    public static func predicate(forMerchantCategoryCodes codes: [MerchantCategoryCode]) -> Predicate<Transaction> {
        let optionals = codes.map { Optional($0) }
        return #Predicate { optionals.contains($0.merchantCategoryCode) }
    }
}

/// Which accounts to return: FinanceKit's `AccountQuery`. Default order: institution, then display name, then id.
public struct AccountQuery: Sendable {
    /// The order of the results; every order ends with the id, so pages never skip or repeat.
    public var sortDescriptors: [SortDescriptor<Account>]
    /// Which records to return; nil returns all. What SQL cannot express is evaluated in Swift.
    public var predicate: Predicate<Account>?
    /// At most this many results.
    public var limit: Int?
    /// Skip this many results first (with `limit`, a page).
    public var offset: Int?

    /// A query; every part is optional.
    public init(sortDescriptors: [SortDescriptor<Account>] = [], predicate: Predicate<Account>? = nil,
                limit: Int? = nil, offset: Int? = nil) {
        self.sortDescriptors = sortDescriptors
        self.predicate = predicate
        self.limit = limit
        self.offset = offset
    }
}

/// Which balances to return: FinanceKit's `AccountBalanceQuery`. Default order: oldest first (as-of date, then id).
public struct AccountBalanceQuery: Sendable {
    /// The order of the results; every order ends with the id, so pages never skip or repeat.
    public var sortDescriptors: [SortDescriptor<AccountBalance>]
    /// Which records to return; nil returns all. What SQL cannot express is evaluated in Swift.
    public var predicate: Predicate<AccountBalance>?
    /// At most this many results.
    public var limit: Int?
    /// Skip this many results first (with `limit`, a page).
    public var offset: Int?

    /// A query; every part is optional.
    public init(sortDescriptors: [SortDescriptor<AccountBalance>] = [], predicate: Predicate<AccountBalance>? = nil,
                limit: Int? = nil, offset: Int? = nil) {
        self.sortDescriptors = sortDescriptors
        self.predicate = predicate
        self.limit = limit
        self.offset = offset
    }

    /// Balances with an available figure as of `startDate` or later (and up to `endDate` when given).
    public static func predicate(availableSince startDate: Date, until endDate: Date? = nil) -> Predicate<AccountBalance> {
        if let endDate {
            return #Predicate { balance in
                balance.available.flatMap { $0.asOfDate >= startDate && $0.asOfDate <= endDate } ?? false
            }
        }
        return #Predicate { balance in balance.available.flatMap { $0.asOfDate >= startDate } ?? false }
    }

    /// Balances with a booked figure as of `startDate` or later (and up to `endDate` when given).
    public static func predicate(bookedSince startDate: Date, until endDate: Date? = nil) -> Predicate<AccountBalance> {
        if let endDate {
            return #Predicate { balance in
                balance.booked.flatMap { $0.asOfDate >= startDate && $0.asOfDate <= endDate } ?? false
            }
        }
        return #Predicate { balance in balance.booked.flatMap { $0.asOfDate >= startDate } ?? false }
    }
}
