import CofferPipeline
import Foundation
import Testing

/// `Importer.importFile`'s async form: it imports as the blocking one does, on a thread of its own, and a task
/// cancelled before the commit leaves the store exactly as it was.
@Suite struct AsyncImportTests {
    /// A statement of the test profile (`Workbench.testProfile`) with `rows` transactions.
    static func statement(rows: Int) -> String {
        var text = "Date,Description,Amount,Status\n"
        for i in 0..<rows {
            text += "2026-02-\(String(format: "%02d", i % 28 + 1)),Bakery \(i),-\(i % 50 + 1).\(String(format: "%02d", i % 100)),booked\n"
        }
        return text
    }

    @Test func theAsyncFormImportsAsTheBlockingOneDoes() async throws {
        let bench = try Workbench()
        let path = try bench.file("small.csv", Self.statement(rows: 30))
        let report = try await bench.importer.importFile(path)
        #expect(report.status == .imported)
        #expect(report.inserted == 30)
        #expect(try await bench.transactions().count == 30)
        #expect(try await bench.importer.importFile(path).status == .alreadyImported)
    }

    @Test func cancellingTheTaskMidImportWritesNothing() async throws {
        let bench = try Workbench()
        let path = try bench.file("big.csv", Self.statement(rows: 25_000))
        // The import tells when it has read 10,000 transactions and waits (on its own thread) until the test has
        // cancelled its task: the cancellation then surely lands mid-file.
        let (reached, reachedSignal) = AsyncStream<Void>.makeStream()
        let resume = DispatchSemaphore(value: 0)
        let task = Task {
            try await bench.importer.importFile(path, progress: { count in
                guard count == 10_000 else { return }
                reachedSignal.finish()
                resume.wait()
            })
        }
        for await _ in reached {}
        task.cancel()
        resume.signal()
        await #expect(throws: CancellationError.self) { _ = try await task.value }

        // Nothing of the file: no transaction, no account, no ledger entry (so it is not "already imported").
        #expect(try await bench.transactions().isEmpty)
        #expect(try await bench.store.accounts(query: AccountQuery()).isEmpty)
        #expect(try await bench.store.imports().isEmpty)
        let again = try await bench.importer.importFile(path)
        #expect(again.status == .imported)
        #expect(again.inserted == 25_000)
    }

    @Test func aTaskCancelledBeforeItStartsImportsNothing() async throws {
        let bench = try Workbench()
        let path = try bench.file("small.csv", Self.statement(rows: 5))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await bench.importer.importFile(path)
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(try await bench.store.imports().isEmpty)
    }
}
