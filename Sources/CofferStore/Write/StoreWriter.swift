import CofferModel
import Crypto
import Foundation
import GRDB

/// Dedupe keys the pipeline stores with a transaction: the institution's id, and a content fingerprint with
/// its occurrence number (the second identical coffee of a day is occurrence 2).
package struct DedupeKeys: Hashable, Sendable {
    package var externalID: String?
    package var fingerprint: String?
    package var occurrence: Int?

    package init(externalID: String? = nil, fingerprint: String? = nil, occurrence: Int? = nil) {
        self.externalID = externalID
        self.fingerprint = fingerprint
        self.occurrence = occurrence
    }
}

/// A stored transaction with its dedupe keys.
package struct StoredTransaction: Sendable {
    package var transaction: Transaction
    package var keys: DedupeKeys
    /// The source (id namespace) of the record whose values and content keys the row carries, if known.
    package var source: String?

    package init(transaction: Transaction, keys: DedupeKeys, source: String? = nil) {
        self.transaction = transaction
        self.keys = keys
        self.source = source
    }
}

/// How many changes a write made, by kind.
package struct ChangeCounts: Hashable, Sendable, Codable {
    package var inserted = 0
    package var updated = 0
    package var deleted = 0
    package init() {}
    package var total: Int { inserted + updated + deleted }
}

/// The write side of the store, valid inside one `FinanceStore.write` call: one SQLite transaction.
///
/// Every insert, update and delete appends its change-log row in the same transaction, so history never sees
/// a change without its data or data without its change.
package final class StoreWriter {
    /// The write transaction's connection. Code reads it as `db`, which first writes the inserts still held in
    /// `batch`: whatever a look-up or another write asks of the store sees them, in the order they were made.
    let connection: Database
    var db: Database {
        get throws {
            if !batch.rows.isEmpty { try flushInserts() }
            return connection
        }
    }
    /// Inserts held to be written many rows to a statement (`StoreWriter+InsertBatch`).
    var batch = InsertBatch()
    let store: FinanceStore
    let now: Int64
    /// The import ledger row the changes belong to, when the write is an import.
    package private(set) var importID: Int64?
    /// Transaction changes made so far.
    package internal(set) var transactionCounts = ChangeCounts()
    /// Account and balance changes made so far.
    package private(set) var otherCounts = ChangeCounts()

    init(db: Database, store: FinanceStore) {
        self.connection = db
        self.store = store
        self.now = Rows.millis(Date())
    }

    // MARK: Change log

    private var logStatement: BoundStatement?
    var insertStatement: BoundStatement?
    var externalIDStatement: BoundStatement?
    var updateStatement: BoundStatement?
    /// Set once an amount with more than six decimals was stored (see `noteInexactAmount`).
    var notedInexact = false
    /// The as-of time (ms) of the statement being imported, when it states one: stored with the values it gives
    /// (`values_as_of`), so that an older statement imported later does not overwrite them.
    package var statementAsOf: Int64?
    /// A time as the store keeps it (ms since 1970), as `statementAsOf` takes it.
    package static func millis(_ date: Date) -> Int64 { Rows.millis(date) }
    /// The source (id namespace: `ofx`, `camt`, `csv:<profile>`) of the records being imported: stored with the
    /// values they give (`source`), so that records without ids from two sources can be told apart.
    package var recordSource: String?
    /// Stored transactions this import listed unchanged (see `noteListed`), already in `Listing`'s 25-byte encoding.
    /// Appended, not keyed: a row listed twice is merged when read (`Listing.decode`), and an append costs a
    /// fraction of a hashed insert on the path of a re-import (~3% of its CPU). Encoded as they come, not kept as
    /// values and encoded at the end: a forced re-import of a million rows peaked 48 MB higher so. Kept a megabyte
    /// at a time, the rest in a temporary table (`ListingSpool`).
    private var listed = ListingSpool()

    /// Appends a change-log row. `day` is the record's day after the change (for a deletion, before it) and
    /// `priorDay`, for an update, its day before (see `Schema` v17): a transaction's local day, a balance's UTC
    /// day of its as-of time (`balanceDay`); accounts have none. History for a client tells by them whether the
    /// record entered or left the client's dates.
    @discardableResult
    func log(_ entity: EntityKind, _ op: ChangeOp, id: UUID, accountID: UUID, day: Int? = nil, priorDay: Int? = nil) throws -> Int64 {
        let db = try self.db
        if logStatement == nil {
            logStatement = try BoundStatement(db, sql: """
                INSERT INTO change_log(entity, op, entity_id, account_id, committed_at, import_id, day, prior_day) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        }
        let s = logStatement!
        try s.bind(1, Int64(entity.rawValue))
        try s.bind(2, Int64(op.rawValue))
        try s.bind(3, id)
        try s.bind(4, accountID)
        try s.bind(5, now)
        try s.bind(6, importID)
        try s.bind(7, day.map(Int64.init))
        try s.bind(8, priorDay.map(Int64.init))
        try s.step()
        return db.lastInsertedRowID
    }

    /// The day a balance counts for in a client's grant: the UTC day of its as-of time (the later side's), as
    /// stored in milliseconds.
    static func balanceDay(asOf millis: Int64) -> Int {
        Int(millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000)
    }

    /// A stored transaction's local day, read before the row changes.
    func storedLocalDay(ofTransaction id: UUID) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT local_day FROM txn WHERE id = ?"), arguments: [id])
    }

    // MARK: Accounts

    package func account(id: UUID) throws -> Account? {
        try AccountRecord.fetchOne(db, key: id)?.account()
    }

    /// Inserts a new account; `maskedNumber` (e.g. `••••1234`) is the only trace of the number kept in clear.
    package func insertAccount(_ account: Account, identityKey: String, maskedNumber: String?) throws {
        let seq = try log(.account, .insert, id: account.id, accountID: account.id)
        try AccountRecord(account, identityKey: identityKey, maskedNumber: maskedNumber, createdSeq: seq).insert(db)
        otherCounts.inserted += 1
    }

    /// Gives a stored account another identity key (the key scheme changed, or its source now says its real
    /// number), and the masked number shown for it when given; the account and its id stay.
    package func rekeyAccount(id: UUID, identityKey: String, maskedNumber: String?) throws {
        if let maskedNumber {
            try db.execute(sql: "UPDATE account SET identity_key = ?, masked_number = ? WHERE id = ?",
                           arguments: [identityKey, maskedNumber, id])
        } else {
            try db.execute(sql: "UPDATE account SET identity_key = ? WHERE id = ?", arguments: [identityKey, id])
        }
    }

    /// Replaces a stored account's values (same id); logs an update only when something changed.
    package func updateAccount(_ account: Account) throws {
        guard var record = try AccountRecord.fetchOne(db, key: account.id) else {
            throw CofferError(.usage, "no account \(account.id) to update")
        }
        guard try record.account() != account else { return }
        try log(.account, .update, id: account.id, accountID: account.id)
        record.set(account)
        try record.update(db, columns: AccountRecord.modelColumns)
        otherCounts.updated += 1
    }

    // MARK: Balances

    /// Inserts a balance unless one with the same dedupe key is stored for the account; true when inserted.
    @discardableResult
    package func insertBalance(_ balance: AccountBalance, dedupeKey: String) throws -> Bool {
        let same = BalanceRecord.filter(BalanceRecord.Columns.accountID == balance.accountID
                                        && BalanceRecord.Columns.dedupeKey == dedupeKey)
        if try same.isEmpty(db) == false { return false }
        var record = BalanceRecord(balance, dedupeKey: dedupeKey, createdSeq: 0)
        record.createdSeq = try log(.balance, .insert, id: balance.id, accountID: balance.accountID,
                                    day: Self.balanceDay(asOf: record.asOf))
        try record.insert(db)
        otherCounts.inserted += 1
        return true
    }

    // MARK: Import ledger

    /// Starts the ledger entry of an import; the changes that follow carry its id, and the rows they change are
    /// kept as they were (the undo journal, see `Schema` v7) until the import is undone or compacted away.
    package func beginImport(sha256: String, path: String, format: String, profile: String?, file: ImportedFile? = nil) throws {
        try beginLedgerEntry(kind: .import, sha256: sha256, path: path, format: format, profile: profile, file: file)
    }

    /// The file an import read, as the ledger keeps it (migration v24): its size, and a stamp of its stat data
    /// (device, inode, modification and change times, taken before it was read).
    package struct ImportedFile: Sendable, Equatable {
        package var size: Int64
        package var stamp: String
        package init(size: Int64, stamp: String) {
            self.size = size
            self.stamp = stamp
        }
    }

    /// Live imports (not undone) of the file at `path` with this size and stamp: the file they read, unchanged
    /// since (a file rewritten in place has a new change time even when its modification time was set back).
    package func imports(path: String, file: ImportedFile) throws -> [ImportRecord] {
        try LedgerRecord
            .filter(LedgerRecord.Columns.path == path && LedgerRecord.Columns.fileSize == file.size
                    && LedgerRecord.Columns.fileStamp == file.stamp
                    && LedgerRecord.Columns.kind == ImportRecord.Kind.import.rawValue && LedgerRecord.Columns.undoneBy == nil)
            .order(LedgerRecord.Columns.id.desc)
            .fetchAll(db).map { $0.importRecord(horizon: 0) }
    }

    /// Whether a live import may have read a file of `size` bytes: one recorded that size, or one from before sizes
    /// were recorded. When none may, the file is new and its digest is not needed before the import.
    package func mayHaveImported(size: Int64) throws -> Bool {
        try LedgerRecord
            .filter(LedgerRecord.Columns.kind == ImportRecord.Kind.import.rawValue && LedgerRecord.Columns.undoneBy == nil
                    && (LedgerRecord.Columns.fileSize == size || LedgerRecord.Columns.fileSize == nil))
            .isEmpty(db) == false
    }

    /// Starts a ledger entry of any kind; `import` and `link` entries are journaled (undoable), `undo` ones not.
    func beginLedgerEntry(kind: ImportRecord.Kind, sha256: String, path: String, format: String, profile: String?,
                          file: ImportedFile? = nil) throws {
        var entry = LedgerRecord(kind: kind, sha256: sha256, path: path, format: format, profile: profile, importedAt: now,
                                 firstSeq: try FinanceStore.lastSequence(db))
        entry.fileSize = file?.size
        entry.fileStamp = file?.stamp
        try entry.insert(db)
        importID = entry.id
        listed = ListingSpool()
        if kind != .undo {
            try db.execute(sql: "INSERT OR REPLACE INTO store_meta(key, value) VALUES ('journal_import', ?)", arguments: [importID])
        }
    }

    /// Notes that the import listed this stored transaction and found it unchanged, on `date` in `offset` (nil for
    /// a date-only value: its own date for the row), matched by its institution id or content in its own source
    /// (`sameSource`) or by content from another source. Undoing an earlier import that inserted the row keeps it,
    /// and dates it by the listings left (see `FinanceStore.undoImport`).
    package func noteListed(_ id: UUID, date: Date, offset: Int?, sameSource: Bool) throws {
        guard importID != nil else { return }
        try listed.append(Listing(date: Rows.millis(date), offset: offset, sameSource: sameSource), id: id, db: db)
    }

    /// Records the counts of the import begun with `beginImport`, and ends its journal; `sha256`, when given, is
    /// the file's digest where `beginImport` could not have it yet (computed beside a `--force` import).
    package func finishImport(unchanged: Int, warnings: [String] = [], sha256: String? = nil) throws {
        guard let importID else { return }
        if var entry = try LedgerRecord.fetchOne(db, key: importID) {
            if let sha256 { entry.sha256 = sha256 }
            entry.inserted = transactionCounts.inserted
            entry.updated = transactionCounts.updated
            entry.deleted = transactionCounts.deleted
            entry.unchanged = unchanged
            entry.warnings = warnings.count
            entry.warningText = warnings.isEmpty ? nil : warnings.prefix(20).joined(separator: "\n")
            try entry.update(db, columns: sha256 == nil ? LedgerRecord.resultColumns : LedgerRecord.resultAndDigestColumns)
        }
        try listed.write(importID: importID, db: db)
        try db.execute(sql: "DELETE FROM store_meta WHERE key = 'journal_import'")
    }

    /// Earlier live imports of a file with this SHA-256 (not undone), newest first.
    package func imports(sha256: String) throws -> [ImportRecord] {
        try LedgerRecord
            .filter(LedgerRecord.Columns.sha256 == sha256 && LedgerRecord.Columns.kind == ImportRecord.Kind.import.rawValue
                    && LedgerRecord.Columns.undoneBy == nil)
            .order(LedgerRecord.Columns.id.desc)
            .fetchAll(db).map { $0.importRecord(horizon: 0) }
    }

    /// A stable account identity for an institution and an account number: a keyed hash (the number itself is
    /// not stored) and the account's UUID derived from it.
    package func accountIdentity(institution: String, number: String) -> (key: String, id: UUID) {
        store.accountIdentity(institution: institution, number: number)
    }
}

/// One entry of the import ledger: an import of a statement file, the undo of one, or a link of two accounts.
public struct ImportRecord: Sendable, Codable {
    /// What an entry records: an import, the undo of one, or a link of two accounts.
    public enum Kind: String, Sendable, Codable {
        case `import`, undo, link
    }

    /// The entry's number, as `coffer imports` lists it.
    public var id: Int64
    /// What the entry records.
    public var kind: Kind
    /// The statement file's SHA-256 (empty for undo and link entries).
    public var sha256: String
    /// The file as it was named when imported.
    public var path: String
    /// What the file was read as (`ofx`, `camt.053.001.08`, `csv`).
    public var format: String
    /// The CSV profile it was read with.
    public var profile: String?
    /// Transactions inserted.
    public var inserted: Int
    /// Transactions updated.
    public var updated: Int
    /// Transactions deleted.
    public var deleted: Int
    /// Transactions already stored as they were.
    public var unchanged: Int
    /// When the entry was committed.
    public var importedAt: Date
    /// How many warnings the import gave, and the first 20 of them.
    public var warningCount: Int
    /// The first 20 warnings (see `warningCount`).
    public var warnings: [String]
    /// The undo entry that reverted this one.
    public var undoneBy: Int64?
    /// Whether `coffer imports undo` can revert it; when not, `status` says why.
    public var undoable: Bool
    /// `undone by N`, `not undoable: …`, or nil for an entry that can be undone.
    public var status: String?

    /// An entry as the ledger keeps it (`LedgerRecord`); `firstSeq` and the compaction `horizon` say whether it can
    /// be undone.
    init(id: Int64, kind: Kind, sha256: String, path: String, format: String, profile: String?, inserted: Int, updated: Int,
         deleted: Int, unchanged: Int, importedAt: Date, warningCount: Int, warnings: [String], undoneBy: Int64?,
         firstSeq: Int64?, horizon: Int64) {
        self.id = id
        self.kind = kind
        self.sha256 = sha256
        self.path = path
        self.format = format
        self.profile = profile
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.unchanged = unchanged
        self.importedAt = importedAt
        self.warningCount = warningCount
        self.warnings = warnings
        self.undoneBy = undoneBy
        if let undoneBy {
            undoable = false
            status = "undone by \(undoneBy)"
        } else if kind == .undo {
            undoable = false
            status = nil
        } else if firstSeq == nil {
            undoable = false
            status = "not undoable: imported before this version of Coffer kept undo records"
        } else if let firstSeq, firstSeq < horizon {
            undoable = false
            status = "not undoable: its changes are older than the compaction horizon"
        } else {
            undoable = true
            status = nil
        }
    }
}

extension FinanceStore {
    /// Runs `body` in one SQLite write transaction: everything it does commits together, or nothing does when it
    /// throws. With `dryRun`, the transaction is rolled back at the end and the result still returned.
    package func write<T>(dryRun: Bool = false, _ body: (StoreWriter) throws -> T) throws -> T {
        try requireOwner()
        guard access == .readWrite else {
            throw CofferError(.storeReadOnly, "\(path) was opened read-only")
        }
        do {
            return try pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    let writer = StoreWriter(db: db, store: self)
                    result = try body(writer)
                    try writer.flushInserts()
                    return dryRun ? .rollback : .commit
                }
                if !dryRun { Self.emptyLogIfLarge(db, path: path) }
                return result!
            }
        } catch let error as DatabaseError {
            throw StoreFile.describe(error, path: path)
        }
    }

    /// The keyed account identity (see `StoreWriter.accountIdentity`).
    func accountIdentity(institution: String, number: String) -> (key: String, id: UUID) {
        let normalized = institution.lowercased().filter { !$0.isWhitespace } + "|" + number.uppercased().filter { $0.isLetter || $0.isNumber }
        let mac = HMAC<SHA256>.authenticationCode(for: Array(("account-identity:" + normalized).utf8), using: tokenKey)
        var bytes = Array(mac)
        let key = bytes.lowercaseHex
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom, derived
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let id = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                             bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return (key, id)
    }
}
