import Coffer
import Foundation

/// History catch-up from nil, from a token 100k changes back, and "nothing new since this token".
struct HistoryBench {
    let store: FinanceStore
    let runs: Int

    /// Takes the current end token, imports `extension` (new transactions of the same account) and times the
    /// catch-up over them; then times catch-up from nil over everything, and the empty catch-up.
    func run(extensionFile: String) async throws {
        guard let account = try await store.accounts(query: AccountQuery()).first else {
            throw CofferError(.badInput, "the store has no account to follow")
        }
        let (_, before) = try await catchUp(account.id, since: nil)
        let importer = Importer(store: store, configuration: try CofferConfiguration.load(directory: nil))
        let imported = try await importer.importFile(extensionFile)
        guard imported.succeeded else { throw CofferError(.badInput, "extension import failed: \(imported.error?.description ?? "")") }
        report("history.extension_inserted", Double(imported.inserted), decimals: 0)

        var samples: [Double] = []
        var count = 0
        var end = before
        for _ in 0..<runs {
            samples.append(try await Timing.micros { (count, end) = try await catchUp(account.id, since: before) })
        }
        report("history.from_token.changes", Double(count), decimals: 0)
        report("history.from_token.median_ms", Timing.median(samples) / 1_000, decimals: 2)

        samples = []
        for _ in 0..<runs {
            samples.append(try await Timing.micros { (count, _) = try await catchUp(account.id, since: nil) })
        }
        report("history.from_nil.changes", Double(count), decimals: 0)
        report("history.from_nil.median_ms", Timing.median(samples) / 1_000, decimals: 2)

        samples = []
        for _ in 0..<2_000 {
            samples.append(try await Timing.micros {
                var iterator = store.transactionHistory(forAccountID: account.id, since: end, isMonitoring: false).makeAsyncIterator()
                if try await iterator.next() != nil { count += 1 }
            })
        }
        report("history.nothing_new.median_us", Timing.median(samples), decimals: 2)
        report("history.nothing_new.p90_us", Timing.percentile(samples, 0.9), decimals: 2)

        // The same for a client granted that account (issue 17): the grant is read in each read's snapshot.
        let name = "bench-\(UUID().uuidString.prefix(8))"
        let client = try store.addClient(named: name).client
        try store.authorizeClient(named: name, grant: .init(accounts: [.init(accountID: account.id)], dataTypes: [.transactions]))
        defer { _ = try? store.removeClient(named: name) }
        let scoped = store.scoped(to: client.id)
        let clientBench = HistoryBench(store: scoped, runs: runs)
        samples = []
        for _ in 0..<runs {
            samples.append(try await Timing.micros { (count, end) = try await clientBench.catchUp(account.id, since: nil) })
        }
        report("history.client.from_nil.changes", Double(count), decimals: 0)
        report("history.client.from_nil.median_ms", Timing.median(samples) / 1_000, decimals: 2)
        samples = []
        for _ in 0..<2_000 {
            samples.append(try await Timing.micros {
                var iterator = scoped.transactionHistory(forAccountID: account.id, since: end, isMonitoring: false).makeAsyncIterator()
                if try await iterator.next() != nil { count += 1 }
            })
        }
        report("history.client.nothing_new.median_us", Timing.median(samples), decimals: 2)
        report("history.client.nothing_new.p90_us", Timing.percentile(samples, 0.9), decimals: 2)
    }

    /// Reads the history to its end without monitoring; returns how many transactions it carried and the last token.
    func catchUp(_ accountID: UUID, since token: HistoryToken?) async throws -> (Int, HistoryToken?) {
        var count = 0
        var last = token
        for try await changes in store.transactionHistory(forAccountID: accountID, since: token, isMonitoring: false) {
            count += changes.inserted.count + changes.updated.count + changes.deleted.count
            last = changes.newToken
        }
        return (count, last)
    }
}
