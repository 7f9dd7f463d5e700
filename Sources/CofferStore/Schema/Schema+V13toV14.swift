import GRDB

/// Migrations v13–v14 (2026-11-23): a tombstone of a pending row a statement retired remembers that statement's
/// as-of time; a recorded statement keeps its source. Append-only like every migration: a change is a new one.
extension Schema {
    static func registerRetiredAsOfMigration(_ migrator: inout DatabaseMigrator) {
        // A pending row retired by a statement (docs/dedupe.md) is there again when a statement newer than the
        // retiring one lists it: its keys' tombstone stops only records of statements no newer than `retired_as_of`
        // (ms since 1970). NULL: deleted for good (an institution's correction, a person's delete), and every
        // tombstone from before v13.
        migrator.registerMigration("v13-tombstone-retired-as-of") { db in
            try db.execute(sql: "ALTER TABLE tombstone ADD COLUMN retired_as_of INTEGER")
        }
        // A row carries one source's text (`txn.source`): the newest recorded statement of that source covering the
        // row's days is the as-of time of its text, compared with another source's listing (docs/dedupe.md,
        // "Values"). NULL for statements recorded before v14 (their source is not known: they count for none).
        migrator.registerMigration("v14-statement-source") { db in
            try db.execute(sql: "ALTER TABLE statement_period ADD COLUMN source TEXT")
        }
    }
}
