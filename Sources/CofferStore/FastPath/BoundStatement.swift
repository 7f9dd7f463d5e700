import CofferModel
import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement executed by binding values straight through SQLite's C API.
///
/// Used for the two inserts every imported transaction makes (its row and its change-log row): GRDB's
/// `StatementArguments` goes through generic, existential conversions per value that measured about 14% of a bulk
/// import's CPU. The statement is this writer's own (not GRDB's cache), so GRDB never sees its state change.
final class BoundStatement {
    private let statement: Statement
    private let connection: OpaquePointer?
    private let sql: String
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        connection = db.sqliteConnection
        self.sql = sql
    }

    // Binding one value at a time, straight from Swift values: no intermediate `[DatabaseValue]` per row.
    // Values are copied by SQLite (`SQLITE_TRANSIENT`), so nothing needs to outlive the call.

    func bind(_ index: CInt, _ value: Int64) throws {
        try check(sqlite3_bind_int64(statement.sqliteStatement, index, value))
    }

    func bind(_ index: CInt, _ value: Int64?) throws {
        guard let value else { return try check(sqlite3_bind_null(statement.sqliteStatement, index)) }
        try bind(index, value)
    }

    func bind(_ index: CInt, _ value: String?) throws {
        guard var value else { return try check(sqlite3_bind_null(statement.sqliteStatement, index)) }
        let handle = statement.sqliteStatement
        let code = value.withUTF8 { bytes -> CInt in
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
            return sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                     CInt(bytes.count), Self.transient)
        }
        try check(code)
    }

    func bind(_ index: CInt, _ value: UUID) throws {
        let handle = statement.sqliteStatement
        let code = withUnsafeBytes(of: value.uuid) { sqlite3_bind_blob(handle, index, $0.baseAddress, 16, Self.transient) }
        try check(code)
    }

    /// Runs the statement bound with `bind` to completion and resets it for the next row.
    func step() throws {
        let handle = statement.sqliteStatement
        let result = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard result == SQLITE_DONE else { throw error(result) }
    }

    /// Runs the statement bound with `bind` and reads its first row, if any, with `read`; then resets it.
    func firstRow<T>(_ read: (OpaquePointer) -> T) throws -> T? {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return read(handle)
        case SQLITE_DONE: return nil
        case let code: throw error(code)
        }
    }

    private func check(_ code: CInt) throws {
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: CInt) -> DatabaseError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
