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
        // Later migrations, in the order they were added, each file appending its own.
        registerUndoIdentityAndDayMigrations(&migrator)
        registerRetiredAsOfMigration(&migrator)
        registerFoldedTextMigration(&migrator)
        registerNormalizeV4VariantsMigration(&migrator)
        registerClientsMigration(&migrator)
        registerWalletOrdersMigration(&migrator)
        registerLocalDayIndexMigration(&migrator)
        registerAccountFactIndexesMigration(&migrator)
        registerFileWideOccurrencesMigration(&migrator)
        registerDeferredTransactionAccountKeyMigration(&migrator)
        registerJournalInsertOrFailMigration(&migrator)
        registerLedgerFileStampMigration(&migrator)
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
