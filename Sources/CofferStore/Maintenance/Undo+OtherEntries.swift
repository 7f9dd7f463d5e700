import Foundation
import GRDB

/// What the other ledger entries say of the rows an undo touches: the rows they listed unchanged, whether they
/// inserted or changed them, and the order to delete rows in. `revert` (Undo.swift) decides with these which rows
/// stay.
extension StoreWriter {
    /// What the live entries other than `id` (only later ones with `laterOnly`) listed unchanged.
    func listings(otherThan id: Int64, laterOnly: Bool) throws -> [UUID: Listing] {
        var out: [UUID: Listing] = [:]
        for blob in try Data.fetchAll(db, sql: """
            SELECT s.ids FROM import_listing s JOIN import_ledger l ON l.id = s.import_id
            WHERE l.undone_by IS NULL AND l.id != ? AND l.id > ?
            """, arguments: [id, laterOnly ? id : -1]) {
            Listing.decode(blob, into: &out)
        }
        return out
    }

    /// What the change log says of one transaction, for undo (`insertionHistory`).
    struct InsertionFacts {
        /// Whether the import that last inserted it was undone; nil when none inserted it.
        var lastInsertUndone: Bool?
        /// Whether a live entry other than the one being undone inserted or changed it.
        var changedByOthers = false
        /// The change-log sequence of its last insertion.
        private var lastInsertSeq = Int64.min

        /// Takes in one change-log row of the transaction.
        fileprivate mutating func note(seq: Int64, isInsert: Bool, undone: Bool, byOthers: Bool) {
            if isInsert, seq > lastInsertSeq {
                lastInsertSeq = seq
                lastInsertUndone = undone
            }
            if byOthers { changedByOthers = true }
        }
    }

    /// For each of `ids` the change log names: whether the import that last inserted it was undone (nil when none
    /// inserted it), and whether a live entry other than `id` inserted or changed it.
    ///
    /// One pass over the transactions' change log for all of them: the log has no index by entity id (an import
    /// would pay for it on every row), so a search per row read the whole log each time, and undoing an import
    /// that kept 10,000 rows alive took a minute (a million: days).
    static func insertionHistory(_ db: Database, of ids: Set<UUID>, other id: Int64) throws -> [UUID: InsertionFacts] {
        guard !ids.isEmpty else { return [:] }
        var history: [UUID: InsertionFacts] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT c.entity_id, c.seq, c.op = 0, c.import_id, l.undone_by IS NOT NULL, l.kind = 'undo'
            FROM change_log c JOIN import_ledger l ON l.id = c.import_id WHERE c.entity = 2
            """)
        while let row = try rows.next() {
            guard let entity = UUID.fromDatabaseValue(row[0]), ids.contains(entity) else { continue }
            let seq: Int64 = row[1], isInsert: Bool = row[2], importID: Int64 = row[3], undone: Bool = row[4], isUndo: Bool = row[5]
            // Changed in place: one look-up a change-log row, and one table (the sequence beside the facts).
            history[entity, default: InsertionFacts()].note(seq: seq, isInsert: isInsert, undone: undone,
                                                             byOthers: importID != id && !undone && !isUndo)
        }
        return history
    }

    /// `ids` in the order of the primary-key index (SQLite compares blobs bytewise), which for time-ordered ids is
    /// the order they were made in. Deleting rows in a set's order reached every page of the table's indexes at
    /// random: with the writer's small page cache, each delete wrote pages out to the log again (undoing a `--force`
    /// import that kept 100k rows alive took 7 s, mostly in the kernel).
    static func inKeyOrder(_ ids: some Collection<UUID>) -> [UUID] {
        ids.map { id in
            withUnsafeBytes(of: id.uuid) {
                (UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)), id)
            }
        }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        .map(\.2)
    }
}
