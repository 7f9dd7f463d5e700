import CofferModel
import Foundation
import GRDB

/// What undoing imports did (with `dryRun`, would do): one entry per reverted import, newest first.
public struct UndoReport: Sendable, Codable {
    /// One reverted import.
    public struct Reverted: Sendable, Codable {
        /// The ledger entry reverted.
        public var importID: Int64
        /// The ledger entry that records the reversal (in a dry run, the number it would have had).
        public var undoID: Int64
        /// The statement file the import read.
        public var path: String
        /// Transactions the import inserted, deleted again (no tombstone: the file can be imported again).
        public var removed = 0
        /// Transactions it changed, back to their values before it.
        public var restored = 0
        /// Transactions it deleted (pending rows it retired), back with their old ids.
        public var reinserted = 0
        /// Transactions it inserted or changed that a later import lists as they are now: kept as they are.
        public var kept = 0
        /// Balances it added, removed; accounts it created, removed.
        public var balancesRemoved = 0
        /// Accounts the import created, removed.
        public var accountsRemoved = 0
    }

    /// The imports reverted, newest first.
    public var reverted: [Reverted] = []
    /// Whether nothing was written (the report says what an undo would do).
    public var dryRun: Bool
}

extension FinanceStore {
    /// Reverts an import (or a link) in one transaction: what it inserted is deleted, what it changed gets the
    /// values it had before, what it deleted comes back with its old id; its ledger entry is marked undone, so
    /// the same file imports again. History shows exactly these reverting changes.
    ///
    /// When a later import changed rows this one touched, the undo is refused naming them, unless `cascade` undoes those too, newest first. A row this import
    /// inserted that a later import lists unchanged stays: the later statement says it exists. See docs/undo.md.
    @discardableResult
    public func undoImport(_ id: Int64, cascade: Bool = false, dryRun: Bool = false) throws -> UndoReport {
        try write(dryRun: dryRun) { writer in
            var report = UndoReport(dryRun: dryRun)
            for entry in try writer.undoPlan(id, cascade: cascade) {
                report.reverted.append(try writer.revert(entry))
            }
            return report
        }
    }
}

extension StoreWriter {
    // The columns of the journaled tables, from their descriptions (the `undo_*` mirrors hold the same columns, as
    // `everyJournaledTableHasAWholeMirror` checks). The first is the key; a `txn` or `balance` row's second is its
    // account.
    private static let txnColumns = TxnColumn.allCases.map(\.name)
    /// The columns history tells about (not the dedupe keys or the sequence of creation); the local day follows
    /// from the date and the offset.
    private static let txnContent = TxnColumn.allCases.filter { $0 != .id && $0.rawValue <= TxnColumn.utcOffset.rawValue }
        .map { Int($0.rawValue) } + [Int(TxnColumn.amountScaled.rawValue)]
    private static let accountColumns = AccountRecord.CodingKeys.allCases.map(\.stringValue)
    private static let aliasColumns = AccountAliasRecord.CodingKeys.allCases.map(\.stringValue)
    private static let balanceColumns = BalanceRecord.CodingKeys.allCases.map(\.stringValue)

    /// The oldest image per row an entry journaled in `undo_<table>`: the rows as they were before it.
    private func images(_ table: String, _ columns: [String], of id: Int64) throws -> [(image: Int64, values: [DatabaseValue])] {
        var seen = Set<DatabaseValue>()
        var out: [(Int64, [DatabaseValue])] = []
        for row in try Row.fetchAll(db, sql: """
            SELECT image, \(columns.joined(separator: ", ")) FROM undo_\(table) WHERE import_id = ? ORDER BY image
            """, arguments: [id]) {
            let values = Array(row.databaseValues.dropFirst())
            if seen.insert(values[0]).inserted { out.append((row[0], values)) }
        }
        return out
    }

    /// The statements `current` and `apply` run once per row undone, their SQL made once.
    private static let selectSQL = Dictionary(uniqueKeysWithValues: [("txn", txnColumns), ("account", accountColumns),
                                                                     ("balance", balanceColumns)].map { table, columns in
        (table, "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(columns[0]) = ?")
    })
    private static let replaceTxnSQL = """
        INSERT OR REPLACE INTO txn(\(txnColumns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: txnColumns.count).joined(separator: ", ")))
        """

    /// The row of `table` (`txn`, `account` or `balance`, with its `columns`) whose key is `key`, as it is now.
    private func current(_ table: String, _ columns: [String], key: DatabaseValue) throws -> [DatabaseValue]? {
        // Cached statements here and in `apply`: each runs once per row undone, and preparing a 27-column
        // statement every time was most of an undo's time (0.18 ms a row). The values are read from the cursor's
        // row, which reads the statement in place: `Row.fetchOne` copied the row with its 27 column names first
        // (a tenth of an undo's time), and building the SQL text for each call another twentieth.
        let rows = try Row.fetchCursor(db.cachedStatement(sql: Self.selectSQL[table]!), arguments: [key])
        guard let row = try rows.next() else { return nil }
        let values = Array(row.databaseValues)
        _ = try rows.next()  // the key is unique: this ends the cursor, which resets the statement
        return values
    }

    private func put(_ table: String, _ columns: [String], image: Int64) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO \(table)(\(columns.joined(separator: ", ")))
            SELECT \(columns.joined(separator: ", ")) FROM undo_\(table) WHERE image = ?
            """, arguments: [image])
    }

    private func uuid(_ value: DatabaseValue) -> UUID { UUID.fromDatabaseValue(value)! }

    private static let dateColumn = Int(TxnColumn.transactionDate.rawValue)
    private static let offsetColumn = Int(TxnColumn.utcOffset.rawValue)
    private static let localDayColumn = Int(TxnColumn.localDay.rawValue)
    private static let balanceAsOfColumn = BalanceRecord.CodingKeys.allCases.firstIndex(of: .asOf)!

    /// A whole `txn` row's local day, for the change log.
    private static func localDay(_ row: [DatabaseValue]) -> Int? { Int.fromDatabaseValue(row[localDayColumn]) }

    /// A whole `balance` row's day, for the change log (`StoreWriter.balanceDay`).
    private static func balanceDay(_ row: [DatabaseValue]) -> Int? {
        Int64.fromDatabaseValue(row[balanceAsOfColumn]).map { StoreWriter.balanceDay(asOf: $0) }
    }

    /// Moves a row's date to a listing's when the listing's is earlier (the earliest a standing statement gives),
    /// with its offset and local day. A listing that says no offset at the row's own instant (noted before offsets
    /// were kept) leaves the row's offset.
    private static func redate(_ row: inout [DatabaseValue], to listing: Listing, always: Bool) {
        let millis = Int64.fromDatabaseValue(row[dateColumn]) ?? listing.date
        let offset = Int.fromDatabaseValue(row[offsetColumn])
        if listing.date == millis, listing.offset == nil { return }
        guard always || Listing.isEarlier(listing.date, listing.offset, than: millis, offset) else { return }
        row[dateColumn] = listing.date.databaseValue
        row[offsetColumn] = listing.offset.databaseValue
        row[localDayColumn] = CalendarDay.localDay(Rows.date(listing.date), offset: listing.offset).databaseValue
    }

    /// Writes `desired` (a whole `txn` row, or nil for none) over `now`, logging what history should see.
    private func apply(_ desired: [DatabaseValue]?, over now: [DatabaseValue]?, _ result: inout UndoReport.Reverted) throws {
        guard desired != now else { return }
        guard let desired else {
            guard let now else { return }
            try log(.transaction, .delete, id: uuid(now[0]), accountID: uuid(now[1]), day: Self.localDay(now))
            try db.cachedStatement(sql: "DELETE FROM txn WHERE id = ?").execute(arguments: [now[0]])
            transactionCounts.deleted += 1
            result.removed += 1
            return
        }
        try db.cachedStatement(sql: Self.replaceTxnSQL).execute(arguments: StatementArguments(desired))
        let id = uuid(desired[0])
        guard let now else {
            try log(.transaction, .insert, id: id, accountID: uuid(desired[1]), day: Self.localDay(desired))
            transactionCounts.inserted += 1
            result.reinserted += 1
            return
        }
        if now[1] != desired[1] {
            // Moved between accounts (a link): gone from one account's history, new in the other's.
            try log(.transaction, .delete, id: id, accountID: uuid(now[1]), day: Self.localDay(now))
            try log(.transaction, .insert, id: id, accountID: uuid(desired[1]), day: Self.localDay(desired))
            transactionCounts.deleted += 1
            transactionCounts.inserted += 1
            result.restored += 1
        } else if Self.txnContent.contains(where: { now[$0] != desired[$0] }) {
            try log(.transaction, .update, id: id, accountID: uuid(desired[1]), day: Self.localDay(desired),
                    priorDay: Self.localDay(now))
            transactionCounts.updated += 1
            result.restored += 1
        }
    }

    /// Reverts one entry whose dependents are reverted already.
    func revert(_ entry: LedgerEntry) throws -> UndoReport.Reverted {
        let target = entry.id
        transactionCounts = ChangeCounts()
        try beginLedgerEntry(kind: .undo, sha256: "", path: entry.path, format: entry.format, profile: entry.profile)
        var result = UndoReport.Reverted(importID: target, undoID: importID!, path: entry.path)

        // Accounts first: their values before (an account a link deleted comes back before its rows do).
        for (image, before) in try images("account", Self.accountColumns, of: target) {
            let now = try current("account", Self.accountColumns, key: before[0])
            guard now != before else { continue }
            try put("account", Self.accountColumns, image: image)
            let id = uuid(before[0])
            if now == nil || (1...12).contains(where: { now![$0] != before[$0] && $0 != 1 && $0 != 8 }) {
                try log(.account, now == nil ? .insert : .update, id: id, accountID: id)
            }
        }
        // Statements it recorded go; the ones a link moved go back to the account it removed.
        try db.execute(sql: "DELETE FROM statement_period WHERE import_id = ?", arguments: [target])
        if entry.kind == .link, let removed = try UUID.fetchOne(db, sql: """
            SELECT entity_id FROM change_log WHERE import_id = ? AND entity = 0 AND op = 2 LIMIT 1
            """, arguments: [target]) {
            try db.execute(sql: """
                UPDATE statement_period SET account_id = ?
                WHERE id IN (SELECT row_key FROM undo_added WHERE import_id = ? AND tbl = 'statement_period')
                """, arguments: [removed, target])
        }

        // Aliases: the ones it added go, the ones it repointed or removed come back.
        try db.execute(sql: """
            DELETE FROM account_alias WHERE identity_key IN
                (SELECT row_key FROM undo_added WHERE import_id = ? AND tbl = 'account_alias')
            """, arguments: [target])
        for (image, _) in try images("account_alias", Self.aliasColumns, of: target) {
            try put("account_alias", Self.aliasColumns, image: image)
        }

        // Transactions. A row stays when a live import lists it too, dated by the earliest day those listings
        // give; with values from before when only other sources list it (they did not change it), as they are
        // now when its own source lists it as it is now.
        // (A link's insertions are moves: its journal has the rows as they were.)
        let inserted = entry.kind == .link ? [] : try UUID.fetchAll(db, sql: """
            SELECT entity_id FROM change_log WHERE import_id = ? AND entity = 2 AND op = 0 ORDER BY seq
            """, arguments: [target])
        let insertedSet = Set(inserted)
        // A link inserts nothing and moves rows: they go back where they were, whatever later imports listed
        // (those found them through the link's aliases).
        let later = entry.kind == .link ? [:] : try listings(otherThan: target, laterOnly: true)
        let others = entry.kind == .link ? [:] : try listings(otherThan: target, laterOnly: false)
        let insertedHistory = try Self.insertionHistory(db, of: insertedSet.filter { others[$0] == nil }, other: target)
        for id in inserted {
            guard var now = try current("txn", Self.txnColumns, key: id.databaseValue) else { continue }
            if let listing = others[id] {
                result.kept += 1
                let before = now
                Self.redate(&now, to: listing, always: true)
                try apply(now, over: before, &result)
                continue
            }
            if insertedHistory[id]?.changedByOthers == true {
                result.kept += 1
                continue
            }
            try apply(nil, over: now, &result)
        }
        for (_, before) in try images("txn", Self.txnColumns, of: target) {
            let id = uuid(before[0])
            if insertedSet.contains(id) { continue }
            let now = try current("txn", Self.txnColumns, key: before[0])
            var desired = before
            if let now, let listing = later[id] {
                if listing.sameSource { desired = now }
                // The earlier of the listing's date and the row's before (offset and local day with it).
                var dated = desired
                for (column, value) in [Self.dateColumn, Self.offsetColumn, Self.localDayColumn].map({ ($0, before[$0]) }) {
                    dated[column] = value
                }
                Self.redate(&dated, to: listing, always: false)
                for column in [Self.dateColumn, Self.offsetColumn, Self.localDayColumn] { desired[column] = dated[column] }
                result.kept += 1
            }
            try apply(desired, over: now, &result)
        }
        // Rows it only listed, inserted by an import undone before while this one kept them alive.
        if let blob = try Data.fetchOne(db, sql: "SELECT ids FROM import_listing WHERE import_id = ?", arguments: [target]) {
            var own: [UUID: Listing] = [:]
            Listing.decode(blob, into: &own)
            let candidates = Set(own.keys.filter { others[$0] == nil && !insertedSet.contains($0) })
            // Asked now, not with the inserted rows above: the journal's rows put back since are inserts of this
            // undo's entry, and a row put back is not removed.
            let history = try Self.insertionHistory(db, of: candidates, other: target)
            for id in Self.inKeyOrder(candidates) {
                // The row goes when the import that last inserted it was undone and no live entry but this one
                // inserted or changed it.
                guard let facts = history[id], facts.lastInsertUndone == true, !facts.changedByOthers,
                      let now = try current("txn", Self.txnColumns, key: id.databaseValue)
                else { continue }
                try apply(nil, over: now, &result)
            }
        }

        // What it added to tables without a change log: tombstones go; open-row listings go back, unless a later
        // live import noted the same row since.
        try db.execute(sql: """
            DELETE FROM tombstone WHERE rowid IN (SELECT row_key FROM undo_added WHERE import_id = ? AND tbl = 'tombstone')
            """, arguments: [target])
        let laterListings = "SELECT row_key FROM undo_added a JOIN import_ledger l ON l.id = a.import_id "
            + "WHERE a.tbl = 'open_listing' AND a.import_id > ? AND l.undone_by IS NULL "
            + "UNION SELECT transaction_id FROM undo_open_listing o JOIN import_ledger l ON l.id = o.import_id "
            + "WHERE o.import_id > ? AND l.undone_by IS NULL"
        try db.execute(sql: """
            DELETE FROM open_listing WHERE transaction_id IN
                (SELECT row_key FROM undo_added WHERE import_id = ? AND tbl = 'open_listing')
            AND transaction_id NOT IN (\(laterListings))
            """, arguments: [target, target, target])
        for (image, before) in try images("open_listing", ["transaction_id", "as_of"], of: target) {
            let later = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM (\(laterListings)) WHERE row_key = ?)",
                                          arguments: [target, target, before[0]]) ?? false
            if !later { try put("open_listing", ["transaction_id", "as_of"], image: image) }
        }

        // Balances.
        for id in entry.kind == .link ? [] : try UUID.fetchAll(db, sql: """
            SELECT entity_id FROM change_log WHERE import_id = ? AND entity = 1 AND op = 0
            """, arguments: [target]) {
            guard let now = try current("balance", Self.balanceColumns, key: id.databaseValue) else { continue }
            try log(.balance, .delete, id: id, accountID: uuid(now[1]), day: Self.balanceDay(now))
            try db.execute(sql: "DELETE FROM balance WHERE id = ?", arguments: [id])
            result.balancesRemoved += 1
        }
        for (image, before) in try images("balance", Self.balanceColumns, of: target) {
            let now = try current("balance", Self.balanceColumns, key: before[0])
            guard now != before else { continue }
            try put("balance", Self.balanceColumns, image: image)
            if let now, now[1] != before[1] {
                try log(.balance, .delete, id: uuid(before[0]), accountID: uuid(now[1]), day: Self.balanceDay(now))
            }
            let moved = now == nil || now![1] != before[1]
            try log(.balance, moved ? .insert : .update, id: uuid(before[0]), accountID: uuid(before[1]), day: Self.balanceDay(before),
                    priorDay: moved ? nil : now.flatMap(Self.balanceDay))
        }

        // Accounts it created go when nothing is left in them.
        for id in try UUID.fetchAll(db, sql: "SELECT entity_id FROM change_log WHERE import_id = ? AND entity = 0 AND op = 0",
                                    arguments: [target]) {
            let used = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM txn WHERE account_id = ?1) OR EXISTS (SELECT 1 FROM balance WHERE account_id = ?1)
                """, arguments: [id]) ?? true
            guard !used, try current("account", Self.accountColumns, key: id.databaseValue) != nil else { continue }
            try log(.account, .delete, id: id, accountID: id)
            try db.execute(sql: "DELETE FROM account_legacy_currency WHERE account_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id])
            result.accountsRemoved += 1
        }

        // The entry is undone; its journal is spent.
        for table in ["undo_txn", "undo_account", "undo_balance", "undo_open_listing", "undo_account_alias", "undo_added",
                      "import_listing"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE import_id = ?", arguments: [target])
        }
        try db.execute(sql: "UPDATE import_ledger SET undone_by = ? WHERE id = ?", arguments: [importID, target])
        try finishImport(unchanged: result.kept)
        return result
    }
}
