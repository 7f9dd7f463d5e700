@_exported import CofferModel
import Crypto
import Foundation
import GRDB
import Logging
import Synchronization

/// Coffer's store: FinanceKit's `FinanceStore`, on a SQLite file.
///
/// For example:
/// ```swift
/// let store = try FinanceStore(path: FinanceStore.defaultPath())
/// let recent = try await store.transactions(query: TransactionQuery(
///     sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)], limit: 20))
/// ```
/// One writer (an import) and many readers (queries, monitors) work at once, across processes (SQLite WAL).
/// Where FinanceKit has `FinanceStore.shared`, Coffer opens a store on a path: `defaultPath()` gives
/// `$COFFER_STORE`, else `$XDG_DATA_HOME/coffer/coffer.sqlite`, else `~/.local/share/coffer/coffer.sqlite`.
public final class FinanceStore: Sendable {
    /// How a store is opened.
    public enum Access: Sendable {
        /// Create the store when missing, migrate it, allow writes.
        case readWrite
        /// Never create or modify anything: queries and history only.
        case readOnly
    }

    /// The file the store lives in.
    public let path: String
    /// The store's identity, made when it was created; history tokens name it.
    public let storeID: UUID
    /// Whether it was opened for writing or for reading only.
    public let access: Access
    /// Batch size and poll interval of the history sequences this store makes (a parameter, not ambient state).
    public let historyOptions: HistoryOptions
    /// GRDB's pool: writes, migrations and the rarer reads (opened at first use for `.readOnly`; `GRDBPool`).
    let pools: GRDBPool
    /// GRDB's pool, opened now if it was not.
    var pool: DatabasePool { get throws { try pools.pool } }
    /// Connections that queries and history read through, on `readThreads` (`readOffPool`).
    let readers: ReaderPool
    /// The threads `readOffPool` runs reads on, off the cooperative pool.
    let readThreads: ReadThreads
    let tokenKeyData: Data
    var tokenKey: SymmetricKey { SymmetricKey(data: tokenKeyData) }
    /// History tokens' MAC, keyed once.
    let tokenMAC: TokenMAC
    let logger: Logger
    /// Set once `close()` ran.
    let closed = Mutex(false)
    /// For `.readWrite`: the descriptor the opening flock was taken on, kept open until the store closes. Closing
    /// any descriptor of a file drops every POSIX (fcntl) lock the process holds on it, SQLite's included: the
    /// shared lock by which other processes see that this one still uses the write-ahead log. Without it, the
    /// last other process to close would checkpoint and delete the log in the middle of this one's import.
    let openingLock: Mutex<Int32?>
    /// The client this store reads for, through its grant (`FinanceStore(path:clientToken:)`, `scoped(to:)`); nil
    /// for the owner's store, which reads everything.
    package let clientID: UUID?
    /// For a client's store: the owner's store whose connections it reads through.
    let base: FinanceStore?
    /// Whether closing this client's store closes `base` too (it was opened for it).
    let ownsBase: Bool

    /// Opens (and, for `.readWrite`, creates or migrates) the store at `path`.
    ///
    /// Throws `CofferError` with a one-line reason when the path is a folder, a file that is not a Coffer store,
    /// a store written by a newer Coffer, or read-only while `.readWrite` was asked for. Such a file is never
    /// modified.
    public init(path: String, access: Access = .readWrite, logger: Logger = Logger(label: "coffer.store"),
                historyOptions: HistoryOptions = HistoryOptions()) throws {
        self.path = path
        self.access = access
        self.logger = logger
        self.historyOptions = historyOptions
        readThreads = ReadThreads()
        clientID = nil
        base = nil
        ownsBase = false
        if access == .readWrite, !FileManager.default.fileExists(atPath: path) {
            try StoreFile.check(path: path, access: access)
            try StoreFile.create(path: path)
        }
        // Two processes opening a new or older store at once (cron overlap) must not both create or migrate it:
        // hold an exclusive flock on the file while checking, opening and migrating. flock is separate from
        // SQLite's own fcntl locks on Linux, so it does not disturb them; but closing its descriptor would drop
        // them (POSIX), so once the store is open the flock is released and the descriptor kept (`openingLock`).
        let lock = access == .readWrite ? StoreFile.lockExclusively(path: path) : nil
        var opened = false
        defer { if opened { StoreFile.release(lock) } else { StoreFile.unlock(lock) } }
        openingLock = Mutex(lock)
        // For .readOnly, the checks run on a reader connection that queries then keep using.
        let checked = try StoreFile.check(path: path, access: access)
        if access == .readWrite { try StoreFile.setPageSizeIfEmpty(path: path) }

        var config = Configuration()
        config.readonly = access == .readOnly
        // A second import (cron overlap) waits for the first instead of failing.
        config.busyMode = .timeout(Self.busyTimeout)
        config.label = "coffer"
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            if db.configuration.readonly {
                // Readers (queries, history): memory-mapped pages and a larger cache instead of a pread system
                // call per page (12% of a query's time). The writer keeps a small cache and no mapping, so that an
                // import's memory stays small whatever the store's size.
                try db.execute(sql: "PRAGMA mmap_size = 268435456; PRAGMA cache_size = -16000")
            } else {
                // An 8 MB page cache for the writer (SQLite's default is 2 MB): fewer pages written out to the log in
                // the middle of an import and read back (docs/benchmarks.md, "16 KiB pages and no statement journal").
                try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8000")
            }
        }
        readers = ReaderPool(path: path, first: checked)
        pools = GRDBPool(path: path, configuration: config)
        do {
            let migrator = Schema.migrator
            if access == .readWrite {
                try Schema.createNewStore(pools.pool, migrator: migrator)
                try migrator.migrate(pools.pool)
            } else {
                var complete = try readers.withConnection { try Self.hasCompletedMigrations($0) }
                if !complete, FileManager.default.isWritableFile(atPath: path) {
                    // A store from an older Coffer: upgrade it (under the same lock as any writer), then read.
                    try FinanceStore(path: path, access: .readWrite, logger: logger).close()
                    complete = try readers.withConnection { try Self.hasCompletedMigrations($0) }
                }
                guard complete else {
                    throw CofferError(.notAStore, "\(path): the store was made by an older Coffer and is read-only here; open it once with write access to upgrade it")
                }
            }
            let (id, key) = try readers.withConnection { try Self.identity($0) }
            guard let id, let key else {
                throw CofferError(.notAStore, "\(path): the store's identity is missing; it is damaged")
            }
            storeID = id
            tokenKeyData = key
            tokenMAC = TokenMAC(key: SymmetricKey(data: key))
            opened = true
        } catch let error as CofferError {
            throw error
        } catch {
            throw StoreFile.describe(error, path: path)
        }
    }

    /// A client's store reading through `owner`'s connections and threads (see `scoped(to:)`).
    init(viewOf owner: FinanceStore, clientID: UUID, ownsBase: Bool) {
        let owner = owner.base ?? owner
        path = owner.path
        storeID = owner.storeID
        access = owner.access
        historyOptions = owner.historyOptions
        pools = owner.pools
        readers = owner.readers
        readThreads = owner.readThreads
        tokenKeyData = owner.tokenKeyData
        tokenMAC = owner.tokenMAC
        logger = owner.logger
        openingLock = Mutex(nil)
        self.clientID = clientID
        base = owner
        self.ownsBase = ownsBase
    }

    deinit {
        // A store dropped without `close()`: its connections close right after this (GRDB and `ReaderPool` close
        // theirs on deallocation), so the kept descriptor can go now.
        if let fd = openingLock.withLock({ $0.take() }) { posixClose(fd) }
    }

    /// Whether every migration this build knows has run (GRDB's `hasCompletedMigrations`, on a reader connection).
    static func hasCompletedMigrations(_ connection: ReaderConnection) throws -> Bool {
        let tables = try connection.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'")
        guard !tables.isEmpty else { return false }
        let applied = Set(try connection.strings("SELECT identifier FROM grdb_migrations"))
        return Schema.migrator.migrations.allSatisfy(applied.contains)
    }

    /// The store's id and token key, from `store_meta`.
    static func identity(_ connection: ReaderConnection) throws -> (UUID?, Data?) {
        let statement = try connection.statement("SELECT key, value FROM store_meta WHERE key IN ('store_id', 'token_key')")
        defer { connection.finishStatements() }
        var id: UUID?
        var key: Data?
        while try statement.step() {
            switch statement.text(0) {
            case "store_id": id = try? statement.uuid(1, column: "store_id")
            case "token_key": key = statement.blob(1)
            default: break
            }
        }
        return (id, key)
    }

    /// The path a store opens at when none is given: `$COFFER_STORE`, else `$XDG_DATA_HOME/coffer/coffer.sqlite`,
    /// else `~/.local/share/coffer/coffer.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["COFFER_STORE"], !explicit.isEmpty { return explicit }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            dataHome = home + "/.local/share"
        }
        return dataHome + "/coffer/coffer.sqlite"
    }

    /// FinanceKit's availability check: whether a readable store exists at `path`, for financial data and for orders
    /// alike. `true` does not promise data.
    public static func isDataAvailable(_ type: FinanceDataType, at path: String = defaultPath()) -> Bool {
        return (try? FinanceStore(path: path, access: .readOnly)) != nil
    }

    /// Runs a read, mapping SQLite trouble (locked, unreadable) to FinanceKit's transient `dataRestricted`.
    /// GRDB runs it on a reader's dispatch queue (off the cooperative pool) and interrupts it when the task is
    /// cancelled.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try requireOwner()
        do {
            return try await pool.read(body)
        } catch let error as DatabaseError {
            throw restricted(error)
        }
    }

    /// Runs a read on one of `readers` on the calling thread, with `read`'s error mapping: for bounded look-ups
    /// (history's "nothing new since this token") and tests; the `async` API's queries read through `readOffPool`. The body sees the store
    /// as of each statement it steps; `ReaderConnection.snapshot` gives several statements one snapshot.
    func readNow<T>(_ body: (ReaderConnection) throws -> T) throws -> T {
        do {
            return try readers.withConnection(body)
        } catch let error as DatabaseError {
            throw restricted(error)
        }
    }

    /// Throws for a client's store: what reads past the grant (the ledger, reconciliation, backups, hooks) and every
    /// write are the owner's.
    func requireOwner() throws {
        guard clientID == nil else {
            throw CofferError(.usage, "\(path) is open as a client: only the store's owner (FinanceStore(path:)) can do this")
        }
    }

    /// SQLite trouble (locked, unreadable) as FinanceKit's transient `dataRestricted`; other errors as they are.
    func restricted(_ error: DatabaseError) -> any Error {
        guard [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH].contains(error.resultCode) else { return error }
        logger.warning("store read failed", metadata: ["path": "\(path)", "error": "\(error)"])
        return FinanceError.dataRestricted(.financialData)
    }
}

extension FinanceStore {
    /// FinanceKit's name for the kinds of data a store holds.
    public typealias DataType = FinanceDataType
    /// FinanceKit's name for a history token: `FinanceStore.HistoryToken`.
    public typealias HistoryToken = CofferModel.HistoryToken
    /// FinanceKit's name for a batch of changes: `FinanceStore.Changes`.
    public typealias Changes = CofferModel.Changes
}
