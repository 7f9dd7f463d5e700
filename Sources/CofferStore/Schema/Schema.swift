import GRDB

/// The store's tables, as named append-only migrations. A shipped migration is never edited; a change to the
/// schema is a new migration appended at the end.
///
/// Values: UUIDs are 16-byte blobs; money is kept twice, as the exact decimal text (`amount`) and as an exact
/// integer in micro-units (`amount_scaled`) that SQLite can compare and sum; dates are integer milliseconds
/// since 1970 (a date-only value is midnight UTC), beside a transaction's offset and local day (v10); enums are
/// their FinanceKit raw values.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-store") { db in
            try db.execute(sql: """
                CREATE TABLE store_meta (key TEXT PRIMARY KEY NOT NULL, value NOT NULL);

                CREATE TABLE account (
                    id BLOB PRIMARY KEY NOT NULL,
                    identity_key TEXT NOT NULL UNIQUE,
                    kind INTEGER NOT NULL,
                    display_name TEXT NOT NULL,
                    account_description TEXT,
                    institution_name TEXT NOT NULL,
                    currency_code TEXT NOT NULL,
                    opening_date INTEGER,
                    masked_number TEXT,
                    credit_limit TEXT,
                    minimum_next_payment TEXT,
                    next_payment_due_date INTEGER,
                    overdue_payment TEXT,
                    created_seq INTEGER NOT NULL
                );

                CREATE TABLE balance (
                    id BLOB PRIMARY KEY NOT NULL,
                    account_id BLOB NOT NULL REFERENCES account(id),
                    currency_code TEXT NOT NULL,
                    available_amount TEXT, available_scaled INTEGER, available_indicator INTEGER, available_as_of INTEGER,
                    booked_amount TEXT, booked_scaled INTEGER, booked_indicator INTEGER, booked_as_of INTEGER,
                    as_of INTEGER NOT NULL,
                    dedupe_key TEXT NOT NULL,
                    created_seq INTEGER NOT NULL
                );
                CREATE INDEX balance_account_as_of ON balance(account_id, as_of);
                CREATE UNIQUE INDEX balance_dedupe ON balance(account_id, dedupe_key);

                CREATE TABLE txn (
                    id BLOB PRIMARY KEY NOT NULL,
                    account_id BLOB NOT NULL REFERENCES account(id),
                    amount TEXT NOT NULL,
                    amount_scaled INTEGER NOT NULL,
                    currency_code TEXT NOT NULL,
                    foreign_amount TEXT,
                    foreign_currency_code TEXT,
                    exchange_rate TEXT,
                    indicator INTEGER NOT NULL,
                    description TEXT NOT NULL,
                    original_description TEXT NOT NULL,
                    mcc INTEGER,
                    merchant_name TEXT,
                    type INTEGER NOT NULL,
                    status INTEGER NOT NULL,
                    transaction_date INTEGER NOT NULL,
                    posted_date INTEGER,
                    external_id TEXT,
                    fingerprint TEXT,
                    occurrence INTEGER,
                    created_seq INTEGER NOT NULL
                );
                CREATE INDEX txn_account_date ON txn(account_id, transaction_date);
                CREATE INDEX txn_date ON txn(transaction_date);
                CREATE UNIQUE INDEX txn_external_id ON txn(account_id, external_id) WHERE external_id IS NOT NULL;
                CREATE UNIQUE INDEX txn_fingerprint ON txn(account_id, fingerprint, occurrence) WHERE fingerprint IS NOT NULL;
                CREATE INDEX txn_open ON txn(account_id, transaction_date) WHERE status IN (0, 3);

                -- What was deleted keeps its dedupe keys, so a re-import does not bring it back.
                CREATE TABLE tombstone (
                    transaction_id BLOB NOT NULL,
                    account_id BLOB NOT NULL,
                    external_id TEXT,
                    fingerprint TEXT,
                    occurrence INTEGER,
                    deleted_seq INTEGER NOT NULL
                );
                CREATE INDEX tombstone_external_id ON tombstone(account_id, external_id) WHERE external_id IS NOT NULL;
                CREATE INDEX tombstone_fingerprint ON tombstone(account_id, fingerprint, occurrence) WHERE fingerprint IS NOT NULL;

                -- One row per insert/update/delete of an account (0), balance (1) or transaction (2),
                -- written in the same transaction as the change. AUTOINCREMENT: a sequence number is never reused,
                -- even after compaction deletes the newest rows' neighbours.
                CREATE TABLE change_log (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    entity INTEGER NOT NULL,
                    op INTEGER NOT NULL,
                    entity_id BLOB NOT NULL,
                    account_id BLOB NOT NULL,
                    committed_at INTEGER NOT NULL,
                    import_id INTEGER
                );
                CREATE INDEX change_log_stream ON change_log(entity, account_id, seq);

                CREATE TABLE import_ledger (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    sha256 TEXT NOT NULL,
                    path TEXT NOT NULL,
                    format TEXT NOT NULL,
                    profile TEXT,
                    inserted INTEGER NOT NULL DEFAULT 0,
                    updated INTEGER NOT NULL DEFAULT 0,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    unchanged INTEGER NOT NULL DEFAULT 0,
                    imported_at INTEGER NOT NULL
                );
                CREATE INDEX import_ledger_sha256 ON import_ledger(sha256);
                """)
            // The store's identity and its token key are made once, at creation.
            var key = [UInt8](repeating: 0, count: 32)
            var rng = SystemRandomNumberGenerator()
            for i in key.indices { key[i] = UInt8.random(in: 0...255, using: &rng) }
            try db.execute(sql: "INSERT INTO store_meta(key, value) VALUES ('store_id', ?), ('token_key', ?), ('horizon_seq', 0), ('created_at', ?)",
                           arguments: [UUID(), Data(key), Int64(Date().timeIntervalSince1970 * 1000)])
        }
        migrator.registerMigration("v2-delivery") { db in
            // Background delivery hooks: FinanceKit's enableBackgroundDelivery, run by `coffer watch`.
            // `types` is a comma-separated list of BackgroundDataType raw values; `command` is NULL for the hook of
            // the program embedding the watch service (delivered in-process); `last_delivered_seq` is the change-log
            // sequence the last successful delivery covered (its token reads from there); times are milliseconds.
            try db.execute(sql: """
                CREATE TABLE delivery_hook (
                    name TEXT PRIMARY KEY NOT NULL,
                    types TEXT NOT NULL,
                    frequency TEXT NOT NULL,
                    command TEXT,
                    last_delivered_seq INTEGER NOT NULL,
                    last_run_at INTEGER,
                    last_status TEXT,
                    created_at INTEGER NOT NULL
                );
                """)
        }
        // Snapshot history pages through an account's rows by id; matching another source looks for one
        // day's rows of one amount. The (account, date, amount) index also serves every (account, date) query.
        migrator.registerMigration("v3-history-and-match-indexes") { db in
            try db.execute(sql: """
                CREATE INDEX txn_account_id ON txn(account_id, id);
                CREATE INDEX balance_account_id ON balance(account_id, id);
                DROP INDEX txn_account_date;
                CREATE INDEX txn_account_date_amount ON txn(account_id, transaction_date, amount_scaled);
                """)
        }
        // Every index on `txn` costs about 1 µs per imported row (`scripts/bench/index_cost.c`: 6.0 µs with none,
        // 11.9 µs with all six). Snapshot history pages through the primary key, filtering the account, instead
        // of its own (account, id) index. The fingerprint index now holds only records without an institution
        // id: when both sides carry the institution's ids, the ids decide (two same-day coffees with different
        // FITIDs in two files are two transactions), so OFX and camt imports no longer pay for a fingerprint
        // entry per row. And (account, date) is back without the amount: within a day the amount scattered the
        // table reads of the most common query (0.8 ms of SQLite instead of 1.0 ms for 1,000 rows); matching
        // another source's record reads that day's rows of the account, a handful in real statements. The date
        // index stays: without it "the newest 20 of every account" sorted the whole table (1.5 s on 1M rows).
        migrator.registerMigration("v4-leaner-transaction-indexes") { db in
            try db.execute(sql: """
                DROP INDEX txn_account_id;
                DROP INDEX txn_account_date_amount;
                CREATE INDEX txn_account_date ON txn(account_id, transaction_date);
                DROP INDEX txn_fingerprint;
                CREATE UNIQUE INDEX txn_fingerprint ON txn(account_id, fingerprint, occurrence)
                    WHERE fingerprint IS NOT NULL AND external_id IS NULL;
                """)
        }
        // Accounts are kept per (number, currency) from here on: a multi-currency IBAN is one account per currency.
        // Stores filled before put such an IBAN's statements on one account; the currencies each account held
        // besides its own are recorded once, so statements in those currencies keep landing there (re-importing
        // an old file changes nothing), while foreign-currency rows stored later never widen the rule.
        migrator.registerMigration("v5-per-currency-accounts") { db in
            try db.execute(sql: """
                CREATE TABLE account_legacy_currency (
                    account_id BLOB NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    currency_code TEXT NOT NULL,
                    PRIMARY KEY (account_id, currency_code)
                ) WITHOUT ROWID;
                INSERT INTO account_legacy_currency(account_id, currency_code)
                    SELECT DISTINCT t.account_id, t.currency_code FROM txn t JOIN account a ON a.id = t.account_id
                    WHERE t.currency_code != a.currency_code;
                """)
        }
        // Statement chronology for pending rows (docs/dedupe.md): the as-of time of the newest statement that
        // listed each open row. Only a strictly newer statement may say such a row is gone. Rows stored before
        // have none: any statement covering them may, as before.
        migrator.registerMigration("v6-open-row-listings") { db in
            try db.execute(sql: """
                CREATE TABLE open_listing (
                    transaction_id BLOB PRIMARY KEY NOT NULL,
                    as_of INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
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
        return migrator
    }

    /// The name of the newest migration this build knows: the schema version shown by `coffer info`.
    static var currentVersion: String { migrator.migrations.last ?? "none" }
}

import Foundation

enum EntityKind: Int, Sendable {
    case account = 0
    case balance = 1
    case transaction = 2
}

enum ChangeOp: Int, Sendable {
    case insert = 0
    case update = 1
    case delete = 2
}
