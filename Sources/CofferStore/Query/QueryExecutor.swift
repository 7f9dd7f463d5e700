import CofferModel
import Foundation
import GRDB

/// What the store needs to run a query for one model type.
struct QueryPlan<Model: SQLMapped & Sendable>: @unchecked Sendable {  // immutable after creation
    /// What the model is, for a client's grant (`AccessScope`).
    let entity: EntityKind
    let table: String
    let columns: String
    let decode: @Sendable (ReadStatement) throws -> Model
    /// Steps the statement to its end, appending every row: the per-row loop, compiled for the concrete model.
    let decodeAll: @Sendable (ReadStatement, inout [Model]) throws -> Void
    /// Columns for SQL sorting, by key path (properties that sort the same in SQL as in Swift).
    let sortColumns: [AnyKeyPath: String]
    let defaultOrder: String
    /// When set, `defaultOrder` is `tieBreak.column, id` and the id part can run in Swift.
    var tieBreak: TieBreak<Model>? = nil
    /// When set, the whole order in Swift (sort descriptors, then `defaultOrder`), for orders SQLite cannot run;
    /// otherwise Swift's stable sort keeps SQL's default order among equal rows.
    var swiftOrder: (@Sendable (Model, Model, [SortDescriptor<Model>]) -> ComparisonResult)? = nil
}

/// How a query ran: the SQL, and whether Swift had to finish the filtering or sorting. `coffer transactions
/// --explain` prints it.
public struct QueryExplanation: Sendable, CustomStringConvertible {
    /// The SQL SQLite ran.
    public let sql: String
    /// Its bound values, as text.
    public let arguments: [String]
    /// True when the whole predicate ran in SQLite.
    public let predicatePushedDown: Bool
    /// True when the order (and so limit/offset) ran in SQLite.
    public let sortPushedDown: Bool
    /// True when SQLite ordered by the date alone and Swift put equal dates in id order (no index has
    /// (account, date, id); SQLite's sorter cost more than the whole rest of the query).
    public var tiesInSwift: Bool = false
    /// For a page of some accounts in the bank-day order: the same query with the account test kept off the
    /// indexes (`+account_id`), run first within a budget of SQLite steps, so that it walks the day index; `sql`
    /// answers when the budget runs out (the accounts hold little of the store). Nil for other queries.
    public var accountWalkSQL: String? = nil

    public var description: String {
        var text = sql
        if !arguments.isEmpty { text += "\n  arguments: " + arguments.joined(separator: ", ") }
        if let accountWalkSQL { text += "\n  tried first, within a budget: " + accountWalkSQL }
        text += "\n  predicate: " + (predicatePushedDown ? "in SQLite" : "SQL pre-filter, then evaluated in Swift")
        text += "\n  order, limit, offset: " + (sortPushedDown ? "in SQLite" : "in Swift") + (tiesInSwift ? " (equal dates by id in Swift)" : "")
        return text
    }
}

extension FinanceStore {
    static let transactionPlan = QueryPlan<Transaction>(
        entity: .transaction, table: TxnColumn.table, columns: TxnColumn.transactionList, decode: TxnRows.transaction,
        decodeAll: { try collect($0, &$1, TxnRows.transaction) },
        sortColumns: [
            \Transaction.transactionDate: "transaction_date", \Transaction.postedDate: "posted_date",
            \Transaction.transactionAmount.amount: "amount_scaled", \Transaction.id: "id",
            \Transaction.status: "status", \Transaction.transactionType: "type", \Transaction.localDay: "local_day",
        ],
        defaultOrder: "transaction_date, id", tieBreak: .transactionDate, swiftOrder: Keyset.compare)

    static let accountPlan = QueryPlan<Account>(
        entity: .account, table: AccountRecord.databaseTableName, columns: AccountRecord.selectList, decode: { try AccountRecord.decode($0).account() },
        decodeAll: { try collect($0, &$1) { try AccountRecord.decode($0).account() } },
        sortColumns: [\Account.id: "id", \Account.openingDate: "opening_date"],
        defaultOrder: "institution_name, display_name, id")

    static let balancePlan = QueryPlan<AccountBalance>(
        entity: .balance, table: BalanceRecord.databaseTableName, columns: BalanceRecord.selectList, decode: { try BalanceRecord.decode($0).balance() },
        decodeAll: { try collect($0, &$1) { try BalanceRecord.decode($0).balance() } },
        sortColumns: [\AccountBalance.id: "id"],
        defaultOrder: "as_of, id")

    /// Transactions matching the query.
    public func transactions(query: TransactionQuery) async throws -> [Transaction] {
        try await transactions(query: query, report: nil)
    }

    /// `LIKE` over the folded texts (`txn.folded_text`, see `SearchFolding`), with the search text folded the same
    /// way; `\` escapes the pattern's own `%` and `_`. `Transaction.matchesSearchText` is the same test in Swift.
    static func searchCondition(_ text: String?) -> SQLPart? {
        guard let text else { return nil }
        let folded = SearchFolding.fold(text)
        guard !folded.isEmpty else { return nil }
        let escaped = folded.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return SQLPart(sql: "folded_text LIKE ? ESCAPE '\\'", arguments: [("%" + escaped + "%").databaseValue], exact: true)
    }

    /// Accounts matching the query.
    public func accounts(query: AccountQuery) async throws -> [Account] {
        try await run(Self.accountPlan, query.predicate, query.sortDescriptors, query.limit, query.offset)
    }

    /// Balances matching the query.
    public func accountBalances(query: AccountBalanceQuery) async throws -> [AccountBalance] {
        try await run(Self.balancePlan, query.predicate, query.sortDescriptors, query.limit, query.offset)
    }

    /// The SQL a transaction query becomes, and which parts run in Swift. An unusable cursor is left out.
    public func explain(_ query: TransactionQuery) -> QueryExplanation {
        let after = query.after.flatMap { try? Keyset.position(of: $0, sort: query.sortDescriptors) }
        return Self.plan(Self.transactionPlan, query.predicate, query.sortDescriptors, query.limit, query.offset,
                         extra: Self.searchCondition(query.searchText), after: after).explanation
    }

    struct Prepared {
        let sql: String
        let arguments: [DatabaseValue]
        let predicateExact: Bool
        let sortInSQL: Bool
        let limitInSQL: Bool
        /// The order's last key (id) is applied in Swift: `QueryPlan.tieBreak`.
        var tiesInSwift = false
        /// Tried before `sql` (see `AccountWalk`).
        var accountWalk: AccountWalk? = nil

        var explanation: QueryExplanation {
            QueryExplanation(sql: sql, arguments: arguments.map { $0.description }, predicatePushedDown: predicateExact,
                             sortPushedDown: sortInSQL, tiesInSwift: tiesInSwift, accountWalkSQL: accountWalk?.sql)
        }
    }

    static func plan<Model>(_ plan: QueryPlan<Model>, _ predicate: Predicate<Model>?, _ sort: [SortDescriptor<Model>],
                            _ limit: Int?, _ offset: Int?, extra: SQLPart? = nil, after: KeysetPosition<Model>? = nil,
                            approximateDecimals: Bool = false) -> Prepared {
        var sql = "SELECT \(plan.columns) FROM \(plan.table)"
        var arguments: [DatabaseValue] = []
        var exact = true
        var conditions: [String] = []
        if let predicate {
            if let part = PredicateSQL.translate(predicate, approximateDecimals: approximateDecimals) {
                if !part.isTrue { conditions.append(part.sql) }
                arguments = part.arguments
                exact = part.exact
            } else {
                exact = false
            }
        }
        if let extra {
            conditions.append(extra.sql)
            arguments += extra.arguments
        }
        // After a cursor, in SQL when SQL runs the order (`Keyset.position` checked that it does).
        if case .keys(let values)? = after, let columns = Keyset.orderColumns(plan, sort), columns.count == values.count {
            let part = Keyset.condition(columns, values)
            conditions.append(part.sql)
            arguments += part.arguments
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        var orderTerms: [String] = []
        var orderColumns: [String] = []
        var sortInSQL = true
        for descriptor in sort {
            guard let path = descriptor.keyPath, let column = plan.sortColumns[path] else {
                sortInSQL = false
                break
            }
            orderTerms.append("\(column) \(descriptor.order == .forward ? "ASC" : "DESC")")
            orderColumns.append(column)
        }
        var tiesInSwift = false
        if sortInSQL, exact, limit == nil, offset == nil, let tie = plan.tieBreak, orderColumns.allSatisfy({ $0 == tie.column }) {
            // Ordered by the tie-break column alone: ties by id in Swift (see TieBreak).
            sql += " ORDER BY " + (orderTerms.first ?? tie.column)
            tiesInSwift = true
        } else if sortInSQL {
            orderTerms.append(plan.defaultOrder)
            sql += " ORDER BY " + orderTerms.joined(separator: ", ")
        } else {
            sql += " ORDER BY " + plan.defaultOrder
        }
        let limitInSQL = exact && sortInSQL
        if limitInSQL, limit != nil || offset != nil {
            sql += " LIMIT \(max(0, limit ?? -1)) OFFSET \(max(0, offset ?? 0))"
            if limit == nil { sql = sql.replacingOccurrences(of: "LIMIT 0 OFFSET", with: "LIMIT -1 OFFSET") }
        }
        let walk = limitInSQL ? AccountWalk.make(sql: sql, firstOrderColumn: orderColumns.first, limit: limit, offset: offset) : nil
        return Prepared(sql: sql, arguments: arguments, predicateExact: exact, sortInSQL: sortInSQL, limitInSQL: limitInSQL,
                        tiesInSwift: tiesInSwift, accountWalk: walk)
    }

    // Specialized for transactions: unspecialized, every row's copy and append went through value witnesses.
    @_specialize(exported: false, where Model == Transaction)
    func run<Model>(_ plan: QueryPlan<Model>, _ predicate: Predicate<Model>?, _ sort: [SortDescriptor<Model>],
                    _ limit: Int?, _ offset: Int?, extra: SQLPart? = nil, after: KeysetPosition<Model>? = nil,
                    report: QueryRunReport? = nil) async throws -> [Model] {
        if let limit, limit <= 0 {
            // Even an empty page of a client's store says whether the read is allowed.
            if let clientID { try readNow { try AccessScope.load($0, clientID: clientID) }.require(.of(plan.entity)) }
            return []
        }
        // On one of the store's read threads (never a cooperative-pool thread), on a kept connection with its
        // prepared statements: the library's share of a 1,000-row query is then decoding, not statement
        // compilation. Cancelling the task interrupts SQLite and throws `CancellationError`.
        let clientID = self.clientID
        return try await readOffPool { job in try job.read { connection in
            guard let clientID else {
                return try Self.execute(plan, predicate, sort, limit, offset, extra: extra, after: after, connection, report: report)
            }
            // A client's store: the grant, read in the query's own snapshot, is one more condition.
            return try connection.snapshot {
                let scope = try AccessScope.load(connection, clientID: clientID)
                try scope.require(.of(plan.entity))
                return try Self.execute(plan, predicate, sort, limit, offset, extra: .all(extra, scope.tableCondition(plan.entity)),
                                        after: after, connection, report: report)
            }
        } }
    }

    /// Runs a query on `connection`: what SQL can do in SQL, the rest in Swift.
    @_specialize(exported: false, where Model == Transaction)
    static func execute<Model>(_ plan: QueryPlan<Model>, _ predicate: Predicate<Model>?, _ sort: [SortDescriptor<Model>],
                               _ limit: Int?, _ offset: Int?, extra: SQLPart?, after: KeysetPosition<Model>?,
                               _ connection: ReaderConnection, report: QueryRunReport? = nil) throws -> [Model] {
        let approximate = try Self.inexactAmounts(connection)
        let prepared = Self.plan(plan, predicate, sort, limit, offset, extra: extra, after: after,
                                 approximateDecimals: approximate)
        if let walk = prepared.accountWalk, try connection.sortsWholeSelection(prepared.sql) {
            let statement = try connection.statement(walk.sql)
            try statement.bind(prepared.arguments)
            var out: [Model] = []
            out.reserveCapacity(min(limit ?? 0, 65_536))
            let walked = try connection.withinBudget(steps: walk.budget, { try plan.decodeAll(statement, &out) }) != nil
            report?.walked = walked
            if walked { return out }
            statement.reset()
        }
        let statement = try connection.statement(prepared.sql)
        try statement.bind(prepared.arguments)
        var rows = 0
        if prepared.limitInSQL {
            var out: [Model] = []
            // Room for what this statement returned last time (or the limit): no regrowing on repeated queries.
            out.reserveCapacity(min(limit ?? connection.rowHint(statement), 65_536))
            try plan.decodeAll(statement, &out)
            connection.setRowHint(statement, out.count)
            if prepared.tiesInSwift { plan.tieBreak?.sortTies(&out) }
            return out
        }
        // Swift finishes: filter as rows stream by; when SQL already orders them, stop once the page is full.
        let skip = max(0, offset ?? 0)
        let wanted = limit.map { skip + max(0, $0) }
        var pivot: Model?
        if !prepared.sortInSQL, case .row(let row)? = after { pivot = row }
        let order = plan.swiftOrder
        var matches: [Model] = []
        while try statement.step() {
            rows += 1
            if rows & 4_095 == 0 { try connection.checkCancellation() }
            let model = try plan.decode(statement)
            if let predicate, !prepared.predicateExact, try !predicate.evaluate(model) { continue }
            // After a cursor of an order run in Swift: only rows that come after its row.
            if let pivot, let order, order(model, pivot, sort) != .orderedDescending { continue }
            matches.append(model)
            if prepared.sortInSQL, let wanted, matches.count >= wanted { break }
        }
        if !prepared.sortInSQL {
            if let order { matches.sort { order($0, $1, sort) == .orderedAscending } } else { matches.sort(using: sort) }
        }
        let start = min(skip, matches.count)
        let end = limit.map { min(matches.count, start + max(0, $0)) } ?? matches.count
        return Array(matches[start..<end])
    }

    /// Appends every row of `statement`, checking for cancellation every 4,096 rows (SQLite's interrupt stops a
    /// statement too; this also stops the Swift side of a cancelled read).
    @inline(__always)
    static func collect<M>(_ statement: ReadStatement, _ out: inout [M], _ decode: (ReadStatement) throws -> M) throws {
        while try statement.step() {
            out.append(try decode(statement))
            if out.count & 4_095 == 0 { try statement.connection.checkCancellation() }
        }
    }

    /// Whether some stored amount has more than six decimals, so that amount comparisons in SQL (on micro-units)
    /// are only a pre-filter.
    static func inexactAmounts(_ connection: ReaderConnection) throws -> Bool {
        let statement = try connection.statement("SELECT value FROM store_meta WHERE key = 'inexact_amounts'")
        guard try statement.step() else { return false }
        return statement.int64(0) != 0
    }
}
