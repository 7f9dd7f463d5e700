import CofferModel
import Foundation
import GRDB
import GRDBSQLite

/// "The file is the store": SQLite in WAL mode keeps recent commits in `coffer.sqlite-wal` until a checkpoint
/// copies them into `coffer.sqlite`. Closing a store checkpoints, so that once no process has the store open the
/// `.sqlite` file alone holds all of it and can be copied like any file.
extension FinanceStore {
    /// Checkpoints the write-ahead log into the store file and closes every connection. Call it before the
    /// program exits (the `coffer` commands all do, on success and on error), so that when no program has the
    /// store open, the `.sqlite` file alone is the whole store: copy it, mail it, back it up.
    ///
    /// The checkpoint is SQLite's `TRUNCATE` mode, done once the store's own connections are closed: it copies
    /// every committed page into the file and empties the `-wal` file. When another process is writing (an import
    /// holds the write lock for its whole file), it copies what is committed without waiting, and that process
    /// finishes the job when it closes; readers (a monitor) are waited for at most `waitingAtMost`. Closing never
    /// fails, nor hangs, because of another process.
    ///
    /// Afterwards every query, history sequence and write of this store throws; a second `close()` does nothing.
    ///
    /// - Returns: `true` when the `.sqlite` file alone now holds every committed change (the log was checkpointed
    ///   whole, or there was nothing to checkpoint); `false` when another process kept part of it in the log.
    @discardableResult
    public func close(waitingAtMost timeout: Duration = .seconds(2)) -> Bool {
        let first = closed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return Self.walIsEmpty(path: path) }
        // A client's store closes the owner's store it opened for itself, and nothing of one it shares.
        if let base { return ownsBase ? base.close(waitingAtMost: timeout) : Self.walIsEmpty(path: path) }
        readers.close()
        do {
            try pools.closing()?.close()
            // Every connection of this store is closed: the descriptor kept since opening can go (closing it
            // earlier would have dropped their locks).
            if let fd = openingLock.withLock({ $0.take() }) { posixClose(fd) }
        } catch {
            // A statement still running elsewhere in the program: its connection closes when it finishes (GRDB
            // closes the rest on deallocation). The checkpoint below still runs on a connection of its own.
            logger.warning("store close: a connection is still in use", metadata: ["path": "\(path)", "error": "\(error)"])
        }
        return Self.checkpoint(path: path, waitingAtMost: timeout)
    }

    /// How long a connection of the store waits for another process's lock (a second import waits for the first).
    static let busyTimeout: TimeInterval = 30

    /// After a commit that left a large log (an import), empties it on the writer's own connection: SQLite's
    /// automatic checkpoint at the commit copied it into the store file, as the log's index in shared memory
    /// records, so this only truncates it. Left for `close`, the log outlived that index (the store's connections
    /// close one by one, the writer first): the next connection rebuilt the index from the log and copied every
    /// page again. A first import of 200k rows wrote its 88 MB into the store twice. It does not wait: a reader in
    /// another process keeps the log as it is, and `close` tries again.
    static func emptyLogIfLarge(_ db: Database, path: String) {
        guard let size = StoreFile.size(of: path + "-wal"), size > 4 << 20 else { return }
        let handle = db.sqliteConnection
        sqlite3_busy_timeout(handle, 0)
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        sqlite3_busy_timeout(handle, CInt(busyTimeout * 1000))
    }

    /// Copies every committed change from the write-ahead log of the store at `path` into the store file and
    /// truncates the log (SQLite's `wal_checkpoint(TRUNCATE)`), on a connection of its own. A Coffer addition.
    ///
    /// Best effort: while another connection holds the write lock it copies what is committed without waiting;
    /// while one reads an older snapshot it waits at most `waitingAtMost`, then copies what it can. Nothing is done
    /// when there is no log, or when the file is not writable (a read-only store stays untouched). An empty log
    /// that readers left is deleted with its index (`-shm`) when no other connection has the store open.
    ///
    /// - Returns: `true` when the `.sqlite` file alone holds every committed change afterwards.
    @discardableResult
    public static func checkpoint(path: String, waitingAtMost timeout: Duration = .seconds(2)) -> Bool {
        // An empty log left by a reader is removed too, when this is the last connection: no stray files.
        guard FileManager.default.fileExists(atPath: path + "-wal") else { return true }
        guard FileManager.default.isWritableFile(atPath: path) else { return walIsEmpty(path: path) }
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db = handle else {
            sqlite3_close_v2(handle)
            return false
        }
        // The last connection to close checkpoints once more and deletes the log and its index when it can.
        defer { sqlite3_close_v2(db) }
        let millis = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(db, CInt(clamping: min(100, max(0, millis))))
        // A read opens the database and its log (a fresh connection has not looked at either yet). The header's
        // schema cookie is read without parsing the schema, which a `SELECT` from `sqlite_master` did first.
        guard sqlite3_exec(db, "PRAGMA schema_version", nil, nil, nil) == SQLITE_OK else { return false }
        var logFrames: CInt = -1
        var copiedFrames: CInt = -1
        // Another process writing (an import holds the write lock for its whole file) checkpoints when it closes:
        // waiting for it would hold this command up for nothing. Copy what is committed, without waiting.
        sqlite3_busy_timeout(db, 0)
        guard sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else {
            _ = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &copiedFrames)
            return false
        }
        sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
        // Readers (a monitor polling) finish within milliseconds: wait for them, up to `timeout`.
        sqlite3_busy_timeout(db, CInt(clamping: max(0, millis)))
        let code = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copiedFrames)
        return code == SQLITE_OK
    }

    /// Whether the store at `path` has no write-ahead log, or an empty one.
    static func walIsEmpty(path: String) -> Bool {
        (StoreFile.size(of: path + "-wal") ?? 0) == 0
    }
}
