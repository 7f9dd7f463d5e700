import CofferModel
import Foundation
import GRDB

/// Which ledger entries an undo reverts (docs/undo.md): the entry, and with `cascade` every later one that depends
/// on it; refused, naming them, without.
extension StoreWriter {
    struct LedgerEntry {
        var id: Int64
        var kind: ImportRecord.Kind
        var path: String
        var format: String
        var profile: String?
    }

    private func ledgerEntry(_ id: Int64) throws -> (LedgerEntry, ImportRecord)? {
        guard let entry = try LedgerRecord.fetchOne(db, key: id) else { return nil }
        let record = entry.importRecord(horizon: try FinanceStore.horizon(db))
        return (LedgerEntry(id: id, kind: record.kind, path: record.path, format: record.format, profile: record.profile), record)
    }

    /// The entries to revert for undoing `id`, newest first: `id` alone, or with `cascade` every later import
    /// that depends on it (transitively). Throws, naming them, when later imports depend on it without `cascade`.
    func undoPlan(_ id: Int64, cascade: Bool) throws -> [LedgerEntry] {
        guard let (entry, record) = try ledgerEntry(id) else {
            throw CofferError(.usage, "the import ledger has no entry \(id) (coffer imports lists them)")
        }
        guard record.undoable else {
            if record.kind == .undo {
                throw CofferError(.usage, "entry \(id) is itself an undo; import the file again to redo it")
            }
            throw CofferError(.usage, "import \(id) (\(record.path)) is \(record.status ?? "not undoable")")
        }
        var plan: [Int64: LedgerEntry] = [id: entry]
        var queue = [id]
        while let next = queue.popLast() {
            for dependent in try dependents(of: next) where plan[dependent.id] == nil {
                guard let (later, laterRecord) = try ledgerEntry(dependent.id) else { continue }
                guard cascade else {
                    let names = try dependents(of: id).map { "\($0.id) (\($0.path))" }.joined(separator: ", ")
                    throw CofferError(.usage, "import \(id) (\(record.path)) cannot be undone alone: later imports changed "
                                      + "rows it wrote: \(names); undo those first, or use --cascade to undo them too")
                }
                guard laterRecord.undoable else {
                    throw CofferError(.usage, "import \(id) cannot be undone: the later import \(later.id) (\(later.path)) "
                                      + "changed the same rows and is \(laterRecord.status ?? "not undoable")")
                }
                plan[later.id] = later
                queue.append(later.id)
            }
        }
        return plan.values.sorted { $0.id > $1.id }
    }

    /// Later live entries that changed rows `id` wrote, in the change log or silently (new keys: the undo journal).
    /// (Rows a later import added to an account `id` created do
    /// not depend on it: the account stays while anything is left in it.)
    private func dependents(of id: Int64) throws -> [(id: Int64, path: String)] {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS undo_scope(id BLOB PRIMARY KEY) WITHOUT ROWID;
            DELETE FROM undo_scope;
            INSERT OR IGNORE INTO undo_scope SELECT entity_id FROM change_log WHERE import_id = \(id);
            INSERT OR IGNORE INTO undo_scope SELECT id FROM undo_txn WHERE import_id = \(id);
            INSERT OR IGNORE INTO undo_scope SELECT id FROM undo_balance WHERE import_id = \(id);
            INSERT OR IGNORE INTO undo_scope SELECT id FROM undo_account WHERE import_id = \(id);
            """)
        // A link also decides where later statements of either account land (its aliases): every later import
        // that changed or recorded a statement in the two accounts depends on it.
        let isLink = try String.fetchOne(db, sql: "SELECT kind FROM import_ledger WHERE id = ?", arguments: [id]) == ImportRecord.Kind.link.rawValue
        return try Row.fetchAll(db, sql: """
            SELECT DISTINCT l.id, l.path FROM change_log c JOIN import_ledger l ON l.id = c.import_id
            WHERE c.import_id > ? AND l.undone_by IS NULL AND l.kind != 'undo'
              AND (c.entity_id IN (SELECT id FROM temp.undo_scope)
                   OR (? AND c.account_id IN (SELECT account_id FROM change_log WHERE import_id = ?)))
            UNION
            -- Changes no reader sees (a re-issued id, a text another statement repeats) are journaled, not logged.
            SELECT DISTINCT l.id, l.path FROM undo_txn u JOIN import_ledger l ON l.id = u.import_id
            WHERE u.import_id > ? AND l.undone_by IS NULL AND l.kind != 'undo' AND u.id IN (SELECT id FROM temp.undo_scope)
            UNION
            SELECT DISTINCT l.id, l.path FROM statement_period p JOIN import_ledger l ON l.id = p.import_id
            WHERE ? AND p.import_id > ? AND l.undone_by IS NULL
              AND p.account_id IN (SELECT account_id FROM change_log WHERE import_id = ?)
            ORDER BY 1
            """, arguments: [id, isLink, id, id, isLink, id, id]).map { ($0[0], $0[1]) }
    }
}
