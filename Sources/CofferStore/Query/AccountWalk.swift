import CofferModel
import GRDB
import GRDBSQLite

/// A page of some accounts' transactions in the bank-day order (`coffer transactions --account`, `GET
/// /v1/transactions` of a client granted some accounts, any `TransactionQuery` with an account test, a limit and
/// `localDay` first): two plans, and which is right depends on how many of the store's rows are those accounts'.
///
/// - The account index (`txn_account_date`) finds the accounts' rows, and SQLite sorts all of them: quick for a
///   small account, and for a large one the cost of sorting the account (47 ms at 100k rows in one account, 260
///   ms at 1M), even for a page of 20.
/// - Walking the day index (`txn_local_day`) in order and skipping other accounts' rows: about as quick as an
///   unfiltered page when the accounts hold much of the store, and a read of the whole index when they hold little
///   of it (335 ms for a 1,000-row account in a 1M store).
///
/// SQLite cannot tell the two apart: without statistics (`ANALYZE`) it takes the account index, and with them
/// (`sqlite_stat1` has averages only; Debian's SQLite has no per-value `STAT4`) it would take the walk for every
/// account alike. So when SQLite's own plan sorts the whole selection (`USE TEMP B-TREE FOR ORDER BY`, asked once
/// per query text and connection), the walk is tried first with a budget of SQLite steps that a page of a large
/// account stays well within (the accounts hold at least about 1/26 of the rows it passes); when the budget runs
/// out the statement stops, what it read is dropped, and SQLite's plan answers. Measured on a 1M store of two
/// accounts (docs/benchmarks.md): the large account's 1,000-row page 1.9 ms instead of 263 ms; the small one's
/// about 15 ms more than its 5 ms (the budget spent before giving up). Pages deeper than `maxRows` (limit + offset)
/// are not walked: their budget would cost a small account more than the sort it avoids.
///
/// Written by hand, as SQLite has no plan choice at run time; the result is the same rows either way (the same
/// conditions, `+account_id` only keeps the test off the indexes).
package struct AccountWalk {
    /// The query with every `account_id` test written `+account_id`.
    let sql: String
    /// SQLite virtual-machine steps the walk may take.
    let budget: Int

    /// Steps a walk may take for a page of `rows` (limit + offset): about 4 steps a row passed over, about 55 a
    /// row returned (measured with a progress handler on the 1M store), so 160 a row returned lets the walk pass
    /// over about 26 rows for each it returns.
    static func budget(rows: Int) -> Int { 20_000 + rows * 160 }

    /// The deepest page walked: 2,000 rows (the server's pages are at most 1,001) is a budget of 340,000 steps,
    /// about 28 ms of a small account's time in a 1M store before its sort.
    static let maxRows = 2_000

    /// The walk for a query, or nil when it does not apply: an order that does not start with `local_day`, no
    /// limit in SQL, limit + offset over `maxRows`, or no account test.
    static func make(sql: String, firstOrderColumn: String?, limit: Int?, offset: Int?) -> AccountWalk? {
        guard firstOrderColumn == "local_day", let limit, limit <= maxRows, max(0, offset ?? 0) <= maxRows - limit,
              let whereRange = sql.range(of: " WHERE ") else { return nil }
        let rows = limit + max(0, offset ?? 0)
        let head = sql[..<whereRange.upperBound]
        let clause = sql[whereRange.upperBound...]
        let unindexed = unindexedAccount(clause)
        guard unindexed != clause else { return nil }
        return AccountWalk(sql: head + unindexed, budget: budget(rows: rows))
    }

    /// `clause` with each `account_id` column test written `+account_id`: the same test, which no index serves.
    /// The clauses are the store's own (`PredicateSQL`, `AccessScope`, `Keyset`): `account_id` appears in them only
    /// as the bare column, and values are bound, never inlined. A qualified (`t.account_id`) or quoted name is left
    /// as it is (a `+` there would be a syntax error or a string).
    package static func unindexedAccount(_ clause: Substring) -> String {
        var out = ""
        out.reserveCapacity(clause.utf8.count + 8)
        var rest = clause
        while let found = rest.range(of: "account_id") {
            out += rest[..<found.lowerBound]
            let before = found.lowerBound == clause.startIndex ? nil : clause[clause.index(before: found.lowerBound)]
            let after = found.upperBound == clause.endIndex ? nil : clause[found.upperBound]
            let standalone = before.map { !($0.isLetter || $0.isNumber || "_+.\"'`[".contains($0)) } ?? true
                && after.map { !($0.isLetter || $0.isNumber || "_\"'`]".contains($0)) } ?? true
            if standalone { out += "+" }
            out += "account_id"
            rest = clause[found.upperBound...]
        }
        out += rest
        return out
    }
}

/// How a query ran, for tests and benchmarks: whether a walk was tried and whether it finished within its budget.
package final class QueryRunReport: @unchecked Sendable {  // written by the one read that runs the query
    /// Nil when no walk applied; true when the walk answered, false when its budget ran out.
    package var walked: Bool?
    package init() {}
}

extension FinanceStore {
    /// `transactions(query:)`, telling in `report`, when given, which plan answered (`AccountWalk`).
    package func transactions(query: TransactionQuery, report: QueryRunReport?) async throws -> [Transaction] {
        let after = try query.after.map { try Keyset.position(of: $0, sort: query.sortDescriptors) }
        return try await run(Self.transactionPlan, query.predicate, query.sortDescriptors, query.limit, query.offset,
                             extra: Self.searchCondition(query.searchText), after: after, report: report)
    }
}

extension ReaderConnection {
    /// Whether SQLite's plan for `sql` sorts its whole selection (`USE TEMP B-TREE FOR ORDER BY`, not only the
    /// order's right part): only then can a walk help. Asked once per query text, kept with the connection.
    func sortsWholeSelection(_ sql: String) throws -> Bool {
        if let known = sortPlans[sql] { return known }
        if sortPlans.count >= 256 { sortPlans.removeAll(keepingCapacity: true) }
        let plan = try statement("EXPLAIN QUERY PLAN " + sql)
        defer { plan.reset() }
        var sorts = false
        while try plan.step() {
            if plan.text(3) == "USE TEMP B-TREE FOR ORDER BY" { sorts = true }
        }
        sortPlans[sql] = sorts
        return sorts
    }

    /// Runs `body` with at most `steps` SQLite virtual-machine steps on this connection (SQLite's progress
    /// handler, checked every 1,000 steps): nil when they ran out, the running statement then stopped with
    /// `SQLITE_INTERRUPT` (the caller resets it). A cancel of the read still throws `CancellationError`.
    func withinBudget<T>(steps: Int, _ body: () throws -> T) throws -> T? {
        let meter = StepMeter(left: steps / 1_000 + 1)
        sqlite3_progress_handler(handle, 1_000, { context in
            let meter = Unmanaged<StepMeter>.fromOpaque(context!).takeUnretainedValue()
            meter.left -= 1
            return meter.left < 0 ? 1 : 0
        }, Unmanaged.passUnretained(meter).toOpaque())
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        do {
            return try withExtendedLifetime(meter) { try body() }
        } catch {
            try checkCancellation()
            guard meter.left < 0 else { throw error }
            return nil
        }
    }
}

private final class StepMeter {
    var left: Int
    init(left: Int) { self.left = left }
}

