import CofferFormats
import Foundation

/// Runs an import's two halves on two threads: parse and normalize on a new thread, match and write on the
/// caller's (which holds the SQLite write transaction).
///
/// SQLite's inserts and the parsing/normalizing each take about half of a bulk import's CPU, so on two cores
/// the import takes about as long as the slower half. Events cross in batches through a bounded queue (a few
/// thousand transactions at most, so memory stays flat), in order. A parse error reaches the writer after every
/// event before it, exactly where a single-threaded import would have thrown it; when the writer fails, the
/// parsing thread is stopped and joined before the error propagates, so nothing outlives the write.
enum ImportPipe {
    static let batchSize = 256
    static let capacity = 8

    /// `consume` receives every event in order; for `.begin` it returns the statement's account (resolving or
    /// creating it), which the parsing thread waits for before it prepares the statement's transactions (without
    /// one, they are prepared in no account).
    static func run(parser: any StatementParser, input: StatementInput, preparer: TransactionPreparer,
                    consume: (consuming PreparedEvent) throws -> ResolvedAccount?) throws {
        let queue = BatchQueue(capacity: capacity)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var preparer = preparer
            var batch: [PreparedEvent] = []
            batch.reserveCapacity(batchSize)
            func flush() throws {
                guard !batch.isEmpty else { return }
                try queue.send(batch)
                batch = []
                batch.reserveCapacity(batchSize)
            }
            do {
                try parser.parse(input) { event in
                    try preparer.prepare(event, resolveAccount: { _ in
                        try flush()
                        return try queue.awaitAccount()
                    }, emit: { prepared in
                        batch.append(prepared)
                        if batch.count == batchSize { try flush() }
                    })
                }
                try flush()
                queue.finish(nil)
            } catch {
                try? flush()
                queue.finish(error)
            }
            done.signal()
        }
        thread.name = "coffer-parse"
        thread.stackSize = 8 << 20
        thread.start()
        defer {
            queue.cancel()
            done.wait()
        }
        while var batch = try queue.receive() {
            // Each event is moved out of the batch, not copied (a copy retains every string of a transaction, and
            // the batch's release then releases them: a tenth of the writer's CPU in a `--force` re-import).
            batch.reverse()
            while let event = batch.popLast() {
                let header: RawStatementHeader? = if case .begin(let header) = event { header } else { nil }
                let account = try consume(event)
                if let header {
                    // The parsing thread waits for this answer: there is always one.
                    queue.provideAccount(account ?? ResolvedAccount(id: TransactionPreparer.noAccount,
                                                                    currencyCode: header.account.currencyCode ?? ""))
                }
            }
        }
    }
}

/// A bounded, blocking FIFO of event batches between one producer and one consumer.
final class BatchQueue: @unchecked Sendable {  // all state is guarded by `condition`
    struct Cancelled: Error {}

    private let condition = NSCondition()
    private var batches: [[PreparedEvent]] = []
    private var head = 0
    private let capacity: Int
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var account: ResolvedAccount?

    init(capacity: Int) { self.capacity = capacity }

    /// The producer waits for the consumer to resolve a statement's account (see `ImportPipe.run`).
    func awaitAccount() throws -> ResolvedAccount {
        condition.lock()
        defer { condition.unlock() }
        while account == nil, !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        defer { account = nil }
        return account!
    }

    func provideAccount(_ resolved: ResolvedAccount) {
        condition.lock()
        account = resolved
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks while the queue is full; throws `Cancelled` once the consumer gave up.
    func send(_ batch: [PreparedEvent]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count - head >= capacity, !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    /// No more batches; `error`, if any, is thrown to the consumer after the last batch.
    func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, `nil` at the end; throws the producer's error after its last batch.
    func receive() throws -> [PreparedEvent]? {
        condition.lock()
        defer { condition.unlock() }
        while head == batches.count, !finished { condition.wait() }
        if head < batches.count {
            let batch = batches[head]
            batches[head] = []
            head += 1
            if head == batches.count {
                batches.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.broadcast()
            return batch
        }
        if let failure, !(failure is Cancelled) { throw failure }
        return nil
    }

    /// The consumer stops: a blocked or later `send` throws `Cancelled`.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
