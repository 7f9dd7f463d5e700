import Coffer
import Foundation
import GRDB
import Synchronization

/// Latency from a commit made by another process (`coffer import` of a tiny file) to its delivery by a
/// monitoring `transactionHistory`.
struct MonitorBench {
    let store: FinanceStore
    let cofferPath: String

    /// Imports each file in a child process, one at a time, and times commit → delivery.
    ///
    /// The commit instant is seen by a thread polling `PRAGMA data_version` every ~200 µs on its own connection;
    /// the first change after the child starts counts as the commit.
    func run(files: [String]) async throws {
        guard let account = try await store.accounts(query: AccountQuery()).first else {
            throw CofferError(.badInput, "the store has no account to follow")
        }
        let (_, token) = try await HistoryBench(store: store, runs: 1).catchUp(account.id, since: nil)
        let watch = CommitWatch()
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: store.path, configuration: configuration)
        let poller = Thread {
            var last: Int?
            while !watch.stop.load(ordering: .acquiring) {
                let version = try? queue.inDatabase { try Int.fetchOne($0, sql: "PRAGMA data_version") }
                if let version, let previous = last, version != previous {
                    _ = watch.commit.compareExchange(expected: 0, desired: Timing.now(), ordering: .acquiringAndReleasing)
                }
                last = version ?? last
                usleep(200)
            }
        }
        poller.start()
        defer { watch.stop.store(true, ordering: .releasing) }

        var iterator = store.transactionHistory(forAccountID: account.id, since: token, isMonitoring: true).makeAsyncIterator()
        var samples: [Double] = []
        for file in files {
            watch.commit.store(0, ordering: .releasing)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: cofferPath)
            child.arguments = ["import", "--store", store.path, file]
            try child.run()
            guard try await iterator.next() != nil else { break }
            let delivered = Timing.now()
            child.waitUntilExit()
            let committed = watch.commit.load(ordering: .acquiring)
            if committed != 0, delivered >= committed { samples.append(Double(delivered - committed) / 1_000_000) }
            // Start the next commit at a different phase of the poll interval.
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...230)))
        }
        report("monitor.samples", Double(samples.count), decimals: 0)
        report("monitor.median_ms", Timing.median(samples), decimals: 2)
        report("monitor.max_ms", samples.max() ?? 0, decimals: 2)
    }
}

/// What the polling thread and the benchmark share: the first commit instant seen, and the stop flag.
final class CommitWatch: Sendable {
    let commit = Atomic<UInt64>(0)
    let stop = Atomic<Bool>(false)
}
