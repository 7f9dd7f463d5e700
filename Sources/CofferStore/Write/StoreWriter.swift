import CofferModel
import Crypto
import Foundation
import GRDB

/// Dedupe keys the pipeline stores with a transaction: the institution's id, and a content fingerprint with
/// its occurrence number (the second identical coffee of a day is occurrence 2).
public struct DedupeKeys: Hashable, Sendable {
    public var externalID: String?
    public var fingerprint: String?
    public var occurrence: Int?

    public init(externalID: String? = nil, fingerprint: String? = nil, occurrence: Int? = nil) {
        self.externalID = externalID
        self.fingerprint = fingerprint
        self.occurrence = occurrence
    }
}

/// A stored transaction with its dedupe keys.
public struct StoredTransaction: Sendable {
    public var transaction: Transaction
    public var keys: DedupeKeys

    public init(transaction: Transaction, keys: DedupeKeys) {
        self.transaction = transaction
        self.keys = keys
    }
}

/// How many changes a write made, by kind.
public struct ChangeCounts: Hashable, Sendable, Codable {
    public var inserted = 0
    public var updated = 0
    public var deleted = 0
    public init() {}
    public var total: Int { inserted + updated + deleted }
}

/// The write side of the store, valid inside one `FinanceStore.write` call: one SQLite transaction.
///
/// Every insert, update and delete appends its change-log row in the same transaction, so history never sees
/// a change without its data or data without its change.
public final class StoreWriter {
    let db: Database
    let store: FinanceStore
    let now: Int64
    /// The import ledger row the changes belong to, when the write is an import.
    public private(set) var importID: Int64?
    /// Transaction changes made so far.
    public private(set) var transactionCounts = ChangeCounts()
    /// Account and balance changes made so far.
    public private(set) var otherCounts = ChangeCounts()

    init(db: Database, store: FinanceStore) {
        self.db = db
        self.store = store
        self.now = Rows.millis(Date())
    }

    // MARK: Change log

    private var logStatement: BoundStatement?
    private var insertStatement: BoundStatement?

    @discardableResult
    func log(_ entity: EntityKind, _ op: ChangeOp, id: UUID, accountID: UUID) throws -> Int64 {
        if logStatement == nil {
            logStatement = try BoundStatement(db, sql: """
                INSERT INTO change_log(entity, op, entity_id, account_id, committed_at, import_id) VALUES (?, ?, ?, ?, ?, ?)
                """)
        }
        try logStatement!.execute([Int64(entity.rawValue).databaseValue, Int64(op.rawValue).databaseValue, id.databaseValue,
                                   accountID.databaseValue, now.databaseValue, importID?.databaseValue ?? .null])
        return db.lastInsertedRowID
    }

    // MARK: Accounts

    /// The stored account with this identity key.
    public func account(identityKey: String) throws -> Account? {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Rows.accountColumns) FROM account WHERE identity_key = ?"),
                                   arguments: [identityKey])
        return try row.map(Rows.account)
    }

    public func account(id: UUID) throws -> Account? {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Rows.accountColumns) FROM account WHERE id = ?"), arguments: [id])
        return try row.map(Rows.account)
    }

    /// Inserts a new account; `maskedNumber` (e.g. `••••1234`) is the only trace of the number kept in clear.
    public func insertAccount(_ account: Account, identityKey: String, maskedNumber: String?) throws {
        let seq = try log(.account, .insert, id: account.id, accountID: account.id)
        try db.cachedStatement(sql: """
            INSERT INTO account(\(Rows.accountColumns), identity_key, masked_number, created_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: StatementArguments(Rows.accountArguments(account) + [identityKey.databaseValue, Rows.dv(maskedNumber), seq.databaseValue]))
        otherCounts.inserted += 1
    }

    /// Replaces a stored account's values (same id); logs an update only when something changed.
    public func updateAccount(_ account: Account) throws {
        guard let old = try self.account(id: account.id) else {
            throw CofferError(.usage, "no account \(account.id) to update")
        }
        guard old != account else { return }
        try log(.account, .update, id: account.id, accountID: account.id)
        var args = Rows.accountArguments(account)
        let id = args.removeFirst()
        try db.cachedStatement(sql: """
            UPDATE account SET kind = ?, display_name = ?, account_description = ?, institution_name = ?, currency_code = ?,
            opening_date = ?, credit_limit = ?, minimum_next_payment = ?, next_payment_due_date = ?, overdue_payment = ?
            WHERE id = ?
            """).execute(arguments: StatementArguments(args + [id]))
        otherCounts.updated += 1
    }

    // MARK: Balances

    /// Inserts a balance unless one with the same dedupe key is stored for the account; true when inserted.
    @discardableResult
    public func insertBalance(_ balance: AccountBalance, dedupeKey: String) throws -> Bool {
        let exists = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM balance WHERE account_id = ? AND dedupe_key = ?"),
                                       arguments: [balance.accountID, dedupeKey]) ?? false
        if exists { return false }
        let seq = try log(.balance, .insert, id: balance.id, accountID: balance.accountID)
        let a = balance.available
        let b = balance.booked
        let asOf = max(a?.asOfDate ?? .distantPast, b?.asOfDate ?? .distantPast)
        let values: [DatabaseValue] = [
            balance.id.databaseValue, balance.accountID.databaseValue, balance.currencyCode.databaseValue,
            Rows.dv(a.map { ExactDecimal.text($0.amount.amount) }), Rows.dv(a.map { Rows.scaled($0.amount.amount) }),
            Rows.dv(a?.creditDebitIndicator.rawValue), Rows.dv(a.map { Rows.millis($0.asOfDate) }),
            Rows.dv(b.map { ExactDecimal.text($0.amount.amount) }), Rows.dv(b.map { Rows.scaled($0.amount.amount) }),
            Rows.dv(b?.creditDebitIndicator.rawValue), Rows.dv(b.map { Rows.millis($0.asOfDate) }),
            Rows.millis(asOf).databaseValue, dedupeKey.databaseValue, seq.databaseValue,
        ]
        try db.cachedStatement(sql: """
            INSERT INTO balance(id, account_id, currency_code, available_amount, available_scaled, available_indicator,
            available_as_of, booked_amount, booked_scaled, booked_indicator, booked_as_of, as_of, dedupe_key, created_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: StatementArguments(values))
        otherCounts.inserted += 1
        return true
    }

    // MARK: Transactions

    private static let storedColumns = Rows.transactionColumns + ", external_id, fingerprint, occurrence"

    private func stored(_ row: Row) throws -> StoredTransaction {
        StoredTransaction(transaction: try Rows.transaction(row),
                          keys: DedupeKeys(externalID: row[16], fingerprint: row[17], occurrence: row[18]))
    }

    public func transaction(id: UUID) throws -> StoredTransaction? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.storedColumns) FROM txn WHERE id = ?"), arguments: [id]).map(stored)
    }

    /// The transaction the institution knows by `externalID` in this account.
    public func transaction(accountID: UUID, externalID: String) throws -> StoredTransaction? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.storedColumns) FROM txn WHERE account_id = ? AND external_id = ?"),
                         arguments: [accountID, externalID]).map(stored)
    }

    /// The transaction with this content fingerprint and occurrence number in this account.
    public func transaction(accountID: UUID, fingerprint: String, occurrence: Int) throws -> StoredTransaction? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.storedColumns) FROM txn WHERE account_id = ? AND fingerprint = ? AND occurrence = ?"),
                         arguments: [accountID, fingerprint, occurrence]).map(stored)
    }

    /// Pending and authorized transactions of an account dated in `range` (inclusive), oldest first.
    public func openTransactions(accountID: UUID, from start: Date, through end: Date) throws -> [StoredTransaction] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(Self.storedColumns) FROM txn
            WHERE account_id = ? AND status IN (0, 3) AND transaction_date BETWEEN ? AND ? ORDER BY transaction_date, id
            """), arguments: [accountID, Rows.millis(start), Rows.millis(end)]).map(stored)
    }

    /// Whether a transaction with this institution id was deleted from the account before.
    public func isDeleted(accountID: UUID, externalID: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM tombstone WHERE account_id = ? AND external_id = ? LIMIT 1"),
                          arguments: [accountID, externalID]) ?? false
    }

    /// Whether a transaction with this fingerprint and occurrence was deleted from the account before.
    public func isDeleted(accountID: UUID, fingerprint: String, occurrence: Int) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM tombstone WHERE account_id = ? AND fingerprint = ? AND occurrence = ? LIMIT 1"),
                          arguments: [accountID, fingerprint, occurrence]) ?? false
    }

    public func insert(_ transaction: Transaction, keys: DedupeKeys) throws {
        try noteInexactAmount(transaction.transactionAmount.amount)
        let seq = try log(.transaction, .insert, id: transaction.id, accountID: transaction.accountID)
        var args = Rows.transactionArguments(transaction)
        args.append(Rows.scaled(transaction.transactionAmount.amount).databaseValue)
        args.append(contentsOf: [Rows.dv(keys.externalID), Rows.dv(keys.fingerprint), Rows.dv(keys.occurrence), seq.databaseValue])
        if insertStatement == nil {
            insertStatement = try BoundStatement(db, sql: """
                INSERT INTO txn(\(Rows.transactionColumns), amount_scaled, external_id, fingerprint, occurrence, created_seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        }
        try insertStatement!.execute(args)
        transactionCounts.inserted += 1
    }

    /// Replaces a stored transaction's values and keys (same id). Logs an update.
    public func update(_ transaction: Transaction, keys: DedupeKeys) throws {
        try noteInexactAmount(transaction.transactionAmount.amount)
        try log(.transaction, .update, id: transaction.id, accountID: transaction.accountID)
        var args = Rows.transactionArguments(transaction)
        let id = args.removeFirst()
        args.append(Rows.scaled(transaction.transactionAmount.amount).databaseValue)
        args.append(contentsOf: [Rows.dv(keys.externalID), Rows.dv(keys.fingerprint), Rows.dv(keys.occurrence), id])
        try db.cachedStatement(sql: """
            UPDATE txn SET account_id = ?, amount = ?, currency_code = ?, foreign_amount = ?, foreign_currency_code = ?,
            exchange_rate = ?, indicator = ?, description = ?, original_description = ?, mcc = ?, merchant_name = ?,
            type = ?, status = ?, transaction_date = ?, posted_date = ?, amount_scaled = ?, external_id = ?,
            fingerprint = ?, occurrence = ? WHERE id = ?
            """).execute(arguments: StatementArguments(args))
        transactionCounts.updated += 1
    }

    /// Deletes a transaction, leaving a tombstone with its keys so that a re-import does not bring it back.
    public func delete(_ stored: StoredTransaction) throws {
        let t = stored.transaction
        let seq = try log(.transaction, .delete, id: t.id, accountID: t.accountID)
        try db.cachedStatement(sql: "DELETE FROM txn WHERE id = ?").execute(arguments: [t.id])
        try db.cachedStatement(sql: """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq)
            VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [t.id, t.accountID, stored.keys.externalID, stored.keys.fingerprint, stored.keys.occurrence, seq])
        transactionCounts.deleted += 1
    }

    /// Transactions of an account on one calendar day with this exact amount and direction, for matching a
    /// record from another source (which words the same transaction differently).
    public func transactions(accountID: UUID, on day: Date, amount: Decimal, indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
        let start = Rows.millis(day)
        return try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(Self.storedColumns) FROM txn
            WHERE account_id = ? AND transaction_date >= ? AND transaction_date < ? AND amount_scaled = ? AND indicator = ?
            ORDER BY id
            """), arguments: [accountID, start, start + 86_400_000, Rows.scaled(amount), indicator.rawValue]).map(stored)
    }

    /// Replaces a transaction's dedupe keys without changing its data (no history change): a record from a
    /// higher-fidelity source lends its institution id.
    public func setKeys(_ keys: DedupeKeys, forTransaction id: UUID) throws {
        try db.cachedStatement(sql: "UPDATE txn SET external_id = ?, fingerprint = ?, occurrence = ? WHERE id = ?")
            .execute(arguments: [keys.externalID, keys.fingerprint, keys.occurrence, id])
    }

    /// Remembers keys a transaction no longer carries (a pending record's, once it is booked), so a re-import of
    /// the old record is recognised instead of inserted again. No history change.
    public func retireKeys(_ keys: DedupeKeys, ofTransaction id: UUID, accountID: UUID) throws {
        guard keys.externalID != nil || keys.fingerprint != nil else { return }
        let seq = try FinanceStore.lastSequence(db)
        try db.cachedStatement(sql: """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq)
            VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [id, accountID, keys.externalID, keys.fingerprint, keys.occurrence, seq])
    }

    /// What an account already holds, asked once per statement so that imports can skip look-ups that cannot
    /// match (a new account has nothing to dedupe against; an account fed by one kind of source needs no
    /// cross-source matching; one without pending transactions needs no pending→booked search).
    public struct AccountFacts: Sendable {
        public var hasTransactions: Bool
        public var hasExternalIDs: Bool
        public var hasRecordsWithoutExternalID: Bool
        public var hasOpenTransactions: Bool

        public init(hasTransactions: Bool, hasExternalIDs: Bool, hasRecordsWithoutExternalID: Bool, hasOpenTransactions: Bool) {
            self.hasTransactions = hasTransactions
            self.hasExternalIDs = hasExternalIDs
            self.hasRecordsWithoutExternalID = hasRecordsWithoutExternalID
            self.hasOpenTransactions = hasOpenTransactions
        }
    }

    public func facts(accountID: UUID) throws -> AccountFacts {
        func exists(_ condition: String) throws -> Bool {
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM txn WHERE account_id = ? AND \(condition))", arguments: [accountID]) ?? false
        }
        return AccountFacts(hasTransactions: try exists("1"), hasExternalIDs: try exists("external_id IS NOT NULL"),
                            hasRecordsWithoutExternalID: try exists("external_id IS NULL"),
                            hasOpenTransactions: try exists("status IN (0, 3)"))
    }

    /// Whether any key was ever retired or deleted in this store (lets imports skip tombstone look-ups).
    public func hasTombstones() throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tombstone)") ?? false
    }

    /// An amount with more than six decimals is stored truncated in `amount_scaled`; from then on, SQL
    /// comparisons on amounts only pre-filter and Swift decides (see `PredicateSQL`).
    private var notedInexact = false
    private func noteInexactAmount(_ amount: Decimal) throws {
        guard !notedInexact, ExactDecimal.scaled(amount) == nil else { return }
        try db.execute(sql: "INSERT OR REPLACE INTO store_meta(key, value) VALUES ('inexact_amounts', 1)")
        notedInexact = true
    }

    // MARK: Import ledger

    /// Starts the ledger entry of an import; the changes that follow carry its id.
    public func beginImport(sha256: String, path: String, format: String, profile: String?) throws {
        try db.execute(sql: "INSERT INTO import_ledger(sha256, path, format, profile, imported_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [sha256, path, format, profile, now])
        importID = db.lastInsertedRowID
    }

    /// Records the counts of the import begun with `beginImport`.
    public func finishImport(unchanged: Int) throws {
        guard let importID else { return }
        try db.execute(sql: "UPDATE import_ledger SET inserted = ?, updated = ?, deleted = ?, unchanged = ? WHERE id = ?",
                       arguments: [transactionCounts.inserted, transactionCounts.updated, transactionCounts.deleted, unchanged, importID])
    }

    /// Earlier imports of a file with this SHA-256, newest first.
    public func imports(sha256: String) throws -> [ImportRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM import_ledger WHERE sha256 = ? ORDER BY id DESC", arguments: [sha256]).map(ImportRecord.init(row:))
    }

    /// A stable account identity for an institution and an account number: a keyed hash (the number itself is
    /// not stored) and the account's UUID derived from it.
    public func accountIdentity(institution: String, number: String) -> (key: String, id: UUID) {
        store.accountIdentity(institution: institution, number: number)
    }
}

/// One entry of the import ledger.
public struct ImportRecord: Sendable, Codable {
    public var id: Int64
    public var sha256: String
    public var path: String
    public var format: String
    public var profile: String?
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    public var unchanged: Int
    public var importedAt: Date

    init(row: Row) {
        id = row["id"]
        sha256 = row["sha256"]
        path = row["path"]
        format = row["format"]
        profile = row["profile"]
        inserted = row["inserted"]
        updated = row["updated"]
        deleted = row["deleted"]
        unchanged = row["unchanged"]
        importedAt = Rows.date(row["imported_at"])
    }
}

extension FinanceStore {
    /// Runs `body` in one SQLite write transaction: everything it does commits together, or nothing does when it
    /// throws. With `dryRun`, the transaction is rolled back at the end and the result still returned.
    public func write<T>(dryRun: Bool = false, _ body: (StoreWriter) throws -> T) throws -> T {
        guard access == .readWrite else {
            throw CofferError(.storeReadOnly, "\(path) was opened read-only")
        }
        do {
            return try pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(StoreWriter(db: db, store: self))
                    return dryRun ? .rollback : .commit
                }
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
        let key = bytes.map { String(format: "%02x", $0) }.joined()
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom, derived
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let id = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                             bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return (key, id)
    }
}
