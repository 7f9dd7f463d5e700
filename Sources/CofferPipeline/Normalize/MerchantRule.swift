import CofferModel

/// One merchant rule: the words that identify a merchant, its canonical name, its MCC and optionally its type.
///
/// For example, the rule
/// ```yaml
/// - name: Starbucks
///   mcc: 5814
///   contains: [starbucks, sbux]
/// ```
/// matches `"CHECKCARD 0314 STARBUCKS STORE 05519 SEATTLE WA"` and names the merchant `Starbucks`.
///
/// Patterns match whole words, ignoring case, accents, apostrophes and punctuation: `contains: mcdonalds`
/// matches `MCDONALD'S F12345` but `contains: shell` does not match `SHELLFISH SHACK`. A `prefix` pattern must
/// start the text.
public struct MerchantRule: Hashable, Sendable {
    /// Which text a rule looks at.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        /// The cleaned display text first, then the raw text.
        case any
        /// Only the cleaned display text (after processor prefixes and noise are removed).
        case cleaned
        /// Only the raw text as the bank sent it (to match a processor prefix such as `PAYPAL *`).
        case raw
    }

    /// The canonical merchant name, e.g. `Amazon Marketplace`.
    public var name: String
    public var merchantCategoryCode: MerchantCategoryCode?
    /// The transaction type this merchant implies, when it implies one (a brokerage's `dividend`).
    public var transactionType: TransactionType?
    /// Word sequences found anywhere in the text.
    public var contains: [String]
    /// Word sequences the text starts with.
    public var prefixes: [String]
    public var field: Field

    public init(name: String, merchantCategoryCode: MerchantCategoryCode? = nil, transactionType: TransactionType? = nil,
                contains: [String] = [], prefixes: [String] = [], field: Field = .any) {
        self.name = name
        self.merchantCategoryCode = merchantCategoryCode
        self.transactionType = transactionType
        self.contains = contains
        self.prefixes = prefixes
        self.field = field
    }
}
