import CofferModel
import Foundation

/// One merchant rule: the words that identify a merchant, its canonical name, its MCC and optionally its type,
/// and optionally the amounts, direction and accounts it is limited to.
///
/// For example, the rule
/// ```yaml
/// - name: Starbucks
///   mcc: 5814
///   contains: [starbucks, sbux]
/// ```
/// matches `"CHECKCARD 0314 STARBUCKS STORE 05519 SEATTLE WA"` and names the merchant `Starbucks`, and
/// ```yaml
/// - {id: globex-salary, name: Globex Payroll, contains: globex corp dir dep, direction: credit, type: deposit}
/// ```
/// names a payroll credit: a rule applies to any transaction's text, not only to one the cleaner took for a
/// purchase.
///
/// Patterns match whole words, ignoring case, accents, apostrophes and punctuation: `contains: mcdonalds`
/// matches `MCDONALD'S F12345` but `contains: shell` does not match `SHELLFISH SHACK`. A `prefix` pattern must
/// start the text. A rule with `amount`, `direction` or `account` applies only to transactions that also meet
/// those; a rule with no pattern but an `account` or `amount` applies to every transaction that meets them (when no
/// pattern of another rule matched).
package struct MerchantRule: Hashable, Sendable {
    /// Which text a rule looks at.
    package enum Field: String, Hashable, Sendable, CaseIterable {
        /// The cleaned display text first, then the raw text.
        case any
        /// Only the cleaned display text (after processor prefixes and noise are removed).
        case cleaned
        /// Only the raw text as the bank sent it (to match a processor prefix such as `PAYPAL *`).
        case raw
    }

    /// The rule's id: what a later configuration layer overrides or disables it by. Given as `id:`, else made from
    /// the name (`MerchantRule.id(forName:)`: `McDonald's` → `mcdonalds`, `Pret A Manger` → `pret-a-manger`).
    package var id: String
    /// The canonical merchant name, e.g. `Amazon Marketplace`.
    package var name: String
    package var merchantCategoryCode: MerchantCategoryCode?
    /// The transaction type this merchant implies, when it implies one (a brokerage's `dividend`).
    package var transactionType: TransactionType?
    /// The spending category this merchant's transactions are reported under (`category: dining`), when the rule
    /// says: it wins over the category of the transaction's MCC (see `Categorizer`). Nil: the MCC's.
    package var category: String?
    /// Word sequences found anywhere in the text.
    package var contains: [String]
    /// Word sequences the text starts with.
    package var prefixes: [String]
    package var field: Field
    /// The smallest and largest amount (the positive magnitude, as `transactionAmount` holds it), each inclusive.
    package var minimumAmount: Decimal?
    package var maximumAmount: Decimal?
    /// Only debits (money out) or only credits (money in).
    package var direction: CreditDebitIndicator?
    /// Only transactions of these accounts: an account id, or an account's display name (case and accents ignored).
    package var accounts: [String]
    /// Only text the cleaner takes for a purchase (`scope: purchases`), not a transfer, salary, fee, interest or cash
    /// text. The shipped rules are so (a shop's name in a payroll credit is not that shop); a rule of yours applies to
    /// any text unless it says so.
    package var purchasesOnly = false

    package init(name: String, merchantCategoryCode: MerchantCategoryCode? = nil, transactionType: TransactionType? = nil,
                contains: [String] = [], prefixes: [String] = [], field: Field = .any, id: String? = nil,
                minimumAmount: Decimal? = nil, maximumAmount: Decimal? = nil, direction: CreditDebitIndicator? = nil,
                accounts: [String] = []) {
        self.id = id ?? MerchantRule.id(forName: name)
        self.name = name
        self.merchantCategoryCode = merchantCategoryCode
        self.transactionType = transactionType
        self.contains = contains
        self.prefixes = prefixes
        self.field = field
        self.minimumAmount = minimumAmount
        self.maximumAmount = maximumAmount
        self.direction = direction
        self.accounts = accounts
    }

    /// Whether the rule looks at more than the text.
    package var hasConditions: Bool {
        minimumAmount != nil || maximumAmount != nil || direction != nil || !accounts.isEmpty
    }

    /// Whether the rule has words to look for.
    package var hasPatterns: Bool { !contains.isEmpty || !prefixes.isEmpty }

    /// Whether an amount and direction meet the rule's `amount` and `direction` (its accounts are checked apart).
    package func accepts(amount: Decimal, indicator: CreditDebitIndicator) -> Bool {
        if let direction, direction != indicator { return false }
        if let minimumAmount, amount < minimumAmount { return false }
        if let maximumAmount, amount > maximumAmount { return false }
        return true
    }

    /// The id a rule without `id:` gets: its name folded to lower-case letters and digits, words joined by `-`,
    /// apostrophes dropped.
    ///
    /// For example, `MerchantRule.id(forName: "Trader Joe's")` is `trader-joes`.
    package static func id(forName name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        var result = ""
        var pendingDash = false
        for character in folded {
            if character == "'" || character == "’" { continue }
            if character.isLetter || character.isNumber {
                if pendingDash && !result.isEmpty { result.append("-") }
                pendingDash = false
                result.append(character)
            } else {
                pendingDash = true
            }
        }
        return result
    }
}
