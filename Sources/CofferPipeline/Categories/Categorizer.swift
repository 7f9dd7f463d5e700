import CofferModel
import Foundation

/// Gives every transaction a spending category: what reports group by and exports name their counter-accounts by.
///
/// For example:
/// ```swift
/// let configuration = try CofferConfiguration.standard()
/// let categorizer = configuration.categorizer
/// categorizer.category(of: transaction, account: account)             // "dining"
/// let all = categorizer.categories(of: transactions, accounts: accounts)  // [transaction id: category]
/// categorizer.categorize(transaction, account: account).source      // .mcc: which step decided
/// ```
/// In this order (config/mcc-categories.yaml):
/// 1. the `category` of the merchant rule that names the transaction's text, when that rule has one;
/// 2. the category of its merchant category code, through `MCCCategoryTable`;
/// 3. the `category` of the category rule (`mcc-categories.yaml`'s `rules`) that its text matches;
/// 4. the category of its transaction type (`types`: `fee` → `fees`);
/// 5. else `Categorizer.uncategorized`. A transaction always has a category.
///
/// Rules are matched as an import matches merchant rules: the original text and the cleaned one, the amount,
/// direction and account. It is worked out when asked (nothing is stored), so an edited rule or table applies to
/// every stored transaction at once.
package struct Categorizer: Sendable {
    /// The category of a transaction nothing categorizes.
    package static let uncategorized = "uncategorized"

    /// Which step gave a transaction its category.
    package enum Source: String, Sendable, Hashable {
        case merchantRule, mcc, categoryRule, type, none
    }

    /// A category and where it came from.
    package struct Result: Sendable, Hashable {
        package var category: String
        package var source: Source
        /// The rule's id, for `.merchantRule` and `.categoryRule`.
        package var ruleID: String?
    }

    package let table: MCCCategoryTable
    package let merchantRules: MerchantRules
    package let categoryRules: MerchantRules
    package let typeCategories: [TransactionType: String]
    package let cleaner: DescriptionCleaner
    /// Whether some merchant rule has a category (else merchant rules are not matched at all).
    private let merchantRulesCategorize: Bool

    package init(table: MCCCategoryTable = .empty, merchantRules: MerchantRules = .empty, categoryRules: MerchantRules = .empty,
                 typeCategories: [TransactionType: String] = [:], cleaner: DescriptionCleaner = DescriptionCleaner()) {
        self.table = table
        self.merchantRules = merchantRules
        self.categoryRules = categoryRules
        self.typeCategories = typeCategories
        self.cleaner = cleaner
        self.merchantRulesCategorize = merchantRules.rules.contains { $0.category != nil }
    }

    /// No table, no rules: every transaction is `uncategorized` (with types, the type's category).
    package static let empty = Categorizer()

    /// The category of one transaction; `account` is its account (for rules that name accounts; nil: such rules
    /// do not apply).
    package func category(of transaction: Transaction, account: Account? = nil) -> String {
        categorize(transaction, account: account).category
    }

    /// The category of one transaction and the step that gave it.
    package func categorize(_ transaction: Transaction, account: Account? = nil) -> Result {
        var context = Context(self)
        return context.categorize(transaction, account: account)
    }

    /// The categories of many transactions, by id; `accounts` are the accounts they belong to (any others are
    /// ignored). Each distinct text is cleaned once.
    package func categories(of transactions: [Transaction], accounts: [Account]) -> [UUID: String] {
        var context = Context(self)
        let byID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [UUID: String] = [:]
        result.reserveCapacity(transactions.count)
        for transaction in transactions {
            result[transaction.id] = context.categorize(transaction, account: byID[transaction.accountID]).category
        }
        return result
    }

    /// Caches what many transactions share: cleaned texts and which rules each account meets.
    private struct Context {
        let categorizer: Categorizer
        var cleaned: [String: (display: String, merchant: String?)] = [:]
        var merchantAccounts: [UUID: [Bool]] = [:]
        var categoryAccounts: [UUID: [Bool]] = [:]

        init(_ categorizer: Categorizer) { self.categorizer = categorizer }

        mutating func categorize(_ transaction: Transaction, account: Account?) -> Result {
            let c = categorizer
            let raw = transaction.originalTransactionDescription.isEmpty
                ? transaction.transactionDescription : transaction.originalTransactionDescription
            if c.merchantRulesCategorize, let hit = match(c.merchantRules, raw: raw, transaction, account, cache: \.merchantAccounts),
               let category = c.merchantRules.rules[hit].category {
                return Result(category: category, source: .merchantRule, ruleID: c.merchantRules.rules[hit].id)
            }
            if let code = transaction.merchantCategoryCode, let category = c.table.category(for: code) {
                return Result(category: category, source: .mcc)
            }
            if !c.categoryRules.rules.isEmpty, let hit = match(c.categoryRules, raw: raw, transaction, account, cache: \.categoryAccounts) {
                let rule = c.categoryRules.rules[hit]
                return Result(category: rule.category ?? rule.name, source: .categoryRule, ruleID: rule.id)
            }
            if let category = c.typeCategories[transaction.transactionType] {
                return Result(category: category, source: .type)
            }
            return Result(category: Categorizer.uncategorized, source: .none)
        }

        private mutating func match(_ rules: MerchantRules, raw: String, _ transaction: Transaction, _ account: Account?,
                                    cache: WritableKeyPath<Context, [UUID: [Bool]]>) -> Int? {
            let clean: (display: String, merchant: String?)
            if let known = cleaned[raw] { clean = known } else {
                clean = categorizer.cleaner.clean(raw)
                cleaned[raw] = clean
            }
            var matches: [Bool] = []
            if let account {
                if let known = self[keyPath: cache][account.id] { matches = known } else {
                    matches = rules.accountMatches(id: account.id, names: [account.displayName] + (account.accountDescription.map { [$0] } ?? []))
                    self[keyPath: cache][account.id] = matches
                }
            }
            // As an import decides it (MerchantRuleUsage does the same): a purchase when the cleaner names a merchant.
            let isPurchase = clean.merchant != nil || (clean.display.isEmpty && transaction.merchantName != nil)
            let context = MerchantRuleContext(amount: transaction.transactionAmount.amount, indicator: transaction.creditDebitIndicator,
                                              accountMatches: matches)
            return rules.matchIndex(raw: raw, cleaned: clean.display, context: context, isPurchase: isPurchase)
        }
    }
}
