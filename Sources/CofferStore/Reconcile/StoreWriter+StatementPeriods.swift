import CofferModel
import Foundation
import GRDB

/// Statements as the import reads them: recorded with the import, and their balances checked against the store.
extension StoreWriter {
    /// Records a statement of the import begun with `beginImport`, in its write transaction; returns it as stored
    /// (its id and the file's path set).
    ///
    /// For example, at the end of each statement:
    /// ```swift
    /// let stored = try writer.insertStatementPeriod(period)
    /// for mismatch in try writer.sequenceMismatches(around: stored) { report.attention.append(mismatch.message) }
    /// ```
    @discardableResult
    package func insertStatementPeriod(_ period: StatementPeriod) throws -> StatementPeriod {
        guard let importID else {
            throw CofferError(.usage, "a statement period is recorded only within an import (beginImport first)")
        }
        var record = StatementPeriodRecord(period, importID: importID, source: recordSource)
        try record.insert(db)
        var stored = period
        stored.id = try record.id ?? db.lastInsertedRowID
        stored.importID = importID
        stored.path = try String.fetchOne(db, sql: "SELECT path FROM import_ledger WHERE id = ?", arguments: [importID]) ?? ""
        return stored
    }

    /// Notes what a recorded statement says about pending rows: the local days its period covers and whether its
    /// format lists pending rows (see `retiredByNewerStatement`).
    package func noteCoverage(ofStatement id: Int64, fromDay: Int, throughDay: Int, listsPending: Bool) throws {
        try db.execute(sql: "UPDATE statement_period SET from_day = ?, through_day = ?, lists_pending = ? WHERE id = ?",
                       arguments: [fromDay, throughDay, listsPending, id])
    }

    /// The as-of time (ms) of the newest statement recorded for the account (and not undone) from `source` whose
    /// period covers a local day of `fromDay...throughDay`: when that source last listed a row of those days.
    package func newestStatement(accountID: UUID, source: String, fromDay: Int, throughDay: Int) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT MAX(p.as_of) FROM \(StatementPeriod.liveRows)
            WHERE p.account_id = ? AND p.source = ? AND p.from_day <= ? AND p.through_day >= ?
            """), arguments: [accountID, source, throughDay, fromDay])
    }

    /// Whether a statement already recorded for the account (and not undone) would have retired a pending row of
    /// the local day `day` listed by a statement as of `asOf` (docs/dedupe.md): it is strictly newer, covers the
    /// day, and either lists pending rows or ends `postingDays` or more after it. Such a record, imported after that
    /// statement, is not stored: nothing older resurrects what a newer statement says is gone.
    package func retiredByNewerStatement(accountID: UUID, day: Int, asOf: Date, postingDays: Int) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM \(StatementPeriod.liveRows)
            WHERE p.account_id = ? AND p.as_of > ? AND p.from_day <= ? AND p.through_day >= ?
              AND (p.lists_pending = 1 OR p.through_day >= ?))
            """), arguments: [accountID, Rows.millis(asOf), day, day, day + postingDays]) ?? false
    }

    /// The sequence checks (see `BalanceChain`) a newly stored statement takes part in, against the transactions
    /// stored now (this import's included): its `LEDGERBAL` after the previous statement's closing balance, and the
    /// next statement's `LEDGERBAL` after its own (a statement imported after a newer one fills the chain).
    package func sequenceMismatches(around statement: StatementPeriod) throws -> [BalanceMismatch] {
        guard statement.closing != nil else { return [] }
        // An account's statements are few (one per download): the policy picks among them, as `coffer reconcile` does.
        let all = try StatementPeriod.fetchAll(db, accountID: statement.accountID)
        var pairs: [(later: StatementPeriod, earlier: StatementPeriod)] = []
        if BalanceChain.isChained(statement), let previous = BalanceChain.previous(of: statement, in: all) {
            pairs.append((statement, previous))
        }
        if let next = BalanceChain.next(of: statement, in: all), BalanceChain.isChained(next),
           BalanceChain.previous(of: next, in: all)?.id == statement.id {
            pairs.append((next, statement))
        }
        guard !pairs.isEmpty else { return [] }
        // Only pairs with booking days between their balances need the rows: for the others `DailyBooked.between`
        // answers (0, 0) without them. A statement imported again (`--force`, or the same download twice) is
        // chained after its own earlier copy, at the same day, and reads nothing (it read the statement's rows).
        // Rows dated after the last such day cannot be booked by then: the read stops there, widened by the
        // largest UTC offset, since a row's day is its own local day (21:30 PST on the last day is the next day
        // in UTC, and was left out: a false mismatch that `coffer reconcile`, reading without bounds, did not
        // see). Rows of later days the margin lets in are left out by `between`. Nor can rows dated long before
        // the first day be booked after it: the read starts 40 days before it (a statement's rows, not the
        // account's whole history: 1 ms instead of ~100 ms at 100k rows).
        let spans = pairs.compactMap { BalanceChain.days(after: $0.earlier, through: $0.later) }
            .filter { $0.through > $0.after }
        var daily = DailyBooked([])
        if let first = spans.map(\.after).min(), let last = spans.map(\.through).max() {
            daily = try DailyBooked.fetch(db, accountID: statement.accountID, currency: statement.currencyCode,
                                          from: Int64(first - 40) * 86_400_000,
                                          before: Int64(last + 1) * 86_400_000 + Rows.offsetMargin)
        }
        let gaps = Reconciliation.coverage(Reconciliation.distinct(all)).1
        return pairs.compactMap { pair in
            guard let days = BalanceChain.days(after: pair.earlier, through: pair.later),
                  let booked = daily.between(after: days.after, through: days.through) else { return nil }
            return BalanceChain.mismatch(pair.later, after: pair.earlier, booked: booked, gaps: gaps)
        }
    }
}
