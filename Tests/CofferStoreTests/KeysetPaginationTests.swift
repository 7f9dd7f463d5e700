import CofferStore
import Foundation
import Testing

/// Walking a query page by page with cursors gives exactly its whole sorted result: no gap, no repeat, whatever
/// the order (in SQLite or in Swift, mixed directions, nullable keys), the filter and the page size, and also when
/// rows are inserted between pages.
@Suite struct KeysetPaginationTests {
    typealias Seeded = PushdownPropertyTests.Seeded

    static func randomSort(_ rng: inout Seeded) -> [SortDescriptor<Transaction>] {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return []
        case 1: return [SortDescriptor(\.transactionAmount.amount)]
        case 2: return [SortDescriptor(\.transactionAmount.amount, order: .reverse)]
        case 3: return [SortDescriptor(\.transactionDate, order: .reverse)]
        // What `coffer transactions --sort date:desc` asks.
        case 4: return [SortDescriptor(\.localDay, order: .reverse), SortDescriptor(\.transactionDate, order: .reverse)]
        case 5: return [SortDescriptor(\.postedDate)]  // nullable: NULL first ascending
        case 6: return [SortDescriptor(\.postedDate, order: .reverse), SortDescriptor(\.transactionAmount.amount)]
        case 7: return [SortDescriptor(\.localDay), SortDescriptor(\.transactionAmount.amount, order: .reverse)]
        // In Swift: SQLite cannot order by these.
        case 8: return [SortDescriptor(\.transactionDescription)]
        default: return [SortDescriptor(\.transactionDescription, order: .reverse), SortDescriptor(\.transactionAmount.amount)]
        }
    }

    /// Random new rows shaped like stored ones (so that many sort among them, before and after any cursor).
    static func newRows(_ rng: inout Seeded, like stored: [Transaction]) -> [Transaction] {
        (0..<Int.random(in: 1...6, using: &rng)).map { _ in
            var t = stored.randomElement(using: &rng)!
            t.id = .timeOrdered()
            let cents = Int.random(in: 0...50_000, using: &rng)
            t.transactionAmount = money("\(cents / 100).\(String(format: "%02d", cents % 100))")
            if Bool.random(using: &rng) { t.transactionDate = stored.randomElement(using: &rng)!.transactionDate }
            if Bool.random(using: &rng) { t.postedDate = Bool.random(using: &rng) ? nil : t.transactionDate.addingTimeInterval(86_400) }
            t.transactionDescription = PushdownPropertyTests.words.randomElement(using: &rng)!
            return t
        }
    }

    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func walkingByCursorGivesTheWholeResult(seed: UInt64) async throws {
        var rng = Seeded(state: seed)
        let (store, accounts) = try PushdownPropertyTests.randomStore(&rng, inexact: seed % 2 == 0)
        for round in 0..<25 {
            let stored = try await store.transactions(query: TransactionQuery())
            let sort = Self.randomSort(&rng)
            let predicate = Bool.random(using: &rng) ? PushdownPropertyTests.randomPredicate(&rng, accounts, stored) : nil
            let search: String? = Int.random(in: 0..<5, using: &rng) == 0 ? PushdownPropertyTests.searches.randomElement(using: &rng)! : nil
            let size = Int.random(in: 1...15, using: &rng)
            let insertBetweenPages = round % 3 == 2
            var query = TransactionQuery(sortDescriptors: sort, predicate: predicate, limit: size, searchText: search)
            let whole = try await store.transactions(query: TransactionQuery(sortDescriptors: sort, predicate: predicate, searchText: search))

            var walked: [Transaction] = []
            var skipped = Set<UUID>()  // rows inserted before the cursor: a later page must not show them
            var pages = 0
            while true {
                let page = try await store.transactionPage(query: query)
                pages += 1
                #expect(page.transactions.count <= size)
                walked += page.transactions
                guard let next = page.nextCursor else { break }
                #expect(page.transactions.count == size, "a page with a cursor after it is full")
                query.after = try JSONDecoder().decode(TransactionQuery.Cursor.self, from: JSONEncoder().encode(next))
                if insertBetweenPages, pages <= 3 {  // a few times: new rows after the cursor lengthen the walk
                    let added = try insert(store, Self.newRows(&rng, like: stored))
                    // Where the new rows fall: the whole result now, against the row the cursor names.
                    var now = query
                    now.limit = nil
                    now.after = nil
                    let order = try await store.transactions(query: now).map(\.id)
                    let cursorAt = order.firstIndex(of: walked.last!.id)!
                    for row in added { if let at = order.firstIndex(of: row.id), at < cursorAt { skipped.insert(row.id) } }
                }
                let bound = (whole.count + 20) / size + 10
                #expect(pages < bound, "seed \(seed) round \(round): the walk does not end")
                if pages >= bound { break }
            }
            var expected = whole.map(\.id)
            if insertBetweenPages {
                query.limit = nil
                query.after = nil
                expected = try await store.transactions(query: query).map(\.id).filter { !skipped.contains($0) }
            }
            let got = walked.map(\.id)
            let firstDifference = (0..<min(got.count, expected.count)).first { got[$0] != expected[$0] } ?? min(got.count, expected.count)
            #expect(got == expected, """
                seed \(seed) round \(round), sort \(sort.map { "\($0.keyPath.map { "\($0)" } ?? "?") \($0.order)" }), size \(size), \
                inserted \(insertBetweenPages): \(got.count) rows walked, \(expected.count) expected, first difference at \(firstDifference); \
                \(store.explain(query))
                """)
            #expect(Set(walked.map(\.id)).count == walked.count, "no row twice")
        }
    }

    @Test func aCursorIsRefusedByAnotherOrderAndWhenGarbled() async throws {
        let (store, _) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...5).map { makeTransaction(account.id, "\($0).00", on: "2026-03-0\($0)") })
        let byAmount = TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionAmount.amount)], limit: 2)
        let firstPage = try await store.transactionPage(query: byAmount)
        let cursor = try #require(firstPage.nextCursor)

        var byDate = TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate)], limit: 2)
        byDate.after = cursor
        let other = await #expect(throws: CofferError.self) { try await store.transactions(query: byDate) }
        #expect(other?.code == .usage)
        #expect(other?.message.contains("another order") == true, "\(other?.message ?? "")")

        for text in ["", "not a cursor!", "AAAA", String(cursor.stringValue.dropLast(3))] {
            var garbled = byAmount
            garbled.after = TransactionQuery.Cursor(stringValue: text)
            let error = await #expect(throws: CofferError.self) { try await store.transactions(query: garbled) }
            #expect(error?.code == .usage)
            #expect(error?.message.contains("not a cursor Coffer made") == true, "\(text): \(error?.message ?? "")")
        }
    }

    @Test func aCursorFromAnyRowContinuesRightAfterIt() async throws {
        let (store, _) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...9).map { makeTransaction(account.id, "\($0 % 3).00", on: "2026-03-0\($0)") })
        let query = TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionAmount.amount, order: .reverse)])
        let all = try await store.transactions(query: query)
        var after = query
        after.after = query.cursor(after: all[3])
        #expect(try await store.transactions(query: after).map(\.id) == all.dropFirst(4).map(\.id))
        // The last page says nothing follows; no limit, no cursor.
        after.limit = 10
        #expect(try await store.transactionPage(query: after).nextCursor == nil)
        #expect(try await store.transactionPage(query: query).nextCursor == nil)
    }

    @Test func aDeepPageByCursorReadsFromAnIndexSeek() async throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...20).map { makeTransaction(account.id, "1.00", on: "2026-03-\(10 + $0)") })
        var query = TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate)], limit: 5)
        let first = try await store.transactionPage(query: query)
        query.after = try #require(first.nextCursor)
        let explained = store.explain(query)
        #expect(explained.sql.contains("transaction_date >= ? AND (transaction_date, id) > (?, ?)"), "\(explained)")
        let plan = try sqliteQueryPlan(path, explained)
        #expect(plan.contains("USING INDEX txn_date (transaction_date>?)"), "\(plan)")
    }

    /// The CLI's and the server's date order (the bank's own day, then the instant) walks `txn_local_day` (migration
    /// v19) from its cursor, in either direction: a page's cost does not grow with the store (before it, every page
    /// read and sorted the whole table).
    @Test(arguments: [SortOrder.forward, .reverse])
    func theBankDayOrderWalksItsIndex(order: SortOrder) async throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...20).map { makeTransaction(account.id, "1.00", on: "2026-03-\(10 + $0)") })
        var query = TransactionQuery(sortDescriptors: [SortDescriptor(\.localDay, order: order), SortDescriptor(\.transactionDate, order: order)],
                                     limit: 5)
        #expect(try sqliteQueryPlan(path, store.explain(query)).contains("USING INDEX txn_local_day"))
        let first = try await store.transactionPage(query: query)
        query.after = try #require(first.nextCursor)
        let plan = try sqliteQueryPlan(path, store.explain(query))
        #expect(plan.contains("USING INDEX txn_local_day"), "\(plan)")
        #expect(!plan.contains("SCAN txn\n") && !plan.hasPrefix("SCAN txn USING INDEX txn_date"), "\(plan)")
        let second = try await store.transactionPage(query: query)
        #expect(Set(first.transactions.map(\.id)).isDisjoint(with: second.transactions.map(\.id)))
        #expect(second.transactions.count == 5)
    }
}
