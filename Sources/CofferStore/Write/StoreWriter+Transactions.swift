import CofferModel
import Foundation
import GRDB
import GRDBSQLite

/// The transaction half of `StoreWriter`: look-ups by institution id, fingerprint, day and status; inserts,
/// updates and deletes with their change-log rows and tombstones.
extension StoreWriter {
    /// The stored transactions `sql` (a `SELECT` of `TxnColumn.storedList`) returns.
    func stored(_ sql: String, _ arguments: StatementArguments) throws -> [StoredTransaction] {
        try db.fastRows(sql, arguments: arguments, TxnRows.stored)
    }

    package func transaction(id: UUID) throws -> StoredTransaction? {
        try stored("SELECT \(TxnColumn.storedList) FROM txn WHERE id = ?", [id]).first
    }

    /// The transaction the institution knows by `externalID` in this account.
    package func transaction(accountID: UUID, externalID: String) throws -> StoredTransaction? {
        try stored("SELECT \(TxnColumn.storedList) FROM txn WHERE account_id = ? AND external_id = ?", [accountID, externalID]).first
    }

    /// The transaction the institution knows by `externalID` in this account, if any: its id, and whether every
    /// stored value equals `t`'s (a re-import of it changes nothing). One index look-up comparing in SQL, no row
    /// decoded: the common case of a re-imported or overlapping statement. `amounts` must be `EncodedAmounts(t)`.
    /// A row stored before offsets were kept (`utc_offset` NULL) at the same instant and on the same day is
    /// unchanged: re-importing an old file does not rewrite it.
    package func externalIDMatch(accountID: UUID, externalID: String, comparedWith t: Transaction,
                                amounts: EncodedAmounts) throws -> (id: UUID, unchanged: Bool)? {
        let db = try self.db  // (writes held inserts: the statement below is stepped without asking for `db`)
        if externalIDStatement == nil { externalIDStatement = try BoundStatement(db, sql: TxnColumn.externalIDMatchSQL) }
        let s = externalIDStatement!
        try TxnValues.bind(TxnColumn.externalIDMatchParameters, to: s, t, amounts, DedupeKeys(externalID: externalID),
                           accountID: accountID)
        return try s.firstRow { handle -> (id: UUID, unchanged: Bool)? in
            guard sqlite3_column_bytes(handle, 0) == 16, let bytes = sqlite3_column_blob(handle, 0) else { return nil }
            return (UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)), sqlite3_column_int64(handle, 1) == 1)
        } ?? nil
    }

    /// The transaction without an institution id with this content fingerprint and occurrence number in this
    /// account. (Records that carry the institution's id are matched by it, never by content.)
    package func transaction(accountID: UUID, fingerprint: String, occurrence: Int) throws -> StoredTransaction? {
        try stored("""
            SELECT \(TxnColumn.storedList) FROM txn
            WHERE account_id = ? AND fingerprint = ? AND occurrence = ? AND external_id IS NULL
            """, [accountID, fingerprint, occurrence]).first
    }

    /// Pending and authorized transactions of an account on the local days `fromDay...throughDay`, oldest first.
    package func openTransactions(accountID: UUID, fromDay: Int, throughDay: Int) throws -> [StoredTransaction] {
        let range = Rows.dateRange(fromDay: fromDay, throughDay: throughDay)
        return try stored(OpenRowSQL.inDays, [accountID, range.start, range.end, fromDay, throughDay])
    }

    /// Booked transactions of an account on the local days `fromDay...throughDay` in this direction with an amount in
    /// `amounts`: the booked rows an older listing of a pending record may be (docs/dedupe.md), by day.
    package func bookedTransactions(accountID: UUID, fromDay: Int, throughDay: Int, amounts: ClosedRange<Decimal>,
                                   indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
        let range = Rows.dateRange(fromDay: fromDay, throughDay: throughDay)
        return try stored("""
            SELECT \(TxnColumn.storedList) FROM txn
            WHERE account_id = ? AND status = 1 AND transaction_date >= ? AND transaction_date < ?
              AND local_day BETWEEN ? AND ? AND amount_scaled BETWEEN ? AND ? AND indicator = ?
            ORDER BY local_day, transaction_date, id
            """, [accountID, range.start, range.end, fromDay, throughDay, Rows.scaled(amounts.lowerBound),
                  Rows.scaled(amounts.upperBound), indicator.rawValue])
    }

    /// Whether a transaction with this institution id was deleted from the account before, for a statement as of
    /// `asOf` (ms): a pending row retired by a statement older than that one does not count (nil: every tombstone).
    package func isDeleted(accountID: UUID, externalID: String, asOf: Int64? = nil) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT 1 FROM tombstone WHERE account_id = ?1 AND external_id = ?2
            AND (retired_as_of IS NULL OR ?3 IS NULL OR retired_as_of >= ?3) LIMIT 1
            """), arguments: [accountID, externalID, asOf]) ?? false
    }

    /// The transaction that carried this institution id before it was retired (deleted, booked from pending, or
    /// given a re-issued id), if any.
    package func retiredOwner(accountID: UUID, externalID: String) throws -> UUID? {
        try UUID.fetchOne(db.cachedStatement(sql: """
            SELECT transaction_id FROM tombstone WHERE account_id = ? AND external_id = ? ORDER BY deleted_seq DESC LIMIT 1
            """), arguments: [accountID, externalID])
    }

    /// Whether a transaction with this fingerprint and occurrence was deleted from the account before, for a
    /// statement as of `asOf` (ms), as `isDeleted(accountID:externalID:asOf:)` counts tombstones.
    package func isDeleted(accountID: UUID, fingerprint: String, occurrence: Int, asOf: Int64? = nil) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT 1 FROM tombstone WHERE account_id = ?1 AND fingerprint = ?2 AND occurrence = ?3
            AND (retired_as_of IS NULL OR ?4 IS NULL OR retired_as_of >= ?4) LIMIT 1
            """), arguments: [accountID, fingerprint, occurrence, asOf]) ?? false
    }

    package func insert(_ transaction: Transaction, keys: DedupeKeys) throws {
        try insert(transaction, keys: keys, amounts: EncodedAmounts(transaction))
    }

    /// Inserts a transaction whose amounts were encoded beforehand (`amounts` must be `EncodedAmounts(transaction)`).
    /// The hot path of an import: the row waits in `batch`, and is written with the next full batch, or alone
    /// when anything asks for `db` first (see `StoreWriter+InsertBatch`).
    package func insert(_ t: consuming Transaction, keys: consuming DedupeKeys, amounts: consuming EncodedAmounts) throws {
        if amounts.exactScaled == nil { try noteInexactAmount(t.transactionAmount.amount) }
        // Moved into the row: taken borrowed, they were copied (strings retained) and the caller's released.
        try hold(TxnValues(transaction: t, amounts: amounts, keys: keys, valuesAsOf: statementAsOf, source: recordSource))
        transactionCounts.inserted += 1
    }

    /// Writes one row with its change-log row: two prepared statements bound value by value.
    func insertNow(_ values: inout TxnValues) throws {
        values.createdSeq = try log(.transaction, .insert, id: values.transaction.id,
                                    accountID: values.transaction.accountID, day: values.transaction.localDay)
        if insertStatement == nil { insertStatement = try BoundStatement(connection, sql: TxnColumn.insertSQL) }
        let s = insertStatement!
        try values.bindAll(to: s)
        try s.step()
    }

    /// Notes that the row's text is the current statement's too (another source listed the same words, newer):
    /// its `values_as_of` and `source` become the statement's. Nothing a reader sees changes: no change is logged.
    package func restampValues(ofTransaction id: UUID) throws {
        try db.cachedStatement(sql: """
            UPDATE OR FAIL txn SET values_as_of = COALESCE(?, values_as_of), source = COALESCE(?, source) WHERE id = ?
            """).execute(arguments: [statementAsOf, recordSource, id])
    }

    /// Replaces a stored transaction's values and keys (same id). Logs an update. The values are the current
    /// statement's (`statementAsOf`) unless `valuesFromStatement` is false (only the date moved, say).
    package func update(_ transaction: Transaction, keys: DedupeKeys, valuesFromStatement: Bool = true) throws {
        try noteInexactAmount(transaction.transactionAmount.amount)
        try log(.transaction, .update, id: transaction.id, accountID: transaction.accountID, day: transaction.localDay,
                priorDay: try storedLocalDay(ofTransaction: transaction.id))
        if updateStatement == nil { updateStatement = try BoundStatement(db, sql: TxnColumn.updateSQL) }
        let s = updateStatement!
        try TxnValues(transaction: transaction, amounts: EncodedAmounts(transaction), keys: keys,
                      valuesAsOf: valuesFromStatement ? statementAsOf : nil, source: valuesFromStatement ? recordSource : nil)
            .bind(TxnColumn.updateParameters, to: s)
        try s.step()
        transactionCounts.updated += 1
    }

    /// Deletes a transaction, leaving a tombstone with its keys so that a re-import does not bring it back. A
    /// pending row a statement retired passes that statement's as-of time: a newer statement's listing of it is
    /// not stopped by the tombstone (docs/dedupe.md).
    package func delete(_ stored: StoredTransaction, retiredAsOf: Date? = nil) throws {
        let t = stored.transaction
        let seq = try log(.transaction, .delete, id: t.id, accountID: t.accountID, day: try storedLocalDay(ofTransaction: t.id) ?? t.localDay)
        try db.cachedStatement(sql: "DELETE FROM txn WHERE id = ?").execute(arguments: [t.id])
        try db.cachedStatement(sql: """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq, retired_as_of)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [t.id, t.accountID, stored.keys.externalID, stored.keys.fingerprint, stored.keys.occurrence, seq,
                                     retiredAsOf.map(Rows.millis)])
        transactionCounts.deleted += 1
    }

    /// The account's transactions on the local days `fromDay...throughDay` with this amount and direction
    /// (candidates for the same transaction seen through another source, or under a re-issued id), by day.
    /// With `storedThrough`, only rows stored at or before that change-log sequence (`created_seq`): the rows of
    /// an import are then walked but never decoded.
    package func transactions(accountID: UUID, fromDay: Int, throughDay: Int, amount: Decimal,
                             indicator: CreditDebitIndicator, storedThrough: Int64? = nil) throws -> [StoredTransaction] {
        let range = Rows.dateRange(fromDay: fromDay, throughDay: throughDay)
        return try stored("""
            SELECT \(TxnColumn.storedList) FROM txn
            WHERE account_id = ? AND transaction_date >= ? AND transaction_date < ? AND local_day BETWEEN ? AND ?
              AND amount_scaled = ? AND indicator = ? AND created_seq <= ?
            ORDER BY local_day, transaction_date, id
            """, [accountID, range.start, range.end, fromDay, throughDay, Rows.scaled(amount), indicator.rawValue,
                  storedThrough ?? Int64.max])
    }

    /// The change log's last sequence number: every row stored until now has a `created_seq` at most this.
    package func lastSequence() throws -> Int64 { try FinanceStore.lastSequence(db) }

    /// Calls `body` with the local day, scaled amount (`amount_scaled`) and indicator of each of the account's rows
    /// on the local days given that was stored at or before change-log sequence `seq`: what a look-up among the
    /// rows stored before an import could find, without decoding the rows.
    package func amountKeys(accountID: UUID, fromDay: Int, throughDay: Int, storedThrough seq: Int64,
                            _ body: (_ day: Int, _ scaled: Int64, _ indicator: Int, _ id: UUID) -> Void) throws {
        let range = Rows.dateRange(fromDay: fromDay, throughDay: throughDay)
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT local_day, amount_scaled, indicator, id FROM txn
            WHERE account_id = ? AND transaction_date >= ? AND transaction_date < ? AND local_day BETWEEN ? AND ?
              AND created_seq <= ?
            """), arguments: [accountID, range.start, range.end, fromDay, throughDay, seq])
        while let row = try rows.next() { body(row[0], row[1], row[2], row[3]) }
    }

    /// `transactions(accountID:fromDay:throughDay:amount:indicator:)` among the rows `ids` only (each found by its
    /// id, then held to the same conditions), in the same order.
    package func transactions(ids: [UUID], accountID: UUID, fromDay: Int, throughDay: Int, amount: Decimal,
                              indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
        let range = Rows.dateRange(fromDay: fromDay, throughDay: throughDay)
        let scaled = Rows.scaled(amount)
        var rows: [StoredTransaction] = []
        for id in ids {
            rows += try stored("""
                SELECT \(TxnColumn.storedList) FROM txn
                WHERE id = ? AND account_id = ? AND transaction_date >= ? AND transaction_date < ? AND local_day BETWEEN ? AND ?
                  AND amount_scaled = ? AND indicator = ?
                """, [id, accountID, range.start, range.end, fromDay, throughDay, scaled, indicator.rawValue])
        }
        // ORDER BY local_day, transaction_date, id (a BLOB: its bytes in order).
        return rows.sorted { a, b in
            let x = a.transaction, y = b.transaction
            if x.localDay != y.localDay { return x.localDay < y.localDay }
            if x.transactionDate != y.transactionDate { return x.transactionDate < y.transactionDate }
            return withUnsafeBytes(of: x.id.uuid) { p in withUnsafeBytes(of: y.id.uuid) { q in p.lexicographicallyPrecedes(q) } }
        }
    }

    /// The scaled amount `transactions(accountID:fromDay:throughDay:amount:indicator:)` compares `amount_scaled` with.
    package static func scaled(_ amount: Decimal) -> Int64 { Rows.scaled(amount) }

    /// The latest local day the account holds a row on, at most (nil when it holds none): the day of its latest
    /// instant, plus one for an offset east of UTC. One look-up in the (account, date) index.
    package func latestLocalDay(accountID: UUID) throws -> Int? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(transaction_date) FROM txn WHERE account_id = ?"),
                           arguments: [accountID]).map { Int(($0 >= 0 ? $0 : $0 - 86_399_999) / 86_400_000) + 1 }
    }

    /// Replaces a transaction's dedupe keys without changing its data (no history change): a record from a
    /// higher-fidelity source lends its institution id.
    package func setKeys(_ keys: DedupeKeys, forTransaction id: UUID) throws {
        try db.cachedStatement(sql: "UPDATE OR FAIL txn SET external_id = ?, fingerprint = ?, occurrence = ? WHERE id = ?")
            .execute(arguments: [keys.externalID, keys.fingerprint, keys.occurrence, id])
    }

    /// Remembers keys a transaction no longer carries (a pending record's, once it is booked), so a re-import of
    /// the old record is recognised instead of inserted again. No history change.
    package func retireKeys(_ keys: DedupeKeys, ofTransaction id: UUID, accountID: UUID) throws {
        guard keys.externalID != nil || keys.fingerprint != nil else { return }
        let seq = try FinanceStore.lastSequence(db)
        try db.cachedStatement(sql: """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq)
            VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [id, accountID, keys.externalID, keys.fingerprint, keys.occurrence, seq])
    }

    /// Notes that a statement as of `asOf` listed the open (pending or authorized) row: the newest listing is
    /// kept.
    package func noteListing(transactionID: UUID, asOf: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO open_listing(transaction_id, as_of) VALUES (?, ?)
            ON CONFLICT(transaction_id) DO UPDATE SET as_of = max(as_of, excluded.as_of)
            """).execute(arguments: [transactionID, Rows.millis(asOf)])
    }

    /// The as-of time (ms) of the statement whose values the row carries, if known (see `statementAsOf`).
    package func valuesAsOf(transactionID: UUID) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT values_as_of FROM txn WHERE id = ?"), arguments: [transactionID])
    }

    /// The as-of time of the newest statement that listed the open row, if one was noted.
    package func listingAsOf(transactionID: UUID) throws -> Date? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT as_of FROM open_listing WHERE transaction_id = ?"),
                           arguments: [transactionID]).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Whether the account held transactions in `currency` (not its own) before accounts were kept per currency
    /// (migration v5): it stays that currency's account (see `StatementAccount`).
    package func heldBeforePerCurrencyAccounts(accountID: UUID, currency: String) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM account_legacy_currency WHERE account_id = ? AND currency_code = ?)
            """, arguments: [accountID, currency]) ?? false
    }

    /// Whether any key was ever retired or deleted in this store (lets imports skip tombstone look-ups).
    package func hasTombstones() throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tombstone)") ?? false
    }

    /// An amount with more than six decimals is stored truncated in `amount_scaled`; from then on, SQL
    /// comparisons on amounts only pre-filter and Swift decides (see `PredicateSQL`).
    func noteInexactAmount(_ amount: Decimal) throws {
        guard !notedInexact, ExactDecimal.scaled(amount) == nil else { return }
        try db.execute(sql: "INSERT OR REPLACE INTO store_meta(key, value) VALUES ('inexact_amounts', 1)")
        notedInexact = true
    }
}

/// The statements that read an account's open (pending, authorized) rows. They name `txn_open` (`INDEXED BY`):
/// left to itself SQLite walked `txn_account_date` over every row of the dates asked and read each row's status, so
/// a statement period of a million booked rows cost a second at the end of the import that covered it (and
/// `coffer reconcile` read the whole account); the partial index holds the open rows only.
package enum OpenRowSQL {
    /// `StoreWriter.openTransactions`: parameters account, instant range, local-day range.
    package static let inDays = """
        SELECT \(TxnColumn.storedList) FROM txn INDEXED BY txn_open
        WHERE account_id = ? AND status IN (0, 3) AND transaction_date >= ? AND transaction_date < ?
          AND local_day BETWEEN ? AND ? ORDER BY local_day, transaction_date, id
        """
    /// `FinanceStore.reconcile`: every open row of an account, oldest first.
    package static let all = """
        SELECT \(TxnColumn.transactionList) FROM txn INDEXED BY txn_open WHERE account_id = ? AND status IN (0, 3)
        ORDER BY transaction_date
        """
}
