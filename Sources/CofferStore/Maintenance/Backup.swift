import CofferModel
import Foundation
import GRDB

/// What `FinanceStore.backup(to:replacing:)` made.
public struct BackupResult: Sendable, Codable {
    /// The copy's path.
    public let path: String
    /// The copy's own store id: history tokens of the original are refused by the copy.
    public let storeID: UUID
    /// The store it was copied from.
    public let sourceStoreID: UUID
    /// Accounts in the copy.
    public let accounts: Int
    /// Balances in the copy.
    public let balances: Int
    /// Transactions in the copy.
    public let transactions: Int
    /// The newest change-log sequence number in the copy.
    public let lastSequence: Int64
    /// The copy's size in bytes.
    public let bytes: Int64
}

extension FinanceStore {
    /// Copies the store into a new file at `destination`, consistently while other processes import and monitor:
    /// SQLite's online backup API reads one snapshot of the store (one read transaction), so the copy holds
    /// the store exactly as it was before or after any concurrent import, never part of one. A Coffer addition.
    ///
    /// The copy is a single file (no `-wal`), readable and writable by its owner only (0600), checked with
    /// SQLite's `quick_check`, and appears at `destination` whole or not at all (it is written beside it under a
    /// hidden name, then renamed). It gets a **new store id** — a new token epoch: history tokens issued by this
    /// store throw `FinanceError.historyTokenInvalid` when used on the copy, so that a restored backup never lets a
    /// saved token silently skip changes (the client restarts from `nil`). The key that derives account ids from
    /// account numbers is kept, so statements imported into the copy land on the same accounts.
    ///
    /// Throws `CofferError` `.usage` when `destination` exists and `replacing` is false, is a folder, or is this
    /// store's own file; `.io` when the folder is missing or not writable.
    @discardableResult
    public func backup(to destination: String, replacing: Bool = false) throws -> BackupResult {
        try requireOwner()
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        let exists = fm.fileExists(atPath: destination, isDirectory: &isFolder)
        if exists, isFolder.boolValue {
            throw CofferError(.usage, "\(destination) is a folder; name the backup file (for example \(destination)/coffer-backup.sqlite)")
        }
        if Self.sameFile(destination, path) {
            throw CofferError(.usage, "\(destination) is the store itself; back it up to another file")
        }
        if exists, !replacing {
            throw CofferError(.usage, "\(destination) exists; use --force to replace it")
        }
        if !exists, !replacing, fm.fileExists(atPath: destination + "-wal") {
            throw CofferError(.usage, "\(destination)-wal exists (left from an earlier database there); use --force to replace both")
        }
        let folder = (destination as NSString).deletingLastPathComponent.isEmpty
            ? "." : (destination as NSString).deletingLastPathComponent
        guard fm.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CofferError(.io, "cannot write the backup: the folder \(folder) does not exist")
        }
        let temporary = folder + "/." + (destination as NSString).lastPathComponent + ".coffer-backup-" + UUID().uuidString
        let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CofferError(.io, "cannot write the backup in \(folder): \(String(cString: strerror(errno)))")
        }
        posixClose(fd)
        var keep = false
        defer {
            if !keep { for suffix in ["", "-wal", "-shm", "-journal"] { try? fm.removeItem(atPath: temporary + suffix) } }
        }

        let newID = UUID()
        let counts: (accounts: Int, balances: Int, transactions: Int, last: Int64)
        do {
            let copy = try DatabaseQueue(path: temporary)
            // One read transaction on this store: a consistent snapshot, whatever other processes commit meanwhile.
            try pool.backup(to: copy)
            counts = try copy.write { db in
                try db.execute(sql: "UPDATE store_meta SET value = ? WHERE key = 'store_id'", arguments: [newID])
                guard db.changesCount == 1 else {
                    throw CofferError(.notAStore, "\(path): the store's identity is missing; it is damaged (see coffer doctor)")
                }
                func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
                return (try count("account"), try count("balance"), try count("txn"), try Self.lastSequence(db))
            }
            let check = try copy.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                throw CofferError(.io, "the backup failed SQLite's quick_check: \(check.prefix(3).joined(separator: "; "))")
            }
            // A single file: no log beside it (the copy keeps the store's WAL mode for when it is opened).
            try copy.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try copy.close()
        } catch let error as CofferError {
            throw error
        } catch {
            throw StoreFile.describe(error, path: destination)
        }
        for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: temporary + suffix) }
        Self.sync(path: temporary)

        if replacing {
            // A log left beside an older file there must not be replayed onto the copy.
            for suffix in ["-wal", "-shm", "-journal"] { try? fm.removeItem(atPath: destination + suffix) }
            guard rename(temporary, destination) == 0 else {
                throw CofferError(.io, "cannot write the backup \(destination): \(String(cString: strerror(errno)))")
            }
        } else {
            // link() never replaces: a file that appeared at the destination meanwhile is not overwritten.
            guard link(temporary, destination) == 0 else {
                if errno == EEXIST { throw CofferError(.usage, "\(destination) exists; use --force to replace it") }
                throw CofferError(.io, "cannot write the backup \(destination): \(String(cString: strerror(errno)))")
            }
            unlink(temporary)
        }
        keep = true
        Self.sync(path: folder)
        let bytes = StoreFile.size(of: destination) ?? 0
        return BackupResult(path: destination, storeID: newID, sourceStoreID: storeID, accounts: counts.accounts,
                            balances: counts.balances, transactions: counts.transactions, lastSequence: counts.last, bytes: bytes)
    }

    /// Whether two paths name one file (same device and inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// fsync of a file or folder, so a backup survives a power cut once it is reported.
    static func sync(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        posixClose(fd)
    }
}

/// `close(2)`, which a method named `close` in scope would otherwise shadow.
@inline(__always)
func posixClose(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #elseif canImport(Musl)
    _ = Musl.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
