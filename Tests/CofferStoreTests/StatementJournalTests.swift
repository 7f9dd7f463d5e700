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
        // The probe sees a spill when there is one: one statement rewriting every row, each firing the undo journal's
        // trigger, keeps far more than the 120 KiB held in memory.
        let spilledByUpdate = try store.write { w in
            let before = coffer_probe_statement_journal_files()
            try w.db.execute(sql: "UPDATE txn SET description = description || ' (checked)'")
            return coffer_probe_statement_journal_files() - before
        }
        #expect(spilledByInserts == 0, "4,096 new rows in batches of 128 spilled \(spilledByInserts) statement journals to files")
        #expect(spilledByUpdate > 0, "the probe saw no statement journal file for a statement that must keep one")
        let stored = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM txn") }
        #expect(stored == 4_096)
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
