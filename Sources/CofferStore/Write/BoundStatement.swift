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

    /// Binds `values` in order and runs the statement to completion.
    func execute(_ values: [DatabaseValue]) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = CInt(offset + 1)
            let code: CInt
            switch value.storage {
            case .null: code = sqlite3_bind_null(handle, index)
            case .int64(let number): code = sqlite3_bind_int64(handle, index, number)
            case .double(let number): code = sqlite3_bind_double(handle, index, number)
            case .string(let text): code = sqlite3_bind_text(handle, index, text, -1, Self.transient)
            case .blob(let data):
                code = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, CInt($0.count), Self.transient) }
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
        let result = sqlite3_step(handle)
        guard result == SQLITE_DONE else { throw error(result) }
    }

    private func error(_ code: CInt) -> DatabaseError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
