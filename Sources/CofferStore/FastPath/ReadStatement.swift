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

    /// Back to before the first row (its bindings kept), ending what a stopped step left open.
    func reset() { sqlite3_reset(handle) }

    var sql: String { sqlite3_sql(handle).map { String(cString: $0) } ?? "" }

    // MARK: Columns (0-based), read through `row`

    /// The current row's columns: what the decoders read (`TxnRows`, `RecordRow`).
    @inline(__always)
    var row: SQLiteRow { SQLiteRow(handle: handle) }

    @inline(__always) func isNull(_ index: CInt) -> Bool { row.isNull(index) }
    @inline(__always) func int64(_ index: CInt) -> Int64 { row.int64(index) }
    @inline(__always) func text(_ index: CInt) -> String { row.text(index) }
    @inline(__always) func blob(_ index: CInt) -> Data? { row.blob(index) }
    @inline(__always) func uuid(_ index: CInt, column: String) throws -> UUID { try row.uuid(index, column: column) }
}

/// The current row of a prepared SQLite statement (a `ReadStatement`'s, or a GRDB statement's while its cursor
/// stands on a row), read straight from SQLite. Valid until the statement steps or resets.
struct SQLiteRow {
    let handle: OpaquePointer

    // Columns are 0-based.
    //
    // Through `sqlite3_column_value` and the `sqlite3_value_*` functions: one full column call per column
    // (`sqlite3_column_*` each re-check the statement and the connection's error state), then plain reads of the
    // value. The value is valid until the next step or reset, and this connection is used by one thread.

    @inline(__always)
    private func value(_ index: CInt) -> OpaquePointer { sqlite3_column_value(handle, index) }

    @inline(__always)
    func isNull(_ index: CInt) -> Bool { sqlite3_value_type(value(index)) == SQLITE_NULL }

    @inline(__always)
    func int64(_ index: CInt) -> Int64 { sqlite3_value_int64(value(index)) }

    func optionalInt64(_ index: CInt) -> Int64? {
        let v = value(index)
        return sqlite3_value_type(v) == SQLITE_NULL ? nil : sqlite3_value_int64(v)
    }

    /// The column's text ("" for NULL). SQLite converts other storage classes to text, as GRDB does.
    func text(_ index: CInt) -> String { optionalText(index) ?? "" }

    /// The column's text, nil for NULL.
    func optionalText(_ index: CInt) -> String? {
        let v = value(index)
        guard let bytes = sqlite3_value_text(v) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(v))), as: UTF8.self)
    }

    /// The column's bytes (a blob, or text as UTF-8); nil for NULL.
    func blob(_ index: CInt) -> Data? {
        let v = value(index)
        if sqlite3_value_type(v) == SQLITE_NULL { return nil }
        guard let bytes = sqlite3_value_blob(v) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_value_bytes(v)))
    }

    /// The column's text, nil for NULL; `known` (the text of column `other` in this row) when the bytes are the
    /// same. Descriptions, original descriptions and merchant names are often equal: one string instead of three.
    func optionalText(_ index: CInt, sameAs other: CInt, _ known: String) -> String? {
        let v = value(index)
        guard let bytes = sqlite3_value_text(v) else { return nil }
        let count = Int(sqlite3_value_bytes(v))
        let w = value(other)
        if let otherBytes = sqlite3_value_text(w), Int(sqlite3_value_bytes(w)) == count, memcmp(bytes, otherBytes, count) == 0 {
            return known
        }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// A UUID stored as a 16-byte blob (or, as GRDB also accepts, as text).
    func uuid(_ index: CInt, column: String) throws -> UUID {
        let v = value(index)
        if sqlite3_value_type(v) == SQLITE_BLOB, let bytes = sqlite3_value_blob(v), sqlite3_value_bytes(v) == 16 {
            var id: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &id) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
            return UUID(uuid: id)
        }
        if sqlite3_value_type(v) == SQLITE_TEXT, let text = optionalText(index), let id = UUID(uuidString: text) { return id }
        throw CofferError(.notAStore, "damaged store: column \(column) does not hold a UUID")
    }

    /// An exact decimal kept as text; nil for NULL. Parsed as strictly as everywhere else (`ExactDecimal`).
    func decimal(_ index: CInt, column: String) throws -> Decimal? {
        let v = value(index)
        guard let bytes = sqlite3_value_text(v) else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(v)))
        if let value = ExactDecimal.parse(utf8: buffer) { return value }
        throw CofferError(.notAStore, "damaged store: '\(String(decoding: buffer, as: UTF8.self))' in column \(column) is not a decimal")
    }
}

extension SQLiteRow {
    /// The row as GRDB's `Row`, every column copied by name: a GRDB record decodes from it as from GRDB's own rows.
    func databaseRow() -> Row {
        var values: [String: (any DatabaseValueConvertible)?] = [:]
        for index in 0..<sqlite3_column_count(handle) {
            let name = String(cString: sqlite3_column_name(handle, index))
            switch sqlite3_value_type(sqlite3_column_value(handle, index)) {
            case SQLITE_INTEGER: values[name] = int64(index)
            case SQLITE_FLOAT: values[name] = sqlite3_column_double(handle, index)
            case SQLITE_TEXT: values[name] = optionalText(index)
            case SQLITE_BLOB: values[name] = blob(index)
            default: values[name] = DatabaseValue.null
            }
        }
        return Row(values)
    }
}

extension FetchableRecord {
    /// The record in the current row of a read-path statement, decoded by GRDB.
    static func decode(_ s: ReadStatement) throws -> Self { try Self(row: s.row.databaseRow()) }
}
