import CofferStore
import Foundation
import Testing

/// A page of some accounts in the bank-day order is tried first by walking the day index (`AccountWalk`), within a
/// budget, then by the account index. Whichever answers, the page is the same: the slice of the whole ordered list.
@Suite struct AccountWalkTests {
    typealias Seeded = PushdownPropertyTests.Seeded

    /// A large account (12,000 rows over 80 days, many on the same instant), a small one (16 rows over the same
    /// days) and a third of 400, with a client that is granted a subset per case.
    struct Fixture {
        let store: FinanceStore
        let path: String
        let large: UUID
        let small: UUID
        let third: UUID
        /// The client's token.
        let token: String
    }

    static func fixture(_ name: String = #function) throws -> Fixture {
        let (store, path) = try makeStore(name)
        let large = try addAccount(store, number: "10000001", name: "Large").id
        let small = try addAccount(store, number: "20000002", name: "Small").id
        let third = try addAccount(store, number: "30000003", name: "Third").id
        var rng = Seeded(state: 16)
        let start = day("2026-01-01")
        func rows(_ account: UUID, _ count: Int) -> [Transaction] {
            (0..<count).map { _ in
                // Whole hours: many rows share an instant, so the order's last key (id) decides among them.
                let at = start.addingTimeInterval(Double(Int.random(in: 0..<(80 * 24), using: &rng)) * 3_600)
                let text = ["Coffee", "Grocer", "Rent", "Book"][Int.random(in: 0..<4, using: &rng)]
                var t = makeTransaction(account, "\(Int.random(in: 1...500, using: &rng)).00", on: "2026-01-01", text)
                t = Transaction(id: .timeOrdered(at: at, using: &rng), accountID: account, transactionAmount: t.transactionAmount,
                                creditDebitIndicator: t.creditDebitIndicator, transactionDescription: t.transactionDescription,
                                originalTransactionDescription: t.originalTransactionDescription,
                                merchantCategoryCode: t.merchantCategoryCode, merchantName: t.merchantName,
                                transactionType: t.transactionType, status: t.status, transactionDate: at)
                return t
            }
        }
        try insert(store, rows(large, 12_000) + rows(small, 16) + rows(third, 400))
        let (_, token) = try store.addClient(named: "viewer")
        return Fixture(store: store, path: path, large: large, small: small, third: third, token: token)
    }

    @Test func onlyTheAccountTestMovesOffTheIndexes() {
        #expect(AccountWalk.unindexedAccount("account_id = ? AND local_day >= ?") == "+account_id = ? AND local_day >= ?")
        #expect(AccountWalk.unindexedAccount("((account_id = ?) OR (account_id = ? AND +transaction_date >= ?))")
            == "((+account_id = ?) OR (+account_id = ? AND +transaction_date >= ?))")
        #expect(AccountWalk.unindexedAccount("(+account_id = ?)") == "(+account_id = ?)")
        #expect(AccountWalk.unindexedAccount("x_account_id = ? AND account_ids = ?") == "x_account_id = ? AND account_ids = ?")
        #expect(AccountWalk.unindexedAccount("local_day >= ?") == "local_day >= ?")
        // Qualified or quoted names are left alone: `t.+account_id` would not parse, `"+account_id"` is a string.
        #expect(AccountWalk.unindexedAccount("t.account_id = ? AND \"account_id\" = ?") == "t.account_id = ? AND \"account_id\" = ?")
    }

    /// The walk's SQL keeps the account off the indexes and walks `txn_local_day`; the query it falls back to
    /// searches the account index.
    @Test func theWalkUsesTheDayIndexAndTheFallbackTheAccountIndex() throws {
        let f = try Self.fixture()
        let id = f.large
        let query = TransactionQuery(sortDescriptors: [SortDescriptor(\.localDay, order: .reverse), SortDescriptor(\.transactionDate, order: .reverse)],
                                     predicate: #Predicate { $0.accountID == id }, limit: 20)
        let explained = f.store.explain(query)
        let walk = try #require(explained.accountWalkSQL)
        #expect(walk.contains("+account_id = ?"))
        #expect(try sqliteQueryPlan(f.path, sql: walk).contains("SCAN txn USING INDEX txn_local_day"))
        #expect(try sqliteQueryPlan(f.path, explained).contains("USING INDEX txn_account_date (account_id=?)"))
        #expect(explained.description.contains("tried first, within a budget"))
        // Not for other orders, nor without a limit, nor without an account test.
        #expect(f.store.explain(TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate)], predicate: query.predicate, limit: 20)).accountWalkSQL == nil)
        #expect(f.store.explain(TransactionQuery(sortDescriptors: query.sortDescriptors, predicate: query.predicate)).accountWalkSQL == nil)
        #expect(f.store.explain(TransactionQuery(sortDescriptors: query.sortDescriptors, limit: 20)).accountWalkSQL == nil)
    }

    /// The large account's page is answered by the walk; the small one's runs out of budget (its 16 rows are
    /// spread over the whole index) and the account index answers, with the same rows a Swift sort gives.
    @Test func theBudgetDecides() async throws {
        let f = try Self.fixture()
        let order = [SortDescriptor(\Transaction.localDay, order: .reverse), SortDescriptor(\Transaction.transactionDate, order: .reverse)]
        for (account, walks) in [(f.large, true), (f.small, false)] {
            let report = QueryRunReport()
            let page = try await f.store.transactions(query: TransactionQuery(sortDescriptors: order,
                predicate: #Predicate { $0.accountID == account }, limit: 10), report: report)
            #expect(report.walked == walks, "\(account == f.large ? "large" : "small")")
            let all = try await f.store.transactions(query: TransactionQuery(sortDescriptors: order, predicate: #Predicate { $0.accountID == account }))
            #expect(page.map(\.id) == Array(all.prefix(10)).map(\.id))
            #expect(page.count == 10)
        }
        // A budget that ran out leaves no handler behind: a long read on the same connections runs to its end.
        let everything = try await f.store.transactions(query: TransactionQuery(sortDescriptors: order))
        #expect(everything.count == 12_416)
        // Not for a test that no index serves anyway (SQLite's own plan already walks the day index), nor for a page
        // deeper than `AccountWalk.maxRows`.
        let large = f.large
        for query in [TransactionQuery(sortDescriptors: order, predicate: #Predicate { $0.accountID != large }, limit: 10),
                      TransactionQuery(sortDescriptors: order, predicate: #Predicate { $0.accountID == large }, limit: 10, offset: 5_000)] {
            let report = QueryRunReport()
            let page = try await f.store.transactions(query: query, report: report)
            #expect(report.walked == nil)
            #expect(page.count == 10)
        }
    }

    /// 200 random pages (owner with an account filter, or a client with a granted subset; either order; limits,
    /// offsets and cursors): each equals the slice of the whole ordered list, whichever plan answered, and both
    /// plans answer some of them.
    @Test func anyPageIsTheSliceOfTheWholeList() async throws {
        let f = try Self.fixture()
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        var rng = Seeded(state: seed)
        let accounts = [f.large, f.small, f.third]
        var outcomes: [Bool?: Int] = [:]
        for round in 0..<200 {
            var chosen = accounts.filter { _ in Bool.random(using: &rng) }
            if chosen.isEmpty { chosen = [accounts.randomElement(using: &rng)!] }
            let asClient = Bool.random(using: &rng)
            let direction: SortOrder = Bool.random(using: &rng) ? .forward : .reverse
            let order = [SortDescriptor(\Transaction.localDay, order: direction), SortDescriptor(\Transaction.transactionDate, order: direction)]
            let ids = chosen
            let excluded = accounts.randomElement(using: &rng)!
            let (predicate, allowed): (Predicate<Transaction>?, Set<UUID>) = switch (asClient, Int.random(in: 0..<4, using: &rng)) {
            case (true, _): (nil, Set(chosen))
            case (false, 0): (#Predicate { $0.accountID != excluded }, Set(accounts).subtracting([excluded]))
            default: (#Predicate { ids.contains($0.accountID) }, Set(chosen))
            }
            // Some searches: the walk then also tests the folded text of the rows it passes.
            let search: String? = Int.random(in: 0..<4, using: &rng) == 0 ? "coffee" : nil
            let reader: FinanceStore
            if asClient {
                // Some accounts granted from a day on (the grant's date condition is walked too).
                let earliest = Bool.random(using: &rng) ? day("2026-02-\(Int.random(in: 10...28, using: &rng))") : nil
                try f.store.authorizeClient(named: "viewer", grant: .init(
                    accounts: chosen.map { .init(accountID: $0, earliestDate: earliest) }, dataTypes: [.transactions]))
                reader = try FinanceStore(path: f.path, clientToken: f.token)
            } else {
                reader = f.store
            }
            let whole = try await reader.transactions(query: TransactionQuery(sortDescriptors: order, predicate: predicate, searchText: search))
            #expect(Set(whole.map(\.accountID)).isSubset(of: allowed), "seed \(seed) round \(round)")
            #expect(search == nil || whole.allSatisfy { $0.transactionDescription == "Coffee" }, "seed \(seed) round \(round)")
            let limit = Int.random(in: 1...60, using: &rng)
            var query = TransactionQuery(sortDescriptors: order, predicate: predicate, limit: limit, searchText: search)
            var skip = 0
            if Bool.random(using: &rng) {
                skip = Int.random(in: 0...300, using: &rng)
                query.offset = skip
            } else if whole.count > 1 {
                // A cursor: the page after a random row.
                let first = try await reader.transactionPage(query: TransactionQuery(sortDescriptors: order, predicate: predicate,
                                                                                      limit: Int.random(in: 1...min(200, whole.count), using: &rng),
                                                                                      searchText: search))
                // The first page (which may have been walked too) is the head of the whole list.
                #expect(first.transactions.map(\.id) == Array(whole.prefix(first.transactions.count)).map(\.id), "seed \(seed) round \(round)")
                if let cursor = first.nextCursor {
                    query.after = cursor
                    skip = first.transactions.count
                }
            }
            let report = QueryRunReport()
            let page = try await reader.transactions(query: query, report: report)
            outcomes[report.walked, default: 0] += 1
            let expected = Array(whole.dropFirst(skip).prefix(limit))
            #expect(page.map(\.id) == expected.map(\.id), "seed \(seed) round \(round): \(chosen.count) accounts, client \(asClient), \(direction), limit \(limit), skip \(skip), search \(search ?? "-"), walked \(String(describing: report.walked))")
            if asClient { reader.close() }
        }
        #expect(outcomes[true, default: 0] > 0 && outcomes[false, default: 0] > 0, "seed \(seed): \(outcomes)")
    }
}
