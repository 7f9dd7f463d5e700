import GRDB

/// Migration v19 (issue 16, found by `coffer serve`'s benchmark): an index in the order transactions are listed
/// by date. Append-only like every migration: a change is a new one (docs/schema.md).
extension Schema {
    static func registerLocalDayIndexMigration(_ migrator: inout DatabaseMigrator) {
        // `coffer transactions`, `coffer pick`, `GET /v1/transactions` and `TransactionQuery` sorted by date order
        // by the bank's own day, then the instant (`local_day, transaction_date`). No index had that order, so every
        // page, even of 20 rows, read and sorted the whole table (35 ms of CPU at 100k rows, growing with the store).
        // With this one a page walks the index from its cursor: what a page costs no longer depends on the store's
        // size. Date ranges without an account (`local_day` bounds) can use it too.
        migrator.registerMigration("v19-local-day-index") { db in
            try db.execute(sql: "CREATE INDEX txn_local_day ON txn(local_day, transaction_date)")
        }
    }
}
