import Coffer
import Foundation
import GRDBSQLite

/// The SQL a library query becomes, run by hand on the same store through SQLite's C API: every column of every row
/// read (`sqlite3_column_*`) and nothing made of them. It is the floor of that query on that store,
/// measured interleaved with the library's own run of it, so that both see the same machine at the same moment.
///
/// The floor program's query (`scripts/bench/sqlite_floor.c`) runs minutes apart from the library's on its own
/// store; on this shared machine the same C query took 556 µs in one run and 1,011–1,061 µs ten minutes later, so a
/// ratio between figures taken at different moments says more about the machine than about Coffer.
final class ByHandQuery {
    private var db: OpaquePointer?
    private var statement: OpaquePointer?
    private(set) var columns: Int32 = 0

    /// Opens `path` read-only with the pragmas Coffer's readers use (`ReaderPool`: a memory map and a 16 MB cache)
    /// and prepares `explanation`'s SQL with its arguments bound. `blob` stands for the explanation's `Data(16
    /// bytes)` argument (an account id); numbers bind as integers or doubles as written, anything else as text.
    init(path: String, explanation: QueryExplanation, blob: Data) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw failure("open") }
        guard sqlite3_exec(db, "PRAGMA mmap_size = 268435456; PRAGMA cache_size = -16000", nil, nil, nil) == SQLITE_OK,
              sqlite3_prepare_v2(db, explanation.sql, -1, &statement, nil) == SQLITE_OK else { throw failure("prepare") }
        columns = sqlite3_column_count(statement)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, argument) in explanation.arguments.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            if let value = Int64(argument) {
                result = sqlite3_bind_int64(statement, index, value)
            } else if let value = Double(argument) {
                result = sqlite3_bind_double(statement, index, value)
            } else if argument.hasPrefix("Data(") {
                result = blob.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
            } else {
                result = sqlite3_bind_text(statement, index, argument, -1, transient)
            }
            guard result == SQLITE_OK else { throw failure("bind argument \(index) (\(argument))") }
        }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(db)
    }

    /// Runs the query once; returns the rows read. Each value is read as `sqlite3_floor.c` reads it, its length (and
    /// here its first byte, or its integer), so that no read can be skipped; its bytes are not copied.
    func run(checksum: inout UInt64) throws -> Int {
        defer { sqlite3_reset(statement) }
        var rows = 0
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else { throw failure("step") }
            rows += 1
            for column in 0..<columns {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: checksum &+= UInt64(bitPattern: sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: checksum &+= sqlite3_column_double(statement, column).bitPattern
                case SQLITE_TEXT:
                    if let text = sqlite3_column_text(statement, column) { checksum &+= UInt64(text[0]) }
                    checksum &+= UInt64(sqlite3_column_bytes(statement, column))
                case SQLITE_BLOB:
                    if let bytes = sqlite3_column_blob(statement, column)?.assumingMemoryBound(to: UInt8.self) {
                        checksum &+= UInt64(bytes[0])
                    }
                    checksum &+= UInt64(sqlite3_column_bytes(statement, column))
                default: break
                }
            }
        }
    }

    private func failure(_ what: String) -> CofferError {
        CofferError(.internal, "by-hand query: \(what) failed: " + (db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "no database"))
    }
}
