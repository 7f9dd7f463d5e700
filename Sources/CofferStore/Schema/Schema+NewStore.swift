import Foundation
import GRDB

/// A new store made in one step from the schema its migrations leave, instead of running them one by one.
///
/// Running the 24 migrations on an empty file cost about 115 M instructions (callgrind; a third of a small CSV's
/// first import): most of them rebuild triggers or add columns, and SQLite parses the whole schema again after each
/// such change. Replaying the finished schema (`Schema.snapshotStatements`, generated) costs about 19 M. The
/// migrations stay the only definition of the schema: the snapshot is written from them by
/// `COFFER_SCHEMA_SNAPSHOT_UPDATE=1 swift test --filter SchemaSnapshotTests`, and `SchemaSnapshotTests` fails when it
/// is not what they leave, or when a store made from it differs from one migrated step by step. A snapshot older than
/// the migrations is never used (`snapshotMigrations` must be the migrator's list), so appending a migration without
/// regenerating it costs speed, never correctness.
extension Schema {
    /// Makes the schema in `db` from the snapshot when `db` holds nothing yet and the snapshot is that of
    /// `migrations`; says whether it did. Run inside the transaction that also marks the migrations applied, so a
    /// crash leaves an empty file, which the next open makes again.
    static func createFromSnapshot(_ db: Database, migrations: [String]) throws -> Bool {
        guard migrations == snapshotMigrations,
              try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return false }
        for sql in snapshotStatements { try db.execute(sql: sql) }
        let applied = try db.makeStatement(sql: "INSERT INTO grdb_migrations(identifier) VALUES (?)")
        for identifier in migrations { try applied.execute(arguments: [identifier]) }
        // The store's identity and token key, made once, at creation: what v1-store inserts (a shipped migration
        // is never edited, so this copy cannot drift from it; `SchemaSnapshotTests` compares the rows).
        var key = [UInt8](repeating: 0, count: 32)
        var rng = SystemRandomNumberGenerator()
        for i in key.indices { key[i] = UInt8.random(in: 0...255, using: &rng) }
        try db.execute(sql: "INSERT INTO store_meta(key, value) VALUES ('store_id', ?), ('token_key', ?), ('horizon_seq', 0), ('created_at', ?)",
                       arguments: [UUID(), Data(key), Int64(Date().timeIntervalSince1970 * 1000)])
        return true
    }

    /// Makes a new store's schema from the snapshot if `writer`'s database is empty and the snapshot is that of
    /// `migrator` (see `createFromSnapshot`); the migrator then finds every migration applied. Any other database is
    /// left to the migrator.
    static func createNewStore(_ writer: some DatabaseWriter, migrator: DatabaseMigrator) throws {
        let migrations = migrator.migrations
        guard migrations == snapshotMigrations else { return }  // no write transaction for a stale snapshot
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                _ = try createFromSnapshot(db, migrations: migrations)
                return .commit
            }
        }
    }

    /// The statements that make the schema `db` holds, replayable in their order: tables first, then indexes,
    /// triggers and views, each kind in the order SQLite lists them. SQLite's own objects (`sqlite_sequence`,
    /// automatic indexes, ANALYZE's tables) are left out: SQLite makes them itself.
    static func schemaStatements(_ db: Database) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'trigger' THEN 2 ELSE 3 END, rowid
            """)
        return rows.map { $0[1] }
    }
}
