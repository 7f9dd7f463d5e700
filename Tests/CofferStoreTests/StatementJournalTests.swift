@testable import CofferStore
import CSQLiteProbe
import Foundation
import GRDB
import Testing

/// The writer's batches keep no statement journal (`InsertBatch`, migration v22), and deferring `txn.account_id`'s
/// key did not loosen it: a row of an account that does not exist still fails the whole write.
@Suite struct StatementJournalTests {
    /// A store opened after the counting VFS is installed (SQLite is configured by the first store a process opens,
    /// which must come before the install).
    static func probedStore(_ name: String) throws -> (FinanceStore, String) {
        _ = try makeStore("configure")
        #expect(coffer_probe_install() == 0)
        return try makeStore(name)
    }

    static func fresh(_ account: UUID, _ n: Int) -> [(Transaction, DedupeKeys)] {
        (0..<n).map { k in
            (makeTransaction(account, "\(k % 500).\(k % 90 + 10)", on: "2026-03-\(10 + k % 18)", "Payee \(k % 37)"),
             DedupeKeys(externalID: "FIT\(k)"))
        }
    }

    @Test func batchedInsertsSpillNoStatementJournal() throws {
        let (store, path) = try Self.probedStore("journal")
        let account = try addAccount(store)
        let rows = Self.fresh(account.id, 4_096)
        let spilledByInserts = try store.write { w in
            try w.beginImport(sha256: "journal", path: "journal", format: "test", profile: nil)
            let before = coffer_probe_statement_journal_files()
            for (t, keys) in rows { try w.insert(t, keys: keys) }
            try w.flushInserts()
            let after = coffer_probe_statement_journal_files()
            try w.finishImport(unchanged: 0)
            return after - before
        }
        // Statements changing stored rows fire the undo journal's triggers. With `OR FAIL` (the writer's updates) and
        // the triggers' own `OR FAIL` inserts (migration v23), neither a whole-table update nor a delete keeps one.
        let spilled = try [
            "UPDATE OR FAIL txn SET description = description || ' (checked)'",
            // The probe sees a spill when there is one: the same update under the default ABORT rule keeps far more
            // than the 120 KiB held in memory.
            "UPDATE txn SET description = description || ' (again)'",
            "DELETE FROM txn",
        ].map { sql in
            try store.write { w in
                let before = coffer_probe_statement_journal_files()
                try w.db.execute(sql: sql)
                return coffer_probe_statement_journal_files() - before
            }
        }
        #expect(spilledByInserts == 0, "4,096 new rows in batches of 128 spilled \(spilledByInserts) statement journals to files")
        #expect(spilled[0] == 0, "an UPDATE OR FAIL of 4,096 rows spilled \(spilled[0]) statement journals to files")
        #expect(spilled[1] > 0, "the probe saw no statement journal file for a statement that must keep one")
        #expect(spilled[2] == 0, "a DELETE of 4,096 rows spilled \(spilled[2]) statement journals to files")
        let stored = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM txn") }
        #expect(stored == 0)
        let images = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM undo_txn") }
        #expect(images == 0, "no import was being journaled, so the triggers kept no image")
    }

    /// Every trigger of a new store that keeps an undo image inserts it `OR FAIL` (a later migration recreating one
    /// must keep it), and a new store has 16 KiB pages.
    @Test func aNewStoresTriggersAndPages() throws {
        let (_, path) = try makeStore("triggers")
        let (triggers, plain, pageSize) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'trigger' AND sql LIKE '%INTO undo%'"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND sql LIKE '%INSERT INTO undo%'"),
             try Int.fetchOne(db, sql: "PRAGMA page_size"))
        }
        #expect((triggers ?? 0) >= 13)
        #expect(plain == [], "triggers inserting undo images without OR FAIL: \(plain)")
        #expect(pageSize == StoreFile.pageSize)
    }

    /// 300 rows (two full batches and 44 written alone), one of them in an account no store has: the write fails at
    /// its commit with SQLite's foreign-key error, and leaves no row, ledger entry or change-log row behind.
    @Test(arguments: [5, 200, 299]) func aRowOfAMissingAccountFailsTheWholeWrite(bad: Int) throws {
        let (store, path) = try makeStore("missing-account-\(bad)")
        let account = try addAccount(store)
        var rows = Self.fresh(account.id, 300)
        rows[bad].0 = makeTransaction(UUID(), "1.00", on: "2026-03-12", "Nowhere")
        let before = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM change_log") }
        var failure: (any Error)?
        do {
            try store.write { w in
                try w.beginImport(sha256: "missing", path: "missing", format: "test", profile: nil)
                for (t, keys) in rows { try w.insert(t, keys: keys) }
                try w.finishImport(unchanged: 0)
            }
        } catch {
            failure = error
        }
        let cause = (failure as? CofferError)?.underlying as? DatabaseError
        #expect(cause?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY,
                "row \(bad) of a missing account: \(failure.map { "\($0)" } ?? "the write succeeded")")
        let counts = try DatabaseQueue(path: path).read { db in
            [try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change_log"),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM import_ledger")]
        }
        #expect(counts == [0, before, 0])
    }
}
