import GRDB

/// Migrations v7–v12 (2026-11-23): the undo journal, recorded statements, account aliases, the bank's own day,
/// values by statement chronology and pending chronology. Append-only like every migration: a change is a new one.
extension Schema {
    static func registerUndoIdentityAndDayMigrations(_ migrator: inout DatabaseMigrator) {
        // Undo (`coffer imports undo`, docs/undo.md). While an import runs, `store_meta.journal_import` names its
        // ledger entry, and triggers keep the rows it changes as they were before (`undo_txn`, `undo_account`,
        // `undo_balance`, `undo_open_listing`: one image per change, the oldest one per row is the row before the
        // import) and the rows it added to tables without a change log (`undo_added`: tombstones by rowid, open
        // listings by transaction id). `import_listing` keeps the ids of the stored rows an import listed
        // unchanged (16-byte ids, concatenated): a row an undone import inserted stays when a later import lists
        // it too. The ledger says what each entry is (`import`, `undo`, `link`), which undo reverted it, and the
        // change-log sequence it started after (NULL for imports made before undo existed: not undoable), and how
        // many warnings the import gave (the first 20 kept, one per line).
        // Each mirror table holds every column of its table, checked by `UndoJournalTests`; a migration that
        // adds a column to a journaled table recreates its mirror's triggers.
        migrator.registerMigration("v7-undo-journal") { db in
            try db.execute(sql: """
                ALTER TABLE import_ledger ADD COLUMN kind TEXT NOT NULL DEFAULT 'import';
                ALTER TABLE import_ledger ADD COLUMN undone_by INTEGER;
                ALTER TABLE import_ledger ADD COLUMN first_seq INTEGER;
                ALTER TABLE import_ledger ADD COLUMN warnings INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE import_ledger ADD COLUMN warning_text TEXT;
                CREATE TABLE undo_added (import_id INTEGER NOT NULL, tbl TEXT NOT NULL, row_key NOT NULL);
                CREATE INDEX undo_added_import ON undo_added(import_id);
                CREATE TABLE import_listing (import_id INTEGER PRIMARY KEY, ids BLOB NOT NULL);
                CREATE TRIGGER journal_tombstone_insert AFTER INSERT ON tombstone BEGIN
                    INSERT INTO undo_added(import_id, tbl, row_key)
                        SELECT value, 'tombstone', NEW.rowid FROM store_meta WHERE key = 'journal_import';
                END;
                CREATE TRIGGER journal_open_listing_insert AFTER INSERT ON open_listing BEGIN
                    INSERT INTO undo_added(import_id, tbl, row_key)
                        SELECT value, 'open_listing', NEW.transaction_id FROM store_meta WHERE key = 'journal_import';
                END;
                """)
            let mirrored: [(table: String, columns: [String])] = [
                ("txn", ["id", "account_id", "amount", "amount_scaled", "currency_code", "foreign_amount",
                         "foreign_currency_code", "exchange_rate", "indicator", "description", "original_description",
                         "mcc", "merchant_name", "type", "status", "transaction_date", "posted_date", "external_id",
                         "fingerprint", "occurrence", "created_seq"]),
                ("account", ["id", "identity_key", "kind", "display_name", "account_description", "institution_name",
                             "currency_code", "opening_date", "masked_number", "credit_limit", "minimum_next_payment",
                             "next_payment_due_date", "overdue_payment", "created_seq"]),
                ("balance", ["id", "account_id", "currency_code", "available_amount", "available_scaled",
                             "available_indicator", "available_as_of", "booked_amount", "booked_scaled",
                             "booked_indicator", "booked_as_of", "as_of", "dedupe_key", "created_seq"]),
                ("open_listing", ["transaction_id", "as_of"]),
            ]
            for (table, columns) in mirrored {
                let list = columns.joined(separator: ", ")
                let old = columns.map { "OLD." + $0 }.joined(separator: ", ")
                try db.execute(sql: """
                    CREATE TABLE undo_\(table) (image INTEGER PRIMARY KEY, import_id INTEGER NOT NULL, \(list));
                    CREATE INDEX undo_\(table)_import ON undo_\(table)(import_id);
                    CREATE TRIGGER journal_\(table)_update BEFORE UPDATE ON \(table) BEGIN
                        INSERT INTO undo_\(table)(import_id, \(list))
                            SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                    END;
                    CREATE TRIGGER journal_\(table)_delete BEFORE DELETE ON \(table) BEGIN
                        INSERT INTO undo_\(table)(import_id, \(list))
                            SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                    END;
                    """)
            }
        }
        // Statements as imported (issue 13, `coffer reconcile`): one row per statement of each import: the period it
        // covers (stated by the file, else its rows' first and last day), when it was made, the booked balances it
        // reports (as `balance` keeps amounts: exact text, micro-units, indicator), its rows and their booked sum in
        // signed micro-units (credit +, debit −), and the difference its own balance check found. Rows belong to
        // their import: reads join `import_ledger` (`StatementPeriod.liveRows`), and an undone import's rows go
        // with it (by `import_id`).
        migrator.registerMigration("v8-statement-periods") { db in
            try db.execute(sql: """
                CREATE TABLE statement_period (
                    id INTEGER PRIMARY KEY,
                    import_id INTEGER NOT NULL REFERENCES import_ledger(id),
                    account_id BLOB NOT NULL REFERENCES account(id),
                    currency_code TEXT NOT NULL,
                    location TEXT NOT NULL,
                    statement_id TEXT,
                    period_start INTEGER,
                    period_end INTEGER,
                    period_stated INTEGER NOT NULL,
                    as_of INTEGER NOT NULL,
                    opening_code TEXT, opening_amount TEXT, opening_scaled INTEGER, opening_indicator INTEGER,
                    opening_as_of INTEGER,
                    closing_code TEXT, closing_amount TEXT, closing_scaled INTEGER, closing_indicator INTEGER,
                    closing_as_of INTEGER, closing_location TEXT,
                    row_count INTEGER NOT NULL,
                    booked_count INTEGER NOT NULL,
                    booked_scaled INTEGER,
                    open_count INTEGER NOT NULL,
                    balance_problem TEXT,
                    balance_difference TEXT
                );
                CREATE INDEX statement_period_account ON statement_period(account_id, closing_as_of);
                CREATE INDEX statement_period_import ON statement_period(import_id);
                """)
        }
        // One account per real account (docs/account-identity.md). A source that names an account another way than
        // the stored one (a masked number where the store has the full one, an IBAN) lands on it by an alias: its
        // identity key, looked up after `account.identity_key`. What a new source's account is compared with: the
        // institution ids its sources gave (OFX FID/BANKID, a BIC, a profile's id; space-separated, upper-case)
        // and the forms its number came in (`short`, `full`, `iban`). Accounts stored before have neither
        // (NULL): their institution is compared by name, and their number's form is unknown. `ledger_id`: the import
        // ledger entry that added the alias. Both tables are in the undo journal (v7): `account`'s mirror gains the
        // two columns, `account_alias` gets a mirror of its own, and the aliases an import adds are noted.
        migrator.registerMigration("v9-account-aliases") { db in
            try db.execute(sql: """
                CREATE TABLE account_alias (
                    identity_key TEXT PRIMARY KEY NOT NULL,
                    account_id BLOB NOT NULL REFERENCES account(id),
                    created_at INTEGER,
                    ledger_id INTEGER
                );
                CREATE INDEX account_alias_account ON account_alias(account_id);
                ALTER TABLE account ADD COLUMN institution_ids TEXT;
                ALTER TABLE account ADD COLUMN number_forms TEXT;
                """)
            let accountColumns = ["id", "identity_key", "kind", "display_name", "account_description", "institution_name",
                                  "currency_code", "opening_date", "masked_number", "credit_limit", "minimum_next_payment",
                                  "next_payment_due_date", "overdue_payment", "created_seq", "institution_ids", "number_forms"]
            let aliasColumns = ["identity_key", "account_id", "created_at", "ledger_id"]
            try db.execute(sql: """
                ALTER TABLE undo_account ADD COLUMN institution_ids TEXT;
                ALTER TABLE undo_account ADD COLUMN number_forms TEXT;
                DROP TRIGGER journal_account_update;
                DROP TRIGGER journal_account_delete;
                CREATE TABLE undo_account_alias (image INTEGER PRIMARY KEY, import_id INTEGER NOT NULL, \(aliasColumns.joined(separator: ", ")));
                CREATE INDEX undo_account_alias_import ON undo_account_alias(import_id);
                CREATE TRIGGER journal_account_alias_insert AFTER INSERT ON account_alias BEGIN
                    INSERT INTO undo_added(import_id, tbl, row_key)
                        SELECT value, 'account_alias', NEW.identity_key FROM store_meta WHERE key = 'journal_import';
                END;
                """)
            for (table, columns) in [("account", accountColumns), ("account_alias", aliasColumns)] {
                let list = columns.joined(separator: ", ")
                let old = columns.map { "OLD." + $0 }.joined(separator: ", ")
                try db.execute(sql: """
                    CREATE TRIGGER journal_\(table)_update BEFORE UPDATE ON \(table) BEGIN
                        INSERT INTO undo_\(table)(import_id, \(list))
                            SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                    END;
                    CREATE TRIGGER journal_\(table)_delete BEFORE DELETE ON \(table) BEGIN
                        INSERT INTO undo_\(table)(import_id, \(list))
                            SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                    END;
                    """)
            }
        }
        // The bank's own day (docs/dedupe.md): a time keeps the offset it was written in (`utc_offset`, seconds east
        // of UTC; NULL for a date-only value) and the calendar day of that offset (`local_day`, days since 1970;
        // a date-only value's own day). Rows stored before have no offset: their day is their UTC day. No index:
        // day queries read a `transaction_date` range widened by 14 h (no offset is larger) through the existing
        // (account, date) and (date) indexes and filter `local_day` exactly (see `localDayComparison` in PredicateSQL:
        // an (account, local_day) index answered a dense 2-day query in 0.30 ms instead of 0.40 ms but cost every
        // insert 1.8 µs). The undo journal mirrors the new columns (see v7).
        migrator.registerMigration("v10-local-day") { db in
            try db.execute(sql: """
                DROP TRIGGER journal_txn_update;
                DROP TRIGGER journal_txn_delete;
                ALTER TABLE txn ADD COLUMN utc_offset INTEGER;
                ALTER TABLE txn ADD COLUMN local_day INTEGER NOT NULL DEFAULT 0;
                UPDATE txn SET local_day = CASE WHEN transaction_date >= 0 THEN transaction_date / 86400000
                                                ELSE (transaction_date - 86399999) / 86400000 END;
                ALTER TABLE undo_txn ADD COLUMN utc_offset INTEGER;
                ALTER TABLE undo_txn ADD COLUMN local_day INTEGER;
                """)
            let columns = ["id", "account_id", "amount", "amount_scaled", "currency_code", "foreign_amount",
                           "foreign_currency_code", "exchange_rate", "indicator", "description", "original_description",
                           "mcc", "merchant_name", "type", "status", "transaction_date", "posted_date", "external_id",
                           "fingerprint", "occurrence", "created_seq", "utc_offset", "local_day"]
            let list = columns.joined(separator: ", ")
            let old = columns.map { "OLD." + $0 }.joined(separator: ", ")
            try db.execute(sql: """
                CREATE TRIGGER journal_txn_update BEFORE UPDATE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list))
                        SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                CREATE TRIGGER journal_txn_delete BEFORE DELETE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list))
                        SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                """)
        }
        // Statement chronology for values (docs/dedupe.md): the as-of time of the statement whose amount, status
        // and text a row carries. A statement older than that one, imported later, no longer overwrites them (it
        // may still date the row earlier). NULL for rows stored before, and for statements that state no as-of
        // time (a CSV export): any listing of the row's own source may update it, as before. The undo journal's
        // mirror gains the column, and its triggers are recreated with it.
        migrator.registerMigration("v11-values-as-of") { db in
            let columns = ["id", "account_id", "amount", "amount_scaled", "currency_code", "foreign_amount",
                           "foreign_currency_code", "exchange_rate", "indicator", "description", "original_description",
                           "mcc", "merchant_name", "type", "status", "transaction_date", "posted_date", "external_id",
                           "fingerprint", "occurrence", "created_seq", "utc_offset", "local_day", "values_as_of"]
            let list = columns.joined(separator: ", ")
            let old = columns.map { "OLD." + $0 }.joined(separator: ", ")
            try db.execute(sql: """
                ALTER TABLE txn ADD COLUMN values_as_of INTEGER;
                ALTER TABLE undo_txn ADD COLUMN values_as_of INTEGER;
                DROP TRIGGER journal_txn_update;
                DROP TRIGGER journal_txn_delete;
                CREATE TRIGGER journal_txn_update BEFORE UPDATE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list)) SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                CREATE TRIGGER journal_txn_delete BEFORE DELETE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list)) SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                """)
        }
        // Pending rows by statement chronology (docs/dedupe.md). What a statement says about pending rows: the local
        // days its period covers (as the import reads them: a stated period's own days, else its rows' first and last
        // day) and whether its format lists pending rows; a pending record that a newer recorded statement would have
        // retired, imported after it, is not stored (NULL for statements recorded before: they retire nothing later).
        // And the source (id namespace: `camt`, `csv:<profile>`) of the record whose values and content keys a row
        // carries, so that two sources without ids (a camt.052 report's pending entries and a CSV export) can be
        // told apart (NULL for rows stored before). The undo mirror gains the column, and its triggers are recreated.
        migrator.registerMigration("v12-pending-chronology") { db in
            let columns = ["id", "account_id", "amount", "amount_scaled", "currency_code", "foreign_amount",
                           "foreign_currency_code", "exchange_rate", "indicator", "description", "original_description",
                           "mcc", "merchant_name", "type", "status", "transaction_date", "posted_date", "external_id",
                           "fingerprint", "occurrence", "created_seq", "utc_offset", "local_day", "values_as_of", "source"]
            let list = columns.joined(separator: ", ")
            let old = columns.map { "OLD." + $0 }.joined(separator: ", ")
            try db.execute(sql: """
                ALTER TABLE statement_period ADD COLUMN from_day INTEGER;
                ALTER TABLE statement_period ADD COLUMN through_day INTEGER;
                ALTER TABLE statement_period ADD COLUMN lists_pending INTEGER;
                ALTER TABLE txn ADD COLUMN source TEXT;
                ALTER TABLE undo_txn ADD COLUMN source TEXT;
                DROP TRIGGER journal_txn_update;
                DROP TRIGGER journal_txn_delete;
                CREATE TRIGGER journal_txn_update BEFORE UPDATE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list)) SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                CREATE TRIGGER journal_txn_delete BEFORE DELETE ON txn BEGIN
                    INSERT INTO undo_txn(import_id, \(list)) SELECT value, \(old) FROM store_meta WHERE key = 'journal_import';
                END;
                """)
        }
    }
}
