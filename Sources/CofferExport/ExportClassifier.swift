import CofferModel
import CofferPipeline
import Foundation

/// The two questions an export asks of the reports' definitions (issue 19): a transaction's category, and which
/// transactions are the two halves of a transfer between the person's own accounts.
///
/// A seam: the exporter calls these two functions only, so the definitions live in one place.
package struct ExportClassifier: Sendable {
    /// A transaction's category, lowercase (`dining`, `groceries`, `uncategorized`).
    package var category: @Sendable (Transaction) -> String
    /// The own transfers among `transactions`: each half's id → the other half's id (both directions).
    package var ownTransfers: @Sendable (_ transactions: [Transaction], _ accounts: [UUID: Account]) -> [UUID: UUID]

    package init(category: @escaping @Sendable (Transaction) -> String,
                 ownTransfers: @escaping @Sendable ([Transaction], [UUID: Account]) -> [UUID: UUID]) {
        self.category = category
        self.ownTransfers = ownTransfers
    }

    /// The classifier for a configuration.
    package init(configuration: CofferConfiguration) {
        self = .standIn
    }

    /// A simple stand-in until the reports' definitions land: every transaction is "uncategorized"; a transfer is
    /// own when a debit and a credit of two different accounts have the same amount and currency, are at most 5
    /// days apart, and at least one is typed `transfer`.
    package static let standIn = ExportClassifier(
        category: { _ in "uncategorized" },
        ownTransfers: { transactions, _ in
            var pairs: [UUID: UUID] = [:]
            let credits = transactions.filter { $0.creditDebitIndicator == .credit }
            for debit in transactions where debit.creditDebitIndicator == .debit {
                let match = credits.first { credit in
                    pairs[credit.id] == nil && credit.accountID != debit.accountID
                        && credit.transactionAmount == debit.transactionAmount
                        && abs(credit.localDay - debit.localDay) <= 5
                        && (credit.transactionType == .transfer || debit.transactionType == .transfer)
                }
                if let match {
                    pairs[debit.id] = match.id
                    pairs[match.id] = debit.id
                }
            }
            return pairs
        })
}
