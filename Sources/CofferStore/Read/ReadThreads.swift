import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Threads of the store's own on which the `async` queries and history run their SQLite work, so that a long
/// query occupies one of these instead of a thread of Swift's cooperative pool (which has one thread per core:
/// two queries on a 2-core machine would otherwise stall every other task of the program until they finish).
///
/// Threads start when work arrives and none is idle, up to `limit`; more work waits in line. A thread idle for
/// `idleTimeout` ends, so an idle store holds none.
final class ReadThreads: @unchecked Sendable {  // state guarded by `condition`
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var next = 0
    private var idle = 0
    private var threads = 0
    let limit: Int
    let idleTimeout: TimeInterval

    init(limit: Int = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount), idleTimeout: TimeInterval = 10) {
        self.limit = max(1, limit)
        self.idleTimeout = idleTimeout
    }

    /// Threads running a job now.
    var busy: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads - idle
    }

    /// Runs `job` on one of the threads, as soon as one is free.
    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let waiting = jobs.count - next
        let start = waiting > idle && threads < limit
        if start { threads += 1 }
        if idle > 0 { condition.signal() }
        condition.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = "coffer.read"
            thread.start()
        }
    }

    private func work() {
        condition.lock()
        while true {
            while next == jobs.count {
                idle += 1
                let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
                idle -= 1
                if !signalled, next == jobs.count {
                    threads -= 1
                    condition.unlock()
                    return
                }
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job()
            condition.lock()
        }
    }
}

/// One read of an `async` call, run on `ReadThreads`: the connections it takes, and whether its task was
/// cancelled. Cancelling interrupts the statement running (`sqlite3_interrupt`) and makes the next one throw, so a
/// cancelled query stops within a row or two and throws `CancellationError`.
final class ReadJob: Sendable {
    private let readers: ReaderPool
    private struct State {
        var cancelled = false
        var active: ReaderConnection?
    }
    private let state = Mutex(State())

    init(readers: ReaderPool) {
        self.readers = readers
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Throws `CancellationError` once the job is cancelled (`Task.checkCancellation` knows nothing of it: the
    /// job runs on a thread of its own, outside the task).
    func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `body` on an idle connection of the store; throws `CancellationError` once the job is cancelled.
    func read<T>(_ body: (ReaderConnection) throws -> T) throws -> T {
        try readers.withConnection { connection in
            try state.withLock { state in
                guard !state.cancelled else { throw CancellationError() }
                state.active = connection
            }
            // The connection goes back to the pool only after this: a late cancel never interrupts another read.
            defer {
                state.withLock { state in
                    state.active = nil
                    connection.cancelled.store(false, ordering: .relaxed)
                }
            }
            do {
                return try body(connection)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && isCancelled {
                throw CancellationError()
            }
        }
    }

    /// Cancels the job: the statement running stops (SQLite's interrupt), the next one throws.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let connection = state.active {
                connection.cancelled.store(true, ordering: .relaxed)
                sqlite3_interrupt(connection.handle)
            }
        }
    }
}

extension FinanceStore {
    /// Runs `body` on one of the store's read threads (`ReadThreads`), off Swift's cooperative pool, and resumes
    /// the caller with its result. Cancelling the calling task interrupts the read: it throws `CancellationError`.
    /// SQLite trouble (locked, unreadable) becomes FinanceKit's transient `dataRestricted`, as in `read`.
    func readOffPool<T: Sendable>(_ body: @escaping @Sendable (ReadJob) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let job = ReadJob(readers: readers)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                readThreads.run {
                    do {
                        let value = try body(job)
                        // Cancelled after its last statement: the caller does not want the result any more.
                        if job.isCancelled { throw CancellationError() }
                        continuation.resume(returning: value)
                    } catch let error as DatabaseError {
                        continuation.resume(throwing: self.restricted(error))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            job.cancel()
        }
    }
}
