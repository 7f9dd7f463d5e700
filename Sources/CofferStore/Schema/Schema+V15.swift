import CofferModel
import GRDB

/// Migration v15 (issue 14): the folded text that `TransactionQuery.searchText` searches. Append-only like every
/// migration: a change is a new one.
extension Schema {
    /// The columns of `txn` that the undo journal mirrors, as of v15 (v12's and `folded_text`).
    static let journaledTransactionColumnsV15 = [
        "id", "account_id", "amount", "amount_scaled", "currency_code", "foreign_amount", "foreign_currency_code",
        "exchange_rate", "indicator", "description", "original_description", "mcc", "merchant_name", "type", "status",
        "transaction_date", "posted_date", "external_id", "fingerprint", "occurrence", "created_seq", "utc_offset",
        "local_day", "values_as_of", "source", "folded_text",
    ]

    static func registerFoldedTextMigration(_ migrator: inout DatabaseMigrator) {
        // Text the way people search it (docs/search.md): `folded_text` holds the description, the original
        // description and the merchant name, each folded by `SearchFolding` (lowercase, no diacritics, one space
        // between words), joined by U+001F (which folded text never holds, so a search cannot match across two of
        // them). A search folds its text the same way and compares with `LIKE`: SQLite's own `LIKE` folds ASCII
        // only and cannot remove diacritics, so the column is written from Swift wherever a description is
        // (insert, update, undo's restore). Rows stored before get it here, from Swift, in batches of 2,000 by
        // rowid; so do the images the undo journal keeps (an undo restores them whole). The journal mirrors the
        // column and its triggers are recreated with it.
        migrator.registerMigration("v15-folded-text") { db in
            let list = journaledTransactionColumnsV15.joined(separator: ", ")
            let old = journaledTransactionColumnsV15.map { "OLD." + $0 }.joined(separator: ", ")
            try db.execute(sql: """
                ALTER TABLE txn ADD COLUMN folded_text TEXT NOT NULL DEFAULT '';
                ALTER TABLE undo_txn ADD COLUMN folded_text TEXT;
                DROP TRIGGER journal_txn_update;
                DROP TRIGGER journal_txn_delete;
                """)
            try fillFoldedText(db, table: "txn", key: "rowid")
            try fillFoldedText(db, table: "undo_txn", key: "image")
            try db.execute(sql: """
                CREATE TRIGGER journal_txn_update BEFORE UPDATE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list)) SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                CREATE TRIGGER journal_txn_delete BEFORE DELETE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list)) SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                """)
        }
    }

    /// Writes `folded_text` for every row of `table`, 2,000 rows at a time in `key` order.
    private static func fillFoldedText(_ db: Database, table: String, key: String) throws {
        let update = try db.makeStatement(sql: "UPDATE \(table) SET folded_text = ? WHERE \(key) = ?")
        var after: Int64 = .min
        while true {
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(key), description, original_description, merchant_name FROM \(table)
                WHERE \(key) > ? ORDER BY \(key) LIMIT 2000
                """, arguments: [after])
            guard let last = rows.last else { return }
            for row in rows {
                let folded = Rows.foldedText(description: row[1] ?? "", original: row[2] ?? "", merchant: row[3])
                try update.execute(arguments: [folded, row[0]])
            }
            after = last[0]
        }
    }
}
