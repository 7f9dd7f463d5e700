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
    private static let staticValue = unsafeBitCast(0, to: sqlite3_destructor_type.self)

    /// The bytes of the texts and blobs bound since the last step, which SQLite reads in place (`SQLITE_STATIC`).
    ///
    /// Why: with `SQLITE_TRANSIENT` SQLite allocates and copies every text and blob it is given, and frees the copy
    /// at the next bind: 61 M of a 10k OFX import's 1,160 M instructions (callgrind; nine texts and two ids a row),
    /// nearly all on the writing thread. Staged, the import runs 2.3% fewer instructions. Each value is copied once into
    /// blocks this statement keeps for its life; a block is never moved or freed while a binding may point into
    /// it, and after each step the statement's bindings are cleared (`sqlite3_clear_bindings`) before the blocks
    /// are reused, so no parameter can be left pointing at bytes written over since. A value that does not fit
    /// the current block and is longer than `largeValue` is handed to SQLite to copy, as before.
    @exclusivity(unchecked) private var blocks: [UnsafeMutableRawPointer] = []
    @exclusivity(unchecked) private var block = -1
    /// Where the next value goes in the current block, and the block's end (nil before the first value).
    @exclusivity(unchecked) private var next: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var end: UnsafeMutableRawPointer?
    private static let blockSize = 1 << 16
    private static let largeValue = 1 << 12

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        connection = db.sqliteConnection
        self.sql = sql
    }

    deinit {
        // Nothing may point into the blocks once they are freed (finalizing reads no value, but this is plain).
        sqlite3_clear_bindings(statement.sqliteStatement)
        for block in blocks { block.deallocate() }
    }

    /// A copy of `bytes` in this statement's blocks, valid until `released`; nil for a large value.
    @inline(__always)
    private func stage(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        let count = bytes.count
        guard let next, let end, count <= end - next else { return stageInNextBlock(bytes) }
        if count > 0 { next.copyMemory(from: bytes.baseAddress!, byteCount: count) }
        self.next = next + count
        return UnsafeRawPointer(next)
    }

    private func stageInNextBlock(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        guard bytes.count <= Self.largeValue else { return nil }
        block += 1
        if block == blocks.count { blocks.append(.allocate(byteCount: Self.blockSize, alignment: 16)) }
        next = blocks[block]
        end = blocks[block] + Self.blockSize
        return stage(bytes)
    }

    /// After a step and reset: no parameter points into the blocks any more, so they are written again from the start.
    @inline(__always)
    private func released(_ handle: OpaquePointer?) {
        guard block >= 0 else { return }
        sqlite3_clear_bindings(handle)
        block = -1
        next = nil
        end = nil
    }

    // Binding one value at a time, straight from Swift values: no intermediate `[DatabaseValue]` per row.
    // Texts and ids are staged in this statement's blocks (see `blocks`), so nothing needs to outlive the call.

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
            if let staged = stage(UnsafeRawBufferPointer(bytes)) {
                return sqlite3_bind_text(handle, index, staged.assumingMemoryBound(to: CChar.self), CInt(bytes.count),
                                         Self.staticValue)
            }
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
            return sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                     CInt(bytes.count), Self.transient)
        }
        try check(code)
    }

    func bind(_ index: CInt, _ value: UUID) throws {
        let handle = statement.sqliteStatement
        let code = withUnsafeBytes(of: value.uuid) { bytes in
            sqlite3_bind_blob(handle, index, stage(bytes)!, 16, Self.staticValue)
        }
        try check(code)
    }

    /// Runs the statement bound with `bind` to completion and resets it for the next row.
    func step() throws {
        let handle = statement.sqliteStatement
        let result = sqlite3_step(handle)
        sqlite3_reset(handle)
        released(handle)
        guard result == SQLITE_DONE else { throw error(result) }
    }

    /// Runs the statement bound with `bind` and reads its first row, if any, with `read`; then resets it.
    func firstRow<T>(_ read: (OpaquePointer) -> T) throws -> T? {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            released(handle)
        }
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
