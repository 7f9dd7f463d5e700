import CofferModel
import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement of a `ReaderConnection`: bind, step, and read columns straight from SQLite.
///
/// Decoding a row through GRDB's `Row` copies every column into a `DatabaseValue` and converts it back through
/// generic, existential code; reading `sqlite3_column_*` directly is most of the difference between a query's
/// SQLite time and its Swift time.
struct ReadStatement {
    let handle: OpaquePointer
    let connection: ReaderConnection

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    // MARK: Binding (1-based, as SQLite)

    func bind(_ values: [DatabaseValue]) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: CInt(offset + 1)) }
    }

    func bind(_ value: DatabaseValue, at index: CInt) throws {
        let code: CInt
        switch value.storage {
        case .null: code = sqlite3_bind_null(handle, index)
        case .int64(let number): code = sqlite3_bind_int64(handle, index, number)
        case .double(let number): code = sqlite3_bind_double(handle, index, number)
        case .string(let text): code = sqlite3_bind_text(handle, index, text, -1, Self.transient)
        case .blob(let data):
            code = data.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, CInt($0.count), Self.transient) }
        }
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    func bind(_ value: Int64, at index: CInt) throws {
        let code = sqlite3_bind_int64(handle, index, value)
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    func bind(_ value: UUID, at index: CInt) throws {
        let code = withUnsafeBytes(of: value.uuid) { sqlite3_bind_blob(handle, index, $0.baseAddress, 16, Self.transient) }
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Advances to the next row: false when there is none.
    @inline(__always)
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw connection.error(code, sql: sql)
    }

    var sql: String { sqlite3_sql(handle).map { String(cString: $0) } ?? "" }

    // MARK: Columns (0-based)

    @inline(__always)
    func isNull(_ index: CInt) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    @inline(__always)
    func int64(_ index: CInt) -> Int64 { sqlite3_column_int64(handle, index) }

    func optionalInt64(_ index: CInt) -> Int64? { isNull(index) ? nil : int64(index) }

    /// The column's text ("" for NULL). SQLite converts other storage classes to text, as GRDB does.
    func text(_ index: CInt) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ index: CInt) -> String? { isNull(index) ? nil : text(index) }

    /// A UUID stored as a 16-byte blob (or, as GRDB also accepts, as text).
    func uuid(_ index: CInt, column: String) throws -> UUID {
        if sqlite3_column_type(handle, index) == SQLITE_BLOB, sqlite3_column_bytes(handle, index) == 16,
           let bytes = sqlite3_column_blob(handle, index) {
            var id: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &id) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
            return UUID(uuid: id)
        }
        if sqlite3_column_type(handle, index) == SQLITE_TEXT, let id = UUID(uuidString: text(index)) { return id }
        throw CofferError(.notAStore, "damaged store: column \(column) does not hold a UUID")
    }

    /// An exact decimal kept as text; nil for NULL. Parsed as strictly as everywhere else (`ExactDecimal`).
    func decimal(_ index: CInt, column: String) throws -> Decimal? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        if let value = ExactDecimal.parse(utf8: buffer) { return value }
        throw CofferError(.notAStore, "damaged store: '\(String(decoding: buffer, as: UTF8.self))' in column \(column) is not a decimal")
    }
}
