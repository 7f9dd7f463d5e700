import CofferModel
import Foundation
import GRDB

/// Checks on the store's file before SQLite touches it, so that a folder, a foreign file, a newer store or a
/// read-only file gives a clear one-line error and is never modified.
enum StoreFile {
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// The size of the file at `path` in bytes (`stat`); nil when there is none. Not `FileManager.attributesOfItem`,
    /// which also looks up the owner's and group's names: on Linux that reads `/etc/nsswitch.conf`, `/etc/passwd` and
    /// `/etc/group` each time, about a third of a millisecond of every command that opens a store.
    static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// For `.readOnly`, the checks run on a reader connection (no GRDB connection setup), which is returned for
    /// the store's `ReaderPool` to keep: a one-shot `coffer transactions` opened four connections before.
    @discardableResult
    static func check(path: String, access: FinanceStore.Access) throws -> ReaderConnection? {
        SQLiteProcess.configure()
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if access == .readOnly {
                throw CofferError(.notAStore, "no Coffer store at \(path); import statements first (coffer import FILE) or name one with --store")
            }
            return nil
        }
        if isDirectory.boolValue {
            throw CofferError(.notAStore, "\(path) is a folder; the store is a file (for example \(path)/coffer.sqlite)")
        }
        guard fm.isReadableFile(atPath: path) else {
            throw CofferError(.notAStore, "\(path) cannot be read (permissions)")
        }
        // Whether the file is empty (a new store), from its size: SQLite itself then refuses a file that is not a
        // database (SQLITE_NOTADB, before writing anything) on the read-only connection below. Reading the header
        // here through a descriptor of our own would, on closing it, drop every POSIX lock this process holds on
        // the file (SQLite's, for a store already open in the process), and other processes would then take the
        // store for unused and delete its write-ahead log.
        let isEmpty = (size(of: path) ?? 0) == 0
        if access == .readWrite, !fm.isWritableFile(atPath: path) {
            throw CofferError(.storeReadOnly, "\(path) is read-only; Coffer needs to write to it (check its permissions)")
        }
        if access == .readOnly {
            let connection: ReaderConnection
            do {
                connection = try ReaderConnection(path: path)
            } catch {
                throw describe(error, path: path)
            }
            let tables: [String]
            let applied: [String]
            do {
                tables = try connection.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                applied = tables.contains("grdb_migrations") ? try connection.strings("SELECT identifier FROM grdb_migrations") : []
            } catch {
                throw describe(error, path: path)
            }
            // An empty file (made by `touch`, or by an import that has not written its first page) or a database
            // without tables is no store yet: reading it must not make one, as a read-only command never writes.
            if tables.isEmpty {
                throw CofferError(.notAStore, "\(path) is \(isEmpty ? "empty" : "a SQLite database without tables"), not a Coffer store yet; import statements into it first (coffer import --store \(path) FILE)")
            }
            if let problem = verdict(path: path, tables: tables, applied: applied) { throw problem }
            return connection
        }
        if isEmpty { return nil }
        // A SQLite file: make sure it is Coffer's, and not from a newer Coffer, before opening it in WAL mode.
        var config = Configuration()
        config.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
        } catch {
            throw describe(error, path: path)
        }
        let problem: CofferError? = try? queue.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            let applied = tables.contains("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
            return verdict(path: path, tables: tables, applied: applied)
        }
        try? queue.close()
        if let problem { throw problem }
        return nil
    }

    /// Why a SQLite file with these tables and applied migrations is not a store this Coffer may open, if it is not.
    static func verdict(path: String, tables: [String], applied: [String]) -> CofferError? {
        if tables.isEmpty { return nil }
        guard tables.contains("store_meta"), tables.contains("grdb_migrations") else {
            return CofferError(.notAStore, "\(path) is a SQLite database of another program (tables: \(tables.prefix(5).joined(separator: ", "))), not a Coffer store")
        }
        let unknown = Set(applied).subtracting(Schema.migrator.migrations).sorted()
        if !unknown.isEmpty {
            return CofferError(.storeTooNew, "\(path) was written by a newer Coffer (schema \(unknown.joined(separator: ", "))); this coffer knows up to \(Schema.currentVersion). Upgrade coffer")
        }
        return nil
    }

    /// Creates the folder (0700) and an empty file (0600): financial data is private by default.
    static func create(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw CofferError(.io, "cannot create the folder \(folder) for the store: \(error.localizedDescription)")
            }
        }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return }
            throw CofferError(.io, "cannot create the store file \(path): \(String(cString: strerror(errno)))")
        }
        close(fd)
    }

    /// A new store's page size, in bytes. SQLite's default is 4 KiB; with 16 KiB an import writes a quarter of the log
    /// frames, each with its system calls, and re-reads a quarter at its commit (docs/benchmarks.md, "16 KiB pages and
    /// no statement journal"). Stores made before keep their 4 KiB: the size is fixed once the file has a page, and
    /// changing it is a rewrite of the whole file.
    static let pageSize = 16_384

    /// Gives a still empty store file its first page, in `pageSize`. The size must be set before anything else writes
    /// the file (GRDB's switch to WAL mode does), so under the opening lock: a second process opening the same new
    /// store waits, then finds the file written.
    static func setPageSizeIfEmpty(path: String) throws {
        guard size(of: path) == 0 else { return }
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA page_size = \(pageSize); VACUUM")
            }
            try queue.close()
        } catch {
            throw CofferError(.storeIO, "cannot write the new store file \(path): \(error)")
        }
    }

    /// An exclusive flock on the store file (nil when it cannot be opened; the checks that follow then report).
    static func lockExclusively(path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR {
                close(fd)
                return nil
            }
        }
        return fd
    }

    /// Releases the flock but keeps the descriptor open (see `FinanceStore.openingLock`).
    static func release(_ fd: Int32?) {
        guard let fd else { return }
        flock(fd, LOCK_UN)
    }

    static func unlock(_ fd: Int32?) {
        guard let fd else { return }
        flock(fd, LOCK_UN)
        close(fd)
    }

    static func describe(_ error: any Error, path: String) -> CofferError {
        if let error = error as? CofferError { return error }
        if let db = error as? DatabaseError {
            switch db.resultCode {
            // The one place SQLite's result codes become Coffer's (the cause is kept): BUSY/LOCKED are transient,
            // FULL/IOERR/CANTOPEN are the store's trouble, anything else a bug.
            case .SQLITE_NOTADB: return CofferError(.notAStore, "\(path) is not a SQLite database, so not a Coffer store", underlying: db)
            case .SQLITE_READONLY: return CofferError(.storeReadOnly, "\(path) is read-only; Coffer needs to write to it", underlying: db)
            case .SQLITE_CANTOPEN: return CofferError(.storeIO, "\(path) cannot be opened (a missing folder or permissions?)", underlying: db)
            case .SQLITE_CORRUPT: return CofferError(.notAStore, "\(path) is damaged (SQLite reports corruption)", underlying: db)
            case .SQLITE_BUSY, .SQLITE_LOCKED: return CofferError(.storeBusy, "\(path) is locked by another process; try again", underlying: db)
            case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_PERM, .SQLITE_NOMEM, .SQLITE_NOLFS, .SQLITE_PROTOCOL:
                return CofferError(.storeIO, "\(path): \(db.message ?? "\(db.resultCode)")", underlying: db)
            default: return CofferError(.internal, "\(path): \(db.message ?? "\(db.resultCode)")", underlying: db)
            }
        }
        return CofferError(.storeIO, "\(path): \(error.localizedDescription)", underlying: error)
    }
}
