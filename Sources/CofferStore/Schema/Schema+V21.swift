import GRDB

/// Migration v21 (issue 16, found measuring a `--force` import's memory): the accounts whose rows may carry the
/// occurrence numbers counted over a whole file. Append-only like every migration: a change is a new one
/// (docs/schema.md).
extension Schema {
    static func registerFileWideOccurrencesMigration(_ migrator: inout DatabaseMigrator) {
        // Versions before 2026-11 numbered identical records over the whole file (the April salary of a
        // March–April file was occurrence 2); later ones number them per day. An import still looks for a row under
        // the old number, but to know it, it keeps a second set of every record's content over the file: 16 MB at a
        // million rows, a tenth of a `--force` import's memory. The store did not say which rows are old, so every
        // import of an account that held anything kept that set.
        //
        // The accounts that held rows or tombstones when a store takes this migration are the ones whose rows may
        // be numbered the old way. Accounts made later, and every account of a store made new, are not listed, and
        // their imports number per day only. A listed account stays listed (a `--force` import renumbers only the
        // rows its file lists); a link carries the mark to the account it keeps (`StoreWriter.carryOccurrenceMark`).
        migrator.registerMigration("v21-file-wide-occurrences") { db in
            try db.execute(sql: """
                CREATE TABLE file_wide_occurrence_account (account_id BLOB PRIMARY KEY NOT NULL) WITHOUT ROWID;
                INSERT INTO file_wide_occurrence_account(account_id)
                    SELECT account_id FROM txn UNION SELECT account_id FROM tombstone;
                """)
        }
    }
}
