import Foundation
import GRDB

/// New transactions held by the writer until a batch of them is written with one statement per table.
///
/// Why: SQLite's share of an import was two prepared statements a row, 8.5 µs of CPU a transaction, most of it the
/// cost of running a statement rather than of the row (`scripts/bench/batch_cost.c`: 9.6 µs a row at one row a
/// statement, 5.8 µs at 128). The inserts of a statement into an account that held nothing before it make no
/// look-up between them (`Matcher.decide`'s fresh path), so they can wait.
///
/// The rule that keeps this invisible: every use of the connection goes through `StoreWriter.db`, which writes the
/// held rows first (alone when fewer than a batch), and the end of `FinanceStore.write` writes the rest. A look-up,
/// an update or another change-log row therefore sees the store as if each insert had been written when it was
/// made, and the change log keeps the order the changes were made in.
///
/// Both statements say `INSERT OR FAIL`, and `txn.account_id`'s foreign key is deferred (migration v22), so SQLite
/// keeps no statement journal for them. Under the default `ABORT` rule a statement of many rows must be able to undo
/// itself when one row fails: about 150 KiB of copied pages a batch, past the 120 KiB `CSQLiteTuning` keeps in
/// memory, so a file (docs/benchmarks.md, "the batches' statement journal"). A failing row stops the import
/// whichever rule applies, and the import's transaction rolls back whole, so the rows of the batch before it never
/// matter.
struct InsertBatch {
    /// Rows per statement: 128 rows of `txn`'s 27 columns bind 3,456 parameters (SQLite allows 32,766). Tests
    /// compare other sizes with `Int.max`, which writes every row alone.
    let size: Int
    var rows: [TxnValues] = []
    /// The import the held rows belong to (`StoreWriter.importID` when the first was held).
    var importID: Int64?
    var logStatement: BoundStatement?
    var insertStatement: BoundStatement?

    init(size: Int = 128) {
        self.size = size
    }

    /// Binds a held row's change-log parameters (id, account, day) from `first` on. `inout` though it changes
    /// nothing: a row read through a subscript is copied (above), one reached as `inout` is not.
    @inline(__always)
    static func bindLog(_ row: inout TxnValues, to s: BoundStatement, at first: CInt) throws {
        try s.bind(first, row.transaction.id)
        try s.bind(first + 1, row.transaction.accountID)
        try s.bind(first + 2, Int64(row.transaction.localDay))
    }

    /// Gives a held row its change-log sequence number and binds its columns after the first `offset` parameters.
    @inline(__always)
    static func bindRow(_ row: inout TxnValues, createdSeq: Int64, to s: BoundStatement, after offset: CInt) throws {
        row.createdSeq = createdSeq
        try row.bindAll(to: s, after: offset)
    }

    /// `rows` change-log rows, one per insert: the writer's time as ?1, the import as ?2, then each row's id,
    /// account and local day.
    static func logSQL(rows: Int) -> String {
        let values = (0..<rows).map { k in
            "(\(EntityKind.transaction.rawValue), \(ChangeOp.insert.rawValue), ?\(3 + 3 * k), ?\(4 + 3 * k), ?1, ?2, ?\(5 + 3 * k), NULL)"
        }
        return "INSERT OR FAIL INTO change_log(entity, op, entity_id, account_id, committed_at, import_id, day, prior_day) VALUES "
            + values.joined(separator: ", ")
    }

    /// `rows` rows of `TxnColumn.insertSQL`.
    static func insertSQL(rows: Int) -> String {
        let columns = TxnColumn.allCases.map(\.name).joined(separator: ", ")
        let row = "(" + Array(repeating: "?", count: TxnColumn.allCases.count).joined(separator: ", ") + ")"
        return "INSERT OR FAIL INTO txn(\(columns)) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}

extension StoreWriter {
    /// Holds a new row (its `createdSeq` is given when it is written); a full batch is written at once.
    func hold(_ values: consuming TxnValues) throws {
        if !batch.rows.isEmpty, batch.importID != importID { try flushInserts() }
        if batch.rows.isEmpty {
            batch.importID = importID
            batch.rows.reserveCapacity(min(batch.size, 1024))
        }
        batch.rows.append(consume values)  // moved: a copy retained its strings
        if batch.rows.count == batch.size { try flushInserts() }
    }

    /// Writes the held rows: a full batch with one statement per table, fewer one by one.
    func flushInserts() throws {
        guard !batch.rows.isEmpty else { return }
        // The rows leave the batch before they are written (writing one asks for `db`, which would write them
        // again), and their buffer comes back empty: a flush of one row then allocates nothing, where emptying a
        // buffer still shared with a copy would have allocated a new one of the batch's capacity.
        var rows: [TxnValues] = []
        swap(&rows, &batch.rows)
        defer {
            rows.removeAll(keepingCapacity: true)
            if batch.rows.isEmpty { batch.rows = rows }
        }
        if rows.count < batch.size {
            for k in rows.indices { try insertNow(&rows[k]) }
            return
        }
        if batch.logStatement == nil {
            batch.logStatement = try BoundStatement(connection, sql: InsertBatch.logSQL(rows: rows.count))
            batch.insertStatement = try BoundStatement(connection, sql: InsertBatch.insertSQL(rows: rows.count))
        }
        let log = batch.logStatement!
        let insert = batch.insertStatement!
        let now = self.now, importID = batch.importID, connection = self.connection
        // Each row is reached as `inout` (`InsertBatch.bindLog`, `.bindRow`): read through the array's or the
        // buffer's subscript, each row was copied, its fifteen strings retained and released again (callgrind: 770
        // instructions and 30 atomic reference counts a row).
        try rows.withUnsafeMutableBufferPointer { held in
            try log.bind(1, now)
            try log.bind(2, importID)
            for k in held.indices { try InsertBatch.bindLog(&held[k], to: log, at: CInt(3 + 3 * k)) }
            try log.step()
            // `change_log.seq` is AUTOINCREMENT and this connection the only writer: one statement's rows take
            // consecutive numbers, the last of them last_insert_rowid().
            let last = connection.lastInsertedRowID
            let width = CInt(TxnColumn.allCases.count)
            for k in held.indices {
                try InsertBatch.bindRow(&held[k], createdSeq: last - Int64(held.count - 1 - k), to: insert,
                                        after: CInt(k) * width)
            }
        }
        try insert.step()
    }
}
