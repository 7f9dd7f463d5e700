import CofferFormats
import CofferModel

/// What normalization makes of a transaction's text: display text, merchant, MCC and type.
package struct NormalizedDescription: Hashable, Sendable {
    /// `transactionDescription`: the text cleaned for display.
    package var display: String
    /// `merchantName`: set when the text names a merchant.
    package var merchantName: String?
    package var merchantCategoryCode: MerchantCategoryCode?
    package var transactionType: TransactionType

    package init(display: String, merchantName: String?, merchantCategoryCode: MerchantCategoryCode?,
                transactionType: TransactionType) {
        self.display = display
        self.merchantName = merchantName
        self.merchantCategoryCode = merchantCategoryCode
        self.transactionType = transactionType
    }
}

/// Cleans a transaction's text and fills in its merchant, MCC and type: the text part of the normalize stage.
///
/// For example:
/// ```swift
/// let normalizer = DescriptionNormalizer(rules: rules, categories: categories)
/// let result = normalizer.normalize(text: "PAYPAL *NETFLIX 4029357733", indicator: .debit)
/// // display "Netflix", merchantName "Netflix", MCC 4899, type .pointOfSale
/// ```
/// Precedence, as issue 3 asks:
/// - MCC: the feed's own, else the category word through `CategoryMCCTable`, else the merchant rule's.
/// - Type: the feed's own when it is specific (not `.unknown`), else `TransactionTypeInference`; a merchant
///   rule's `type` replaces an inferred `.pointOfSale` or `.unknown`.
/// - Merchant: the rule's canonical name, else the feed's merchant column cleaned, else the cleaned text;
///   none when the text says it is a transfer, fee, interest, salary or cash and no rule matched. Rules apply to
///   any text (a rule for a payroll credit names it), checked against the amount, direction and account too,
///   except those with `scope: purchases` (the shipped ones), which skip text that is not a purchase.
/// - Display: the rule's name when a rule matched (with the details the text gave: invoice, contract or policy
///   numbers, counters), else the cleaned text.
package struct DescriptionNormalizer: Sendable {
    package let cleaner: DescriptionCleaner
    package let rules: MerchantRules
    package let categories: CategoryMCCTable

    package init(rules: MerchantRules = .empty, categories: CategoryMCCTable = .empty,
                cleaner: DescriptionCleaner = DescriptionCleaner()) {
        self.cleaner = cleaner
        self.rules = rules
        self.categories = categories
    }

    /// The original description of a raw transaction: its name, else its memo, else "".
    package static func originalDescription(of transaction: RawTransaction) -> String {
        if let name = transaction.name, !isBlank(name) { return name }
        return transaction.memo ?? ""
    }

    /// Whether every character of the text is white space (true for ""), as `allSatisfy(\.isWhitespace)` says.
    ///
    /// Byte by byte while the text is ASCII: there every byte is a character of its own (but CR LF, both white
    /// space), so an ASCII byte that is not white space is a character that is not. The first non-ASCII byte hands
    /// the text to `Character`, whose grapheme breaking cost more than the rest of the description's handling.
    static func isBlank(_ text: String) -> Bool {
        for byte in text.utf8 {
            if byte >= 0x80 { return text.allSatisfy { $0.isWhitespace } }
            if byte != 0x20 && (byte < 0x09 || byte > 0x0D) { return false }
        }
        return true
    }

    /// Normalizes the text fields of a raw transaction; `accountMatches` (from `rules.accountMatches(id:names:)`) says
    /// which rules its account meets.
    package func normalize(_ transaction: RawTransaction, accountMatches: [Bool] = []) -> NormalizedDescription {
        let original = DescriptionNormalizer.originalDescription(of: transaction)
        // The text type keywords are looked for in: only needed when the feed's own type says nothing.
        var typeText: String?
        if transaction.transactionType == nil || transaction.transactionType == .unknown {
            var text = original
            if let memo = transaction.memo, transaction.name != nil, !memo.isEmpty {
                text += " / "
                text += memo
            }
            typeText = text
        }
        let indicator = transaction.resolvedIndicator
        return normalize(text: original, typeText: typeText,
                         feedMerchant: transaction.merchantName, feedMCC: transaction.merchantCategoryCode,
                         category: transaction.category, typeCode: transaction.typeCode,
                         feedType: transaction.transactionType, indicator: indicator,
                         context: rules.needsContext ? MerchantRuleContext(amount: transaction.amount.magnitude, indicator: indicator,
                                                                           accountMatches: accountMatches) : nil)
    }

    /// Normalizes one text; `typeText` (default: `text`) is what type keywords are looked for in.
    package func normalize(text: String, typeText: String? = nil, feedMerchant: String? = nil,
                          feedMCC: MerchantCategoryCode? = nil, category: String? = nil, typeCode: String? = nil,
                          feedType: TransactionType? = nil, indicator: CreditDebitIndicator,
                          context: MerchantRuleContext? = nil) -> NormalizedDescription {
        let cleaned = cleaner.cleanDescription(text)
        let isMerchant = cleaned.merchant != nil || (cleaned.display.isEmpty && feedMerchant != nil)
        let rule = rules.match(raw: text, cleaned: cleaned.display, context: context, isPurchase: isMerchant)
        var merchant: String?
        if let rule {
            merchant = rule.name
        } else if isMerchant {
            let own = feedMerchant.map { cleaner.displayText($0) }
            merchant = own.flatMap { $0.isEmpty ? nil : $0 } ?? cleaned.merchant
        }
        let mcc = feedMCC ?? category.flatMap(categories.code(forCategory:)) ?? rule?.merchantCategoryCode
        var type: TransactionType
        if let feedType, feedType != .unknown {
            type = feedType
        } else {
            type = TransactionTypeInference.infer(rawText: typeText ?? text, typeCode: typeCode, indicator: indicator,
                                                  hasMerchant: rule != nil, mcc: mcc)
            if let ruleType = rule?.transactionType, type == .unknown || type == .pointOfSale { type = ruleType }
        }
        // A rule names the merchant; the details the text gave (an invoice number, a counter) stay after it.
        let display = rule.map { cleaned.details.isEmpty ? $0.name : $0.name + " " + cleaned.details } ?? cleaned.display
        return NormalizedDescription(display: display, merchantName: merchant,
                                     merchantCategoryCode: mcc, transactionType: type)
    }
}
