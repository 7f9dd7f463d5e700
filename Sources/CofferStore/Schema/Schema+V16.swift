import GRDB

/// Migration v16: one schema for every store, whichever v4 it ran. Append-only like every migration: a change is a
/// new one (docs/schema.md).
extension Schema {
    static func registerNormalizeV4VariantsMigration(_ migrator: inout DatabaseMigrator) {
        // Migration v4 (`v4-leaner-transaction-indexes`) was edited after it first shipped, so a store may have run
        // any of four versions of it (fixtures of each: Tests/Golden/schema-history):
        //   1. 70f790b: dropped txn_date and txn_account_id, kept (account, date, amount) and the fingerprint index
        //      over every row with a fingerprint;
        //   2. 9ffbbaa: 1., and the fingerprint index only over rows without an institution id;
        //   3. 7f0da9a: 2., and (account, date) in place of (account, date, amount);
        //   4. 93ff4ff (today's): 3., but txn_date kept.
        // This brings the first three to the fourth, which is what a new store has; on it (and on a new store)
        // nothing changes. Index definitions are written as v1 and v4 wrote them, so that `sqlite_master` reads
        // the same. The fingerprint index is rebuilt only where it is the old one: the new one covers a subset of
        // its rows on the same columns, so it cannot find duplicates the old one allowed.
        migrator.registerMigration("v16-normalize-v4-variants") { db in
            try db.execute(sql: """
                DROP INDEX IF EXISTS txn_account_id;
                DROP INDEX IF EXISTS txn_account_date_amount;
                CREATE INDEX IF NOT EXISTS txn_account_date ON txn(account_id, transaction_date);
                CREATE INDEX IF NOT EXISTS txn_date ON txn(transaction_date);
                """)
            let fingerprint = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'txn_fingerprint'")
            if fingerprint?.contains("external_id IS NULL") != true {
                try db.execute(sql: """
                    DROP INDEX IF EXISTS txn_fingerprint;
                    CREATE UNIQUE INDEX txn_fingerprint ON txn(account_id, fingerprint, occurrence)
                        WHERE fingerprint IS NOT NULL AND external_id IS NULL;
                    """)
            }
        }
    }
}
