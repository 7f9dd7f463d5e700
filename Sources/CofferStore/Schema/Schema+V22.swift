import GRDB

/// Migration v22 (issue 16): `txn.account_id`'s foreign key is checked at the commit instead of at each statement.
/// Append-only like every migration: a change is a new one (docs/schema.md).
extension Schema {
    /// The foreign key as every earlier migration wrote it, and as this one leaves it.
    static let txnAccountKey = "account_id BLOB NOT NULL REFERENCES account(id),"
    static let txnAccountKeyDeferred = "account_id BLOB NOT NULL REFERENCES account(id) DEFERRABLE INITIALLY DEFERRED,"

    static func registerDeferredTransactionAccountKeyMigration(_ migrator: inout DatabaseMigrator) {
        // Why: the writer inserts new transactions 128 rows a statement (`InsertBatch`). SQLite gives such a statement
        // a statement journal, about 150 KiB of copied pages, whenever one of its rows could stop it halfway: a
        // unique index or NOT NULL column under the default conflict rule (`ABORT`), or an immediate foreign key.
        // The batch's statements say `INSERT OR FAIL`, which leaves the first two nothing to undo; an immediate key
        // still would, and no pragma changes that (`defer_foreign_keys` is read when the statement runs, the
        // journal is chosen when it is compiled). Deferred, the key is counted and checked once at the commit,
        // which fails the whole import as before: an import never commits a row of an account that does not exist.
        //
        // How: the key is only text in `sqlite_schema`; the rows, indexes and pages do not change. So this is
        // SQLite's own procedure for such a change ("Making Other Kinds Of Table Schema Changes" in its ALTER TABLE
        // page), in the migration's transaction: the table's SQL rewritten with `writable_schema`, the schema
        // version raised so every connection reads it again. A million-row store takes it in a moment, where
        // rebuilding the table would copy every row. The text is checked before (exactly one such key) and after
        // (SQLite parses the new schema, and the key reads back deferred), and any failure rolls it all back.
        migrator.registerMigration("v22-deferred-transaction-account-key") { db in
            guard let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'txn'"),
                  sql.components(separatedBy: txnAccountKey).count == 2 else {
                throw DatabaseError(message: "v22: the txn table does not declare its account key as every earlier migration did")
            }
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = 'txn'",
                           arguments: [sql.replacingOccurrences(of: txnAccountKey, with: txnAccountKeyDeferred)])
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = RESET")
            // Reading the table's columns parses the new schema: malformed, it throws and the migration rolls back.
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(txn)").count
            let stored = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'txn'")
            guard columns > 0, stored?.contains(txnAccountKeyDeferred) == true else {
                throw DatabaseError(message: "v22: the txn table does not read back with its account key deferred")
            }
        }
    }
}
