import GRDB

/// Migration v20 (issue 16, found timing a cron-sized import into a big store): two partial indexes that make
/// the questions an import asks about an account before its first record (`StoreWriter.facts`,
/// `hasRowsPostedLater`, `hasRecordsWithoutExternalID`) look-ups instead of passes over the account's rows.
/// Append-only like every migration: a change is a new one (docs/schema.md).
extension Schema {
    static func registerAccountFactIndexesMigration(_ migrator: inout DatabaseMigrator) {
        // Before them, importing 5 transactions into an account of a million took 0.5 s, 90% of it in two scans
        // that grew with the account. Both are partial: a row enters one only when it has what the question looks
        // for, so an import of rows that carry institution ids pays nothing for the first, and a row posted the day
        // it took place pays nothing for the second.
        migrator.registerMigration("v20-account-fact-indexes") { db in
            try db.execute(sql: """
                CREATE INDEX txn_idless_source ON txn(account_id, source) WHERE external_id IS NULL;
                CREATE INDEX txn_posted_later ON txn(account_id) WHERE posted_date >= transaction_date + 86400000;
                """)
        }
    }
}
