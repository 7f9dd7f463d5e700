import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Read-only SQLite connections that queries and history use.
///
/// GRDB's `DatabasePool.read` wraps every read in `BEGIN`/`PRAGMA schema_version`/`COMMIT` and reads rows through
/// `Row`; "nothing new since this token" must cost under 20 µs in all. These connections keep their prepared
/// statements and rows are decoded from the statement (`ReadStatement`). A connection is used by one thread at a
/// time: `withConnection` takes an idle one (or opens one) and gives it back. GRDB's pool serves everything else.
///
/// The `async` API runs its reads on the store's own threads (`FinanceStore.readOffPool`, `ReadThreads`), never
/// on a thread of the cooperative pool; a cancelled task's read is interrupted (`ReadJob`). An idle connection
/// holds no read transaction, so it never holds back a checkpoint.
final class ReaderPool: Sendable {
    let path: String
    private let idle = Mutex<[ReaderConnection]>([])
    /// Set by `close()`: no connection is opened or kept from then on.
    private let closed = Atomic<Bool>(false)
    /// Idle connections kept for reuse; more are opened under load and closed when given back.
    private let keep = 4

    /// `first`: a connection already open (the one the store's checks ran on), kept for the first read.
    init(path: String, first: ReaderConnection? = nil) {
        self.path = path
        if let first { idle.withLock { $0.append(first) } }
    }

    /// Whether `close()` ran.
    var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Runs `body` on an idle connection (opened on first use), on the calling thread.
    func withConnection<T>(_ body: (ReaderConnection) throws -> T) throws -> T {
        guard !closed.load(ordering: .acquiring) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store at \(path) was closed")
        }
        let connection = try idle.withLock { $0.popLast() } ?? ReaderConnection(path: path)
        defer {
            connection.finishStatements()
            idle.withLock { list in
                if list.count < keep, !closed.load(ordering: .acquiring) { list.append(connection) }
            }
        }
        return try body(connection)
    }

    /// Closes the idle connections; one in use closes when it is given back. Reads throw from then on.
    func close() {
        closed.store(true, ordering: .releasing)
        // Outside the lock: deinit closes each connection.
        let connections = idle.withLock { list in
            defer { list.removeAll() }
            return list
        }
        _ = connections
    }
}

/// One read-only connection and its prepared statements. Not thread-safe: `ReaderPool` hands it to one thread
/// at a time.
final class ReaderConnection: @unchecked Sendable {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    /// Statements handed out since the connection was taken: reset when it is given back.
    private var used: [OpaquePointer] = []
    /// Rows each statement returned last time: a capacity to reserve for the next result.
    private var rowHints: [OpaquePointer: Int] = [:]
    /// Whether SQLite's plan for a query text sorts its whole selection (`AccountWalk`).
    var sortPlans: [String: Bool] = [:]
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    /// Set while the read using the connection is cancelled (`ReadJob.cancel`): the next statement throws.
    let cancelled = Atomic<Bool>(false)

    init(path: String) throws {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            sqlite3_close_v2(db)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // As the store's other connections: wait for a busy file rather than fail at once.
        sqlite3_busy_timeout(db, 30_000)
        // As GRDB's readers (FinanceStore.init): memory-mapped pages and a larger cache.
        let pragmas = "PRAGMA mmap_size = 268435456; PRAGMA cache_size = -16000"
        let rc = sqlite3_exec(db, pragmas, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql: pragmas) }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_finalize(begin)
        sqlite3_finalize(commit)
        sqlite3_close_v2(handle)
    }

    /// Throws `CancellationError` when the read using the connection was cancelled.
    @inline(__always)
    func checkCancellation() throws {
        if cancelled.load(ordering: .relaxed) { throw CancellationError() }
    }

    /// The prepared statement for `sql`, kept for the connection's life, ready to bind and step. Throws
    /// `CancellationError` when the read was cancelled.
    func statement(_ sql: String) throws -> ReadStatement {
        try checkCancellation()
        if let cached = statements[sql] {
            used.append(cached)
            return ReadStatement(handle: cached, connection: self)
        }
        if statements.count >= 64 { evictIdleStatements() }
        let prepared = try prepare(sql, persistent: true)
        statements[sql] = prepared
        used.append(prepared)
        return ReadStatement(handle: prepared, connection: self)
    }

    func rowHint(_ statement: ReadStatement) -> Int { rowHints[statement.handle] ?? 0 }
    func setRowHint(_ statement: ReadStatement, _ rows: Int) { rowHints[statement.handle] = rows }

    /// The first column of every row, as text.
    func strings(_ sql: String) throws -> [String] {
        let statement = try self.statement(sql)
        defer { finishStatements() }
        var out: [String] = []
        while try statement.step() { out.append(statement.text(0)) }
        return out
    }

    /// Queries vary (literal limits, `IN` lists of any length): the cache is bounded by dropping every statement
    /// not in use when it is full.
    private func evictIdleStatements() {
        for (sql, statement) in statements where !used.contains(statement) {
            rowHints[statement] = nil
            sqlite3_finalize(statement)
            statements[sql] = nil
        }
    }

    /// Several statements that must see one snapshot of the store: one read transaction around `body`.
    func snapshot<T>(_ body: () throws -> T) throws -> T {
        if begin == nil { begin = try prepare("BEGIN", persistent: true) }
        if commit == nil { commit = try prepare("COMMIT", persistent: true) }
        try run(begin!, sql: "BEGIN")
        do {
            let value = try body()
            // Reset what the body stepped, so that COMMIT does not find the statements still reading.
            finishStatements()
            try run(commit!, sql: "COMMIT")
            return value
        } catch {
            finishStatements()
            if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Resets every statement handed out, releasing its read snapshot and bound values.
    func finishStatements() {
        for statement in used {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        used.removeAll(keepingCapacity: true)
    }

    private func prepare(_ sql: String, persistent: Bool) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        return statement
    }

    private func run(_ statement: OpaquePointer, sql: String) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw error(code, sql: sql) }
    }

    func error(_ code: CInt, sql: String?) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
