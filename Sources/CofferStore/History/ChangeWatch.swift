import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// How a monitoring history sequence learns that the store changed: SQLite's `PRAGMA data_version` on a
/// connection of its own, which changes when any other connection, in any process, commits.
///
/// `mark` (on a read thread, before the sequence reads the change log) takes the version; `changed` (after each
/// poll interval) compares. Reading it costs a few microseconds and no page: SQLite compares the write-ahead
/// log's index header, in shared memory. The connection waits for no lock (busy timeout 0): when the store is
/// busy `changed` says yes and the read that follows waits as every read does.
final class ChangeWatch: Sendable {
    private struct State: @unchecked Sendable {  // the connection is used by one thread at a time, under the mutex
        var connection: ReaderConnection?
        var version: Int64?
    }
    private let state = Mutex(State())

    /// Takes the store's data version as of now, opening the connection on first use.
    func mark(_ store: FinanceStore) throws {
        try state.withLock { state in
            if state.connection == nil {
                let connection = try ReaderConnection(path: store.path)
                sqlite3_busy_timeout(connection.handle, 0)
                state.connection = connection
            }
            state.version = try Self.dataVersion(state.connection!)
        }
    }

    /// Whether the store may have changed since `mark`: true when its data version differs or could not be read,
    /// and once the store is closed (the read that follows then throws, ending the sequence).
    func changed(_ store: FinanceStore) -> Bool {
        if store.readers.isClosed { return true }
        return state.withLock { state in
            guard let connection = state.connection, let version = state.version else { return true }
            guard let now = try? Self.dataVersion(connection) else { return true }
            return now != version
        }
    }

    private static func dataVersion(_ connection: ReaderConnection) throws -> Int64 {
        let statement = try connection.statement("PRAGMA data_version")
        defer { connection.finishStatements() }
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }
}
