import CofferPipeline
import CofferStore
@testable import CofferWatch
import Foundation
import Testing

/// Whether the service retries a file or sets it aside is decided by the failure's code: a store locked by another
/// writer is transient (the file waits in the inbox), a malformed file is the file's fault (failed/).
@Suite("Watch retries by code")
struct WatchRetryTests {
    @Test("each code's action: transient retried, the store's trouble kept, a vanished file skipped, the rest set aside")
    func actionPerCode() {
        let actions = CofferError.Code.all.map { "\($0.name): \(FailedFileAction($0))" }
        #expect(actions == [
            "bad-input: quarantine", "unknown-format: quarantine", "bad-configuration: quarantine", "not-a-store: keep",
            "store-too-new: keep", "store-read-only: keep", "io: quarantine", "institution-error: quarantine",
            "usage: quarantine", "ambiguous-account: quarantine", "internal: quarantine", "store-busy: retry",
            "store-io: keep", "file-not-found: skip", "file-changing: retry", "unknown-client: quarantine",
        ])
    }

    @Test("a store locked by another writer leaves the file in the inbox (retried later); a garbage file goes to failed/",
          .timeLimit(.minutes(2)))
    func lockedStoreIsRetriedGarbageIsNot() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        try statementCSV(tag: "locked", rows: 3).write(toFile: bench.inbox + "/2026-01.csv", atomically: false, encoding: .utf8)
        try Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(to: URL(fileURLWithPath: bench.inbox + "/garbage.ofx"))

        // Another writer (its own connection, as a second process would be) holds the store's write lock for the
        // whole first run: the statement's import waits out SQLite's busy timeout (30 s) and fails as store-busy.
        let other = try FinanceStore(path: bench.storePath)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? other.write { _ in
                holding.signal()
                release.wait()
            }
        }
        holder.start()
        await WatchService.offPool { holding.wait() }
        let service = try bench.service(store, bench.settings(once: true, settle: .milliseconds(100)))
        try await service.run()
        release.signal()

        #expect(FileManager.default.fileExists(atPath: bench.inbox + "/2026-01.csv"), "a transient failure must not move the file")
        #expect(!bench.files(under: bench.failed).contains("2026-01.csv"))
        #expect(bench.files(under: bench.failed) == ["garbage.ofx", "garbage.ofx.error.txt"])
        #expect(try await store.imports().isEmpty)

        // The lock is gone: the next run imports the file that waited.
        try await service.run()
        #expect(try await store.imports().count == 1)
        #expect(try await bench.transactionCount(store) == 3)
        #expect(!FileManager.default.fileExists(atPath: bench.inbox + "/2026-01.csv"))
        other.close()
    }
}
