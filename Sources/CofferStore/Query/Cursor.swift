import CofferModel
import Foundation

extension TransactionQuery {
    /// Coffer's addition: where a page of results ends, so the next page starts right after it.
    ///
    /// For example:
    /// ```swift
    /// var query = TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)], limit: 500)
    /// while true {
    ///     let page = try await store.transactionPage(query: query)
    ///     handle(page.transactions)
    ///     guard let next = page.nextCursor else { break }
    ///     query.after = next
    /// }
    /// ```
    /// A cursor names the last row of a page under the query's order: that row's values of the sort keys and its
    /// id. The next page is what follows those values (a keyset condition in SQLite), so page 900 costs what
    /// page 1 costs, where `offset` walks every row before it; rows inserted or deleted before the cursor between
    /// pages shift nothing. FinanceKit pages with `limit` and `offset` only; both still work, and `offset` with a
    /// cursor skips rows after it.
    ///
    /// A cursor continues the order it was made for: a query with other sort descriptors refuses it
    /// (`CofferError.Code.usage`). The filters may differ (the cursor is a position in the order, not a
    /// snapshot). Opaque and `Codable` (one string) like `HistoryToken`; it is not signed: any text is only a
    /// position to start from. Where the order runs in Swift (a sort key SQLite cannot order by), the cursor holds
    /// the whole last row and the filtering runs in Swift too; the result is the same.
    public struct Cursor: Codable, Hashable, Sendable {
        /// The encoded form: base64url of the sort signature and the values.
        package let encoded: String

        package init(encoded: String) { self.encoded = encoded }

        /// The cursor as text, as `coffer transactions` prints it.
        public var stringValue: String { encoded }

        /// A cursor from its text form. Any text is accepted here; a query checks it when it is used.
        public init(stringValue: String) { encoded = stringValue }

        /// Decodes a cursor saved with `encode(to:)`: a single string.
        public init(from decoder: any Decoder) throws {
            encoded = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes the cursor as a single string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoded)
        }
    }

    /// Coffer's addition: one page of a query's results, and the cursor that continues after it.
    public struct Page: Sendable {
        /// The page's transactions, in the query's order.
        public let transactions: [Transaction]
        /// Continues after the page's last row; nil when no row follows (or the query has no limit).
        public let nextCursor: Cursor?

        /// A page of `transactions` continued by `nextCursor`.
        public init(transactions: [Transaction], nextCursor: Cursor?) {
            self.transactions = transactions
            self.nextCursor = nextCursor
        }
    }

    /// Coffer's addition: the cursor that continues this query's order right after `transaction` (any row, not
    /// only the last one of a page).
    public func cursor(after transaction: Transaction) -> Cursor {
        Keyset.cursor(after: transaction, sort: sortDescriptors)
    }
}

extension FinanceStore {
    /// Coffer's addition: a page of transactions (at most `query.limit`, starting after `query.after`) and the
    /// cursor that continues after it. See `TransactionQuery.Cursor`.
    public func transactionPage(query: TransactionQuery) async throws -> TransactionQuery.Page {
        guard let limit = query.limit else {
            return TransactionQuery.Page(transactions: try await transactions(query: query), nextCursor: nil)
        }
        guard limit > 0 else { return TransactionQuery.Page(transactions: [], nextCursor: nil) }
        // One row more than the page says whether another page follows.
        var probe = query
        probe.limit = limit < Int.max ? limit + 1 : limit
        var rows = try await transactions(query: probe)
        guard rows.count > limit else { return TransactionQuery.Page(transactions: rows, nextCursor: nil) }
        rows.removeLast(rows.count - limit)
        return TransactionQuery.Page(transactions: rows, nextCursor: query.cursor(after: rows[rows.count - 1]))
    }
}
