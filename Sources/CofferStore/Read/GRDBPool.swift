import GRDB
import GRDBSQLite
import Synchronization

/// GRDB's `DatabasePool` of a store, opened when first used.
///
/// A store opened for writing opens it at once (migrations run on it). A read-only store's queries, history and
/// account look-ups read through `ReaderPool`; only rarer reads (orders' bodies, delivery hooks, the ledger) need
/// GRDB. Opening the pool opens GRDB's writer connection and sets it up (its functions, collations and schema
/// checks), so a one-shot read-only command (`coffer transactions`) would pay for a connection it never uses:
/// about a millisecond and a thread (docs/benchmarks.md, "Issue 16: the one-shot CLI query").
final class GRDBPool: @unchecked Sendable {
    private enum State {
        case unopened
        case open(DatabasePool)
        case closed
    }

    let path: String
    /// `@unchecked Sendable`: the configuration is only read, under `state`'s lock, to open the pool.
    private let configuration: Configuration
    private let state = Mutex<State>(.unopened)

    init(path: String, configuration: Configuration) {
        self.path = path
        self.configuration = configuration
    }

    /// The pool, opened now if it was not. Throws once `closing()` ran, and what opening throws (described by
    /// `StoreFile.describe`).
    var pool: DatabasePool {
        get throws {
            try state.withLock { state in
                switch state {
                case .open(let pool):
                    return pool
                case .closed:
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store at \(path) was closed")
                case .unopened:
                    do {
                        let pool = try DatabasePool(path: path, configuration: configuration)
                        state = .open(pool)
                        return pool
                    } catch {
                        throw StoreFile.describe(error, path: path)
                    }
                }
            }
        }
    }

    /// Marks the pool closed and returns it when it was opened, for the caller to close (`FinanceStore.close`).
    func closing() -> DatabasePool? {
        state.withLock { state in
            defer { state = .closed }
            if case .open(let pool) = state { return pool }
            return nil
        }
    }
}
