import CofferModel
import CofferPipeline
import Foundation

/// The two questions an export asks of the reports' definitions (issue 19, `Categorizer` and `OwnTransfers` in
/// CofferPipeline): a transaction's category, and which transactions move money between the person's own accounts.
package struct ExportClassifier: Sendable {
    /// A transaction's category, lowercase (`dining`, `groceries`, `uncategorized`).
    package var category: @Sendable (Transaction, Account?) -> String
    /// The own transfers among `transactions`: pairs whose two sides are both there, and rows a transfer rule names
    /// whose other side is not.
    package var ownTransfers: @Sendable (_ transactions: [Transaction], _ accounts: [Account], _ maskedNumbers: [UUID: String]) -> OwnTransfers

    package init(category: @escaping @Sendable (Transaction, Account?) -> String,
                 ownTransfers: @escaping @Sendable ([Transaction], [Account], [UUID: String]) -> OwnTransfers) {
        self.category = category
        self.ownTransfers = ownTransfers
    }

    /// The categories (MCC table, merchant and category rules) and transfer rules of a configuration.
    package init(configuration: CofferConfiguration) {
        let categorizer = configuration.categorizer
        let rules = configuration.transferRules
        let cleaner = configuration.normalizer.cleaner
        self.init(category: { categorizer.category(of: $0, account: $1) },
                  ownTransfers: { OwnTransfers.find(in: $0, accounts: $1, maskedNumbers: $2, rules: rules, cleaner: cleaner) })
    }
}
