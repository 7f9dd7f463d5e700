@testable import CofferStore
import Foundation
import Testing

/// The `async` API's SQLite work runs on the store's own threads: long reads leave Swift's cooperative pool (one
/// thread per core) to the rest of the program, and a cancelled task's read stops at once.
@Suite struct AsyncReadTests {
    /// A read that keeps SQLite busy: counts a recursive sequence of 200 million rows (over a minute on this
    /// machine, far longer than the test waits) unless it is interrupted.
    static func longRead(_ store: FinanceStore) async throws -> Int64 {
        try await store.readOffPool { job in
            try job.read { connection in
                let statement = try connection.statement("""
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 200000000) SELECT count(*) FROM n
                    """)
                guard try statement.step() else { return 0 }
                return statement.int64(0)
            }
        }
    }

    @Test func longReadsLeaveTheCooperativePoolFreeAndStopWhenCancelled() async throws {
        let (store, _) = try makeStore()
        // More long reads than the cooperative pool has threads: were they run on it, nothing else would run.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let clock = ContinuousClock()
        let reads = (0..<count).map { _ in Task { try await Self.longRead(store) } }
        // Wait until every read is inside SQLite (each holds a connection of the store's read threads).
        let deadline = clock.now + .seconds(20)
        while store.readThreads.busy < min(count, store.readThreads.limit), clock.now < deadline { await Task.yield() }
        #expect(store.readThreads.busy == min(count, store.readThreads.limit))

        // An unrelated task still runs, while every read is still in SQLite. Had the reads taken the pool's threads,
        // it would wait for them: over a minute. (The bound is loose: in a full `swift test` the other suites keep
        // the pool busy, and a trivial task waited up to 4 s for them.)
        let asked = clock.now
        let answered = await Task { clock.now }.value
        #expect(answered - asked < .seconds(20), "a trivial task waited \(answered - asked) behind the reads")
        #expect(store.readThreads.busy == min(count, store.readThreads.limit), "the reads ended before the task ran")

        // Cancelled, every read stops within moments (SQLite is interrupted) and throws CancellationError. The stop
        // is timed on the read threads themselves, by this thread waiting without suspending: awaiting the tasks
        // would time the cooperative pool too, which the other suites of a full run keep busy (a run measured 3.6 s
        // that way while the reads had stopped).
        let cancelled = clock.now
        for read in reads { read.cancel() }
        while store.readThreads.busy > 0, clock.now - cancelled < .seconds(20) { usleep(1_000) }
        let stopped = clock.now - cancelled
        #expect(stopped < .seconds(2), "cancelled reads took \(stopped) to stop")
        for read in reads {
            await #expect(throws: CancellationError.self) { _ = try await read.value }
        }
        store.close()
    }

    @Test func aQueryInACancelledTaskThrowsCancellationError() async throws {
        let (store, _) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...20).map { makeTransaction(account.id, "\($0)", on: "2026-03-01") })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.transactions(query: TransactionQuery())
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        // The store is unharmed: the next query reads everything.
        #expect(try await store.transactions(query: TransactionQuery()).count == 20)
        store.close()
    }
}
