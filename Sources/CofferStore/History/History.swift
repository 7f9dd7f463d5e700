import CofferModel
import Foundation

extension FinanceStore {
    /// A long-running sequence of `Changes`, FinanceKit's `History`.
    ///
    /// For example:
    /// ```swift
    /// for try await changes in store.transactionHistory(forAccountID: id, since: savedToken, isMonitoring: false) {
    ///     apply(changes.inserted, changes.updated, changes.deleted)
    ///     savedToken = changes.newToken
    /// }
    /// ```
    /// From `nil` it yields the current state as `inserted`, then what changes after. From a token it yields
    /// only what changed after it, coalesced per entity, in batches of at most `batchSize`, each with a token
    /// that resumes after it. With `isMonitoring: false` it ends after catching up; with `true` it stays open,
    /// delivers commits of any process within a poll interval (`HistoryOptions.pollInterval`, 15 ms), and ends
    /// when its task is cancelled. Errors (`FinanceError.historyTokenInvalid`) surface from `next()`.
    ///
    /// Its SQLite work runs on the store's own threads, never blocking a thread of Swift's cooperative pool; while
    /// caught up, a monitoring sequence sleeps on `HistoryOptions.clock` and between sleeps only compares SQLite's
    /// data version (a few microseconds), reading the change log when another connection committed.
    public struct History<Model: Identifiable & Sendable>: AsyncSequence, Sendable where Model.ID == UUID {
        public typealias Element = Changes<Model>
        let reader: HistoryReader<Model>

        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: reader, watch: reader.isMonitoring ? ChangeWatch() : nil)
        }

        /// Reads the sequence's batches one `next()` at a time.
        public struct Iterator: AsyncIteratorProtocol {
            let reader: HistoryReader<Model>
            /// A monitoring sequence's look at the store's data version (its own connection, opened on first use).
            let watch: ChangeWatch?
            var state: HistoryReader<Model>.State = .start
            /// A client's stream: the grant epoch it reads under (from its token, or the grant's when it started).
            var epoch: Int64?

            public mutating func next() async throws -> Changes<Model>? {
                do {
                    return try await reader.next(&state, epoch: &epoch, watch: watch)
                } catch is CancellationError {
                    // Cancelling the task ends the sequence, wherever the cancellation found it.
                    state = .finished
                    return nil
                }
            }
        }
    }

    /// Changes to the store's accounts.
    public func accountHistory(since token: HistoryToken? = nil, isMonitoring: Bool = true) -> History<Account> {
        History(reader: HistoryReader(store: self, entity: .account, accountID: nil, since: token, isMonitoring: isMonitoring,
                                      options: historyOptions))
    }

    /// Changes to one account's balances.
    public func accountBalanceHistory(forAccountID accountID: UUID, since token: HistoryToken? = nil,
                                      isMonitoring: Bool = true) -> History<AccountBalance> {
        History(reader: HistoryReader(store: self, entity: .balance, accountID: accountID, since: token, isMonitoring: isMonitoring,
                                      options: historyOptions))
    }

    /// Changes to one account's transactions.
    public func transactionHistory(forAccountID accountID: UUID, since token: HistoryToken? = nil,
                                   isMonitoring: Bool = true) -> History<Transaction> {
        History(reader: HistoryReader(store: self, entity: .transaction, accountID: accountID, since: token, isMonitoring: isMonitoring,
                                      options: historyOptions))
    }

    /// Changes to every account's transactions: a Coffer addition for tools that follow the whole store
    /// (FinanceKit itself has only the per-account form).
    public func allTransactionHistory(since token: HistoryToken? = nil, isMonitoring: Bool = true) -> History<Transaction> {
        History(reader: HistoryReader(store: self, entity: .transaction, accountID: nil, since: token, isMonitoring: isMonitoring,
                                      options: historyOptions))
    }

    /// Changes to every account's balances: a Coffer addition, like `allTransactionHistory`.
    public func allAccountBalanceHistory(since token: HistoryToken? = nil, isMonitoring: Bool = true) -> History<AccountBalance> {
        History(reader: HistoryReader(store: self, entity: .balance, accountID: nil, since: token, isMonitoring: isMonitoring,
                                      options: historyOptions))
    }
}

extension FinanceStore.History {
    /// The same stream with batches of at most `size` changes: one page of `coffer serve`'s history routes.
    package func batched(_ size: Int) -> Self {
        var options = reader.options
        options.batchSize = Swift.max(1, size)
        return Self(reader: HistoryReader(store: reader.store, entity: reader.entity, accountID: reader.accountID,
                                          since: reader.since, isMonitoring: reader.isMonitoring, options: options))
    }

    /// Whether this stream has changes after `token`: the one-row probe a caught-up `next()` answers with (a
    /// token of an unfinished snapshot has more). Throws `historyTokenInvalid` for a token not valid here, and
    /// `dataRestricted` for a client without the stream's data type.
    package func hasChanges(after token: HistoryToken) throws -> Bool {
        try !reader.caughtUp(token)
    }
}

/// Tuning of history reading. `batchSize` bounds each `Changes`; `pollInterval` is how often a monitoring
/// sequence that has caught up looks whether another connection (of any process) committed, and `clock` is what
/// it sleeps on between looks.
///
/// For example, a test drives a monitor with swift-clocks' `TestClock` instead of waiting:
/// ```swift
/// let clock = TestClock()
/// let store = try FinanceStore(path: path, historyOptions: HistoryOptions(clock: clock))
/// // … start monitoring, commit elsewhere, then:
/// await clock.advance(by: .milliseconds(15))
/// ```
public struct HistoryOptions: Sendable {
    /// At most this many changes in one batch.
    public var batchSize: Int
    /// How often a caught-up monitoring sequence looks whether another connection committed.
    public var pollInterval: Duration
    /// How many change-log rows are coalesced at once.
    public var window: Int
    /// What a monitoring sequence sleeps on between looks at the store (`ContinuousClock` unless a test injects
    /// one).
    public var clock: any Clock<Duration>

    /// Options with the defaults: 500 per batch, a look every 15 ms, the continuous clock.
    public init(batchSize: Int = 500, pollInterval: Duration = .milliseconds(15), window: Int = 50_000,
                clock: any Clock<Duration> = ContinuousClock()) {
        self.batchSize = max(1, batchSize)
        self.pollInterval = pollInterval
        self.window = max(1, window)
        self.clock = clock
    }
}
