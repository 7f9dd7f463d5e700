import Foundation
import GRDB
import GRDBSQLite

extension Database {
    /// Inserts a blob of `length` bytes as `column` of the row `rowID` of `table`, its bytes given in pieces by
    /// `fill` and written straight into the row's pages.
    ///
    /// Binding a large `Data` costs three copies of it at once: SQLite's copy of the bound value
    /// (`SQLITE_TRANSIENT`), the record it builds from it, and the caller's. Here the row is inserted with
    /// `zeroblob(length)` (which SQLite writes as zeros without building them in memory), and each piece is copied
    /// once, page by page, through SQLite's incremental blob I/O. `statement` inserts or replaces the row with
    /// `zeroblob(?)` as the blob's value, its arguments being `arguments` then the length. `fill` must give exactly
    /// `length` bytes.
    func insertBlob(length: Int, statement: String, arguments: StatementArguments, table: String, column: String,
                    rowID: Int64, fill: (_ write: (Data) throws -> Void) throws -> Void) throws {
        try execute(sql: statement, arguments: arguments + [length])
        var blob: OpaquePointer?
        let connection = sqliteConnection
        func check(_ code: CInt) throws {
            guard code == SQLITE_OK else {
                let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement)
            }
        }
        try check(sqlite3_blob_open(connection, "main", table, column, rowID, 1, &blob))
        defer { sqlite3_blob_close(blob) }
        var offset = 0
        try fill { piece in
            guard offset + piece.count <= length else {
                throw DatabaseError(resultCode: .SQLITE_RANGE, message: "\(offset + piece.count) bytes for a blob of \(length)",
                                    sql: statement)
            }
            try check(piece.withUnsafeBytes { sqlite3_blob_write(blob, $0.baseAddress, CInt($0.count), CInt(offset)) })
            offset += piece.count
        }
        guard offset == length else {
            throw DatabaseError(resultCode: .SQLITE_RANGE, message: "\(offset) bytes for a blob of \(length)", sql: statement)
        }
    }
}
