import Coffer
import Foundation

/// Snapshot query latency on a store: account + date range, MCC + amount, text search and deep paging (by offset
/// and by cursor).
struct QueryBench {
    let store: FinanceStore
    let iterations: Int
    /// How deep the paging query starts (900,000 on the 1M store).
    let deepOffset: Int
    /// Only the queries whose name starts with this (`account_date`, `mcc_amount`, `text`, `deep_page`, `deep_cursor`, `account_page`, `client`).
    var only: String? = nil

    /// Times each query `iterations` times (fewer for slow ones, at least 5) after two warm-up runs.
    func run(firstDay: Date) async throws {
        guard let account = try await store.accounts(query: AccountQuery()).first else {
            throw CofferError(.badInput, "the store has no account to query")
        }
        let id = account.id
        let end = firstDay.addingTimeInterval(2 * 86_400)
        let byDate = [SortDescriptor(\Transaction.transactionDate)]
        let accountDate = TransactionQuery(sortDescriptors: byDate, predicate: #Predicate<Transaction> {
            $0.accountID == id && $0.transactionDate >= firstDay && $0.transactionDate < end
        })
        try await time("query.account_date", accountDate, byHand: withUnsafeBytes(of: id.uuid) { Data($0) })

        let low = Decimal(100), high = Decimal(110)
        let groceries = TransactionQuery.predicate(forMerchantCategoryCodes: [MerchantCategoryCode(rawValue: 5411)])
        let amount = #Predicate<Transaction> { $0.transactionAmount.amount >= low && $0.transactionAmount.amount <= high }
        try await time("query.mcc_amount", TransactionQuery(sortDescriptors: byDate, predicate: allOf([groceries, amount])))

        try await time("query.text", TransactionQuery(sortDescriptors: byDate, limit: 1_000, searchText: "pinecone"))
        try await time("query.deep_page", TransactionQuery(sortDescriptors: byDate, limit: 1_000, offset: deepOffset))
        // The same page by cursor: after the row just before it (found once, by offset, outside the timing).
        if only == nil || "query.deep_cursor".hasPrefix("query." + (only ?? "")) {
            let before = try await store.transactions(query: TransactionQuery(sortDescriptors: byDate, limit: 1, offset: max(0, deepOffset - 1)))
            if deepOffset > 0, let row = before.first {
                var page = TransactionQuery(sortDescriptors: byDate, limit: 1_000)
                page.after = page.cursor(after: row)
                try await time("query.deep_cursor", page, check: { rows in
                    let expected = try await store.transactions(query: TransactionQuery(sortDescriptors: byDate, limit: 1_000, offset: deepOffset))
                    if rows.map(\.id) != expected.map(\.id) { throw CofferError(.internal, "the cursor page differs from the offset page") }
                })
            }
        }

        // The newest 1,000 of the account in the bank-day order (`coffer transactions --account`, a client's `GET
        // /v1/transactions`): the account's rows walked in the day index, or found by the account index and sorted
        // (`AccountWalk`).
        let newestFirst = [SortDescriptor(\Transaction.localDay, order: .reverse), SortDescriptor(\Transaction.transactionDate, order: .reverse)]
        let accountPage = TransactionQuery(sortDescriptors: newestFirst, predicate: #Predicate<Transaction> { $0.accountID == id }, limit: 1_000)
        try await time("query.account_page", accountPage)

        // The same queries for a client granted the account from 30 days before `firstDay` (issue 17): the grant is
        // read in each query's snapshot and is one more SQL condition.
        if only == nil || only == "client" {
            let firstPage = TransactionQuery(sortDescriptors: byDate, limit: 1_000)
            try await time("query.first_page", firstPage)
            let name = "bench-\(UUID().uuidString.prefix(8))"
            let owner = store.access == .readWrite ? store : try FinanceStore(path: store.path)  // clients are written
            defer { _ = try? owner.removeClient(named: name); if owner !== store { owner.close() } }
            let client = try owner.addClient(named: name).client
            try owner.authorizeClient(named: name, grant: .init(
                accounts: [.init(accountID: id, earliestDate: firstDay.addingTimeInterval(-30 * 86_400))], dataTypes: [.transactions]))
            let scoped = QueryBench(store: store.scoped(to: client.id), iterations: iterations, deepOffset: deepOffset)
            try await scoped.time("query.client.account_date", accountDate)
            try await scoped.time("query.client.first_page", firstPage)
            try await scoped.time("query.client.newest_page", TransactionQuery(sortDescriptors: newestFirst, limit: 1_000))
        }
    }

    /// With `byHand` (the account id the query's SQL binds as a blob), each run of the library's query is paired
    /// with a run of the same SQL by hand on the same store (`ByHandQuery`), the order flipping every pair; then
    /// also reported: the by-hand median and the median of the per-pair ratios (library over by hand).
    private func time(_ name: String, _ query: TransactionQuery, byHand blob: Data? = nil,
                      check: (([Transaction]) async throws -> Void)? = nil) async throws {
        if let only, !name.hasPrefix("query." + only) { return }
        var rows = 0
        for _ in 0..<2 { rows = try await store.transactions(query: query).count }
        if let check { try await check(try await store.transactions(query: query)) }
        let hand = try blob.map { try ByHandQuery(path: store.path, explanation: store.explain(query), blob: $0) }
        var checksum: UInt64 = 0
        if let hand {
            let handRows = try hand.run(checksum: &checksum)
            guard handRows == rows else {
                throw CofferError(.internal, "\(name): the query by hand read \(handRows) rows, the library \(rows)")
            }
        }
        var samples: [Double] = []
        var handSamples: [Double] = []
        var ratios: [Double] = []
        let budget = Timing.now() + 3_000_000_000
        while samples.count < iterations && (samples.count < 5 || Timing.now() < budget) {
            let handFirst = samples.count % 2 == 1
            var handTime = 0.0
            if let hand, handFirst { handTime = try await Timing.micros { _ = try hand.run(checksum: &checksum) } }
            samples.append(try await Timing.micros { rows = try await store.transactions(query: query).count })
            if let hand, !handFirst { handTime = try await Timing.micros { _ = try hand.run(checksum: &checksum) } }
            if hand != nil {
                handSamples.append(handTime)
                ratios.append(samples[samples.count - 1] / handTime)
            }
        }
        report("\(name).rows", Double(rows), decimals: 0)
        report("\(name).runs", Double(samples.count), decimals: 0)
        report("\(name).median_us", Timing.median(samples))
        report("\(name).p90_us", Timing.percentile(samples, 0.9))
        if hand != nil {
            report("\(name).by_hand_median_us", Timing.median(handSamples))
            report("\(name).vs_by_hand", Timing.median(ratios), decimals: 3)
            if checksum == 42 { report("\(name).checksum", 42) }  // keeps the by-hand reads observable
        }
    }
}
