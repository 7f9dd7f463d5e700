import CofferFormats
import Foundation

/// Runs an import's stages on their own threads: parse and prepare (normalize, fingerprint, encode) on one thread,
/// or each on its own (`prepareApart`); match and write on the caller's, which holds the SQLite write transaction.
///
/// Parse and prepare, and SQLite's inserts, each take about half of a bulk OFX or CSV import's CPU, so on two
/// cores the import takes about as long as the slower half. A camt file parses slowly (libxml2 and the element
/// tree: about 1.5x the writer's time a transaction before it is prepared), so there the parse and the prepare
/// get a thread each and the two cores share the three stages; for OFX and CSV a third thread cost 8–14% more CPU
/// and made the import slower (docs/benchmarks.md, "a thread for the prepare stage"). Events cross in batches
/// through bounded queues (a few thousand events at most each, so memory stays flat), in order. A parse or
/// prepare error reaches the writer after every event before it, exactly where a single-threaded import would
/// have thrown it; when the writer fails, the other threads are stopped and joined before the error propagates,
/// so nothing outlives the write.
enum ImportPipe {
    static let batchSize = 256
    static let capacity = 8

    /// `consume` receives every event in order; for `.begin` it returns the statement's account (resolving or
    /// creating it), which the preparing side waits for before it prepares the statement's transactions (without
    /// one, they are prepared in no account). A separate parsing thread goes on meanwhile, up to its queue.
    static func run(parser: any StatementParser, input: StatementInput, preparer: TransactionPreparer,
                    prepareApart: Bool = false,
                    consume: (consuming PreparedEvent) throws -> ResolvedAccount?) throws {
        let prepared = BatchQueue<PreparedEvent>(capacity: capacity)
        var joins: [DispatchSemaphore] = []
        var stops: [() -> Void] = [{ prepared.cancel() }]
        if prepareApart {
            let parsed = BatchQueue<StatementEvent>(capacity: capacity)
            joins.append(start("coffer-parse") {
                var batch = Batcher(into: parsed)
                do {
                    try parser.parse(input) { event in try batch.append(consume event) }
                    try batch.flush()
                    parsed.finish(nil)
                } catch {
                    try? batch.flush()
                    parsed.finish(error)
                }
            })
            joins.append(start("coffer-prepare") {
                prepare(with: preparer, into: prepared) { prepareOne in
                    while var events = try parsed.receive() {
                        try events.drainMoving(leaving: .end) { event in try prepareOne(event) }
                    }
                }
                // Stops the parsing thread at its next batch when preparing stopped early (an error, the writer's).
                parsed.cancel()
            })
            stops.append { parsed.cancel() }
        } else {
            joins.append(start("coffer-parse") {
                prepare(with: preparer, into: prepared) { prepareOne in try parser.parse(input, emit: prepareOne) }
            })
        }
        defer {
            for stop in stops { stop() }
            for join in joins.reversed() { join.wait() }
        }
        while var batch = try prepared.receive() {
            // Each event is moved out of the batch, not copied (a copy retains every string of a transaction, and
            // the batch's release then releases them: a tenth of the writer's CPU in a `--force` re-import).
            try batch.drainMoving(leaving: .end) { event in
                let header: RawStatementHeader? = if case .begin(let header) = event { header } else { nil }
                let account = try consume(event)
                if let header {
                    // The preparing side waits for this answer: there is always one.
                    prepared.provideAccount(account ?? ResolvedAccount(id: TransactionPreparer.noAccount,
                                                                       currencyCode: header.account.currencyCode ?? ""))
                }
            }
        }
    }

    /// The prepare stage: prepares each event `events` hands it and sends the results to the writer in batches,
    /// then the end, or the error that stopped it after every event prepared before it.
    private static func prepare(with preparer: TransactionPreparer, into prepared: BatchQueue<PreparedEvent>,
                                events: ((consuming StatementEvent) throws -> Void) throws -> Void) {
        var preparer = preparer
        var batch = Batcher(into: prepared)
        do {
            try events { event in
                try preparer.prepare(consume event, resolveAccount: { _ in
                    try batch.flush()
                    return try prepared.awaitAccount()
                }, emit: { event in try batch.append(consume event) })  // moved, not copied: 5% of the thread
            }
            try batch.flush()
            prepared.finish(nil)
        } catch {
            try? batch.flush()
            prepared.finish(error)
        }
    }

    /// Starts a stage's thread (named for `perf` and debuggers, with the stack the parsers' recursion needs);
    /// the semaphore returned is signalled when `body` has returned.
    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
        return done
    }
}

/// A producer's batch under construction: sent when full or flushed.
private struct Batcher<Element> {
    let queue: BatchQueue<Element>
    var batch = [Element]()

    init(into queue: BatchQueue<Element>) {
        self.queue = queue
        batch.reserveCapacity(ImportPipe.batchSize)
    }

    mutating func append(_ element: consuming Element) throws {
        batch.append(element)
        if batch.count == ImportPipe.batchSize { try flush() }
    }

    mutating func flush() throws {
        guard !batch.isEmpty else { return }
        try queue.send(batch)
        batch = []
        batch.reserveCapacity(ImportPipe.batchSize)
    }
}

/// A bounded, blocking FIFO of batches between one producer and one consumer.
final class BatchQueue<Element>: @unchecked Sendable {  // all state is guarded by `condition`
    struct Cancelled: Error {}

    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var head = 0
    private let capacity: Int
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var account: ResolvedAccount?

    init(capacity: Int) { self.capacity = capacity }

    /// The producer waits for the consumer to resolve a statement's account (see `ImportPipe.run`; the queue of
    /// prepared events only).
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
    func send(_ batch: [Element]) throws {
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
    func receive() throws -> [Element]? {
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
