import GRDB

/// Migration v24 (issue 16): the import ledger records the file each import read, by size and by stat stamp.
/// Append-only like every migration: a change is a new one (docs/schema.md).
extension Schema {
    static func registerLedgerFileStampMigration(_ migrator: inout DatabaseMigrator) {
        // Why: whether a file was imported before was decided by its SHA-256 alone, computed before anything else.
        // On a CPU without SHA extensions that is 1.3 s for a 186 MB statement, most of an identical re-import (the
        // cron case) and 6% of a first import, serial. With the file's size and stamp kept:
        // - the same path with the same size, device, inode, modification and change times is the file imported
        //   before (as git's index trusts a file's stat data), and needs no digest;
        // - a file whose size no live import has cannot have been imported, so its digest is computed beside the
        //   import and recorded at its end.
        // NULL for imports made before this migration: those sizes are unknown, so any file may match them.
        migrator.registerMigration("v24-ledger-file-stamp") { db in
            try db.execute(sql: """
                ALTER TABLE import_ledger ADD COLUMN file_size INTEGER;
                ALTER TABLE import_ledger ADD COLUMN file_stamp TEXT
                """)
        }
    }
}
