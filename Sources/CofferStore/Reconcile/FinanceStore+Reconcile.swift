import CofferModel
import Foundation
import GRDB

extension FinanceStore {
    /// Reconciles every account, or the one given: the periods its imported statements cover, the gaps between
    /// them, balances that do not follow from the transactions, and pending rows older than 14 days (see
    /// `Reconciliation`). Read in one snapshot; nothing is changed. A Coffer addition (`coffer reconcile`).
    ///
    /// For example:
    /// ```swift
    /// let report = try await store.reconcile()
    /// if report.contains(where: \.needsAttention) { … }
    /// ```
    public func reconcile(accountID: UUID? = nil) async throws -> [AccountReconciliation] {
        try await read { db in
            let accounts: [UUID] = try accountID.map { [$0] }
                ?? UUID.fetchAll(db, sql: "SELECT id FROM account ORDER BY display_name, id")
            return try accounts.map { id in
                let statements = try StatementPeriod.fetchAll(db, accountID: id)
                var daily: [String: DailyBooked] = [:]
                for currency in Set(statements.filter(BalanceChain.isChained).map(\.currencyCode)) {
                    daily[currency] = try DailyBooked.fetch(db, accountID: id, currency: currency)
                }
                let open = try db.fastRows(OpenRowSQL.all, arguments: [id], TxnRows.transaction)
                let newest = try Int64.fetchOne(db, sql: "SELECT MAX(transaction_date) FROM txn WHERE account_id = ?",
                                                arguments: [id]).map(Rows.date)
                return Reconciliation.account(id, statements: statements, daily: daily, open: open, newestTransaction: newest)
            }
        }
    }
}
