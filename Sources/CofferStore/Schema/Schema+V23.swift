import GRDB

/// Migration v23 (issue 16): the undo journal's triggers insert `OR FAIL`. Append-only like every migration: a
/// change is a new one (docs/schema.md).
extension Schema {
    /// How a trigger that keeps an undo image inserts it, before this migration and after it.
    static let journalInsert = "INSERT INTO undo_"
    static let journalInsertOrFail = "INSERT OR FAIL INTO undo_"

    static func registerJournalInsertOrFailMigration(_ migrator: inout DatabaseMigrator) {
        // Why: a statement that changes a stored row fires a trigger that inserts the row's image into an `undo_`
        // table. A trigger makes the statement one of many writes, and the image's `NOT NULL import_id` under the
        // default `ABORT` rule could stop it halfway, so SQLite kept a statement journal for every such statement:
        // a copy of each page it changed, about eight pages a row, for every update of an import and every delete of
        // an undo. An `UPDATE OR FAIL` passes `FAIL` to its triggers' statements; a `DELETE` cannot, so the trigger's
        // own insert must say it. Under `FAIL` a failing statement keeps what it did before the failure instead of
        // undoing it, which changes nothing here: any failure fails the whole write, whose transaction rolls back.
        //
        // Every trigger inserting into an `undo_` table is recreated with its own text but that insert, whatever
        // columns earlier migrations gave it. A migration that recreates one later must keep `OR FAIL`
        // (docs/schema.md; `StatementJournalTests` checks every trigger of a new store).
        migrator.registerMigration("v23-journal-insert-or-fail") { db in
            let triggers = try Row.fetchAll(db, sql: """
                SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND sql LIKE '%INSERT INTO undo\\_%' ESCAPE '\\'
                ORDER BY name
                """)
            for trigger in triggers {
                let name: String = trigger["name"]
                let sql: String = trigger["sql"]
                try db.execute(sql: "DROP TRIGGER \(name)")
                try db.execute(sql: sql.replacingOccurrences(of: journalInsert, with: journalInsertOrFail))
            }
        }
    }
}
