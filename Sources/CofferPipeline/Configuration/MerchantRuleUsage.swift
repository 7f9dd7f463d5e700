import CofferModel
import CofferStore
import Foundation

/// How often each merchant rule matches the stored transactions, and why one that never does may not: what
/// `coffer config rules --unused` prints.
///
/// For example:
/// ```swift
/// let usage = try await MerchantRuleUsage.measure(configuration.normalizer, in: store)
/// for rule in usage where rule.matches == 0 { print(rule.rule.id, rule.reasons) }
/// ```
/// The counts are worked out when asked, by running the rules over every stored transaction's original text,
/// amount, direction and account exactly as an import does, not kept by imports: an import's per-row work stays
/// what it was, the counts follow the configuration as it is now (an edited or new rule is measured at once), and
/// undo, compaction and deleted rows need no bookkeeping. The cost is one pass over the store per question.
package struct MerchantRuleUsage: Sendable, Hashable {
    package var rule: MerchantRule
    /// The stored transactions the rule names (it won: the longest pattern, the earlier rule between equals).
    package var matches: Int
    /// For a rule with amount, direction or account conditions or `scope: purchases`: the stored transactions its
    /// words alone find.
    package var textMatches: Int
    /// Why an unused rule may not match: an account it names is not stored, its conditions exclude what its text
    /// finds, another rule takes its words first, or no stored text has its words.
    package var reasons: [String]

    /// Runs `normalizer`'s rules over every stored transaction.
    package static func measure(_ normalizer: DescriptionNormalizer, in store: FinanceStore) async throws -> [MerchantRuleUsage] {
        let rules = normalizer.rules
        let accounts = try await store.accounts(query: AccountQuery())
        let transactions = try await store.transactions(query: TransactionQuery())
        var matchesByAccount: [UUID: [Bool]] = [:]
        for account in accounts {
            matchesByAccount[account.id] = rules.accountMatches(
                id: account.id, names: [account.displayName] + (account.accountDescription.map { [$0] } ?? []))
        }
        // The rules that can pass over text their words match: what their words alone find is counted too.
        let conditional = Set(rules.rules.indices.filter {
            (rules.rules[$0].hasConditions || rules.rules[$0].purchasesOnly) && rules.rules[$0].hasPatterns
        })
        var counts = [Int](repeating: 0, count: rules.rules.count)
        var textCounts = [Int](repeating: 0, count: rules.rules.count)
        var cleaned: [String: (display: String, merchant: String?)] = [:]
        for transaction in transactions {
            let raw = transaction.originalTransactionDescription
            let clean: (display: String, merchant: String?)
            if let known = cleaned[raw] { clean = known } else {
                clean = normalizer.cleaner.clean(raw)
                cleaned[raw] = clean
            }
            let display = clean.display
            // As the normalizer decides it (without the feed's merchant column, which is not stored apart).
            let isPurchase = clean.merchant != nil || (display.isEmpty && transaction.merchantName != nil)
            let context = MerchantRuleContext(amount: transaction.transactionAmount.amount,
                                              indicator: transaction.creditDebitIndicator,
                                              accountMatches: matchesByAccount[transaction.accountID] ?? [])
            if let index = rules.matchIndex(raw: raw, cleaned: display, context: context, isPurchase: isPurchase) { counts[index] += 1 }
            if !conditional.isEmpty {
                for index in rules.rulesMentioned(raw: raw, cleaned: display) where conditional.contains(index) { textCounts[index] += 1 }
            }
        }
        let accountNames = Set(accounts.flatMap { [$0.id.uuidString.lowercased(), MerchantRules.foldedName($0.displayName)]
            + ($0.accountDescription.map { [MerchantRules.foldedName($0)] } ?? []) })
        return rules.rules.enumerated().map { index, rule in
            var usage = MerchantRuleUsage(rule: rule, matches: counts[index], textMatches: textCounts[index], reasons: [])
            if usage.matches == 0 {
                usage.reasons = reasons(rule, index: index, rules: rules, textMatches: textCounts[index],
                                        accountNames: accountNames, transactionCount: transactions.count)
            }
            return usage
        }
    }

    private static func reasons(_ rule: MerchantRule, index: Int, rules: MerchantRules, textMatches: Int,
                                accountNames: Set<String>, transactionCount: Int) -> [String] {
        if transactionCount == 0 { return ["the store has no transactions"] }
        var reasons: [String] = []
        let missing = rule.accounts.filter {
            !accountNames.contains($0.lowercased()) && !accountNames.contains(MerchantRules.foldedName($0))
        }
        if !missing.isEmpty {
            reasons.append("names account \(missing.map { "'\($0)'" }.joined(separator: ", ")), which is no stored "
                           + "account's id or name (see coffer accounts)")
        }
        if rule.hasPatterns, textMatches > 0 {
            let words = "its words match \(textMatches) transaction\(textMatches == 1 ? "" : "s")"
            switch (rule.hasConditions, rule.purchasesOnly) {
            case (true, false): reasons.append(words + ", but not with its amount, direction or account")
            case (false, true): reasons.append(words + ", none of them a purchase (the rule has scope: purchases)")
            case (true, true): reasons.append(words + ", but not with its amount, direction or account, or not as a purchase (scope: purchases)")
            case (false, false): break
            }
        }
        // A pattern an earlier rule also has: that rule wins every tie.
        func keys(_ rule: MerchantRule) -> Set<[UInt8]> {
            Set(rule.contains.map { TextFolding.symbols(of: $0) } + rule.prefixes.map { [TextFolding.start] + TextFolding.symbols(of: $0) })
        }
        let own = keys(rule)
        for earlier in rules.rules[..<index] where !earlier.hasConditions && earlier.field == .any {
            let theirs = keys(earlier)
            if !own.isEmpty, own.isSubset(of: theirs) {
                reasons.append("every pattern of it is also rule '\(earlier.id)''s, which comes first and wins")
                break
            }
        }
        if reasons.isEmpty {
            let patterns = (rule.contains + rule.prefixes.map { "^" + $0 })
            reasons.append(patterns.isEmpty ? "no stored transaction meets its amount, direction or account"
                           : "no stored transaction's text has \(patterns.map { "'\($0)'" }.joined(separator: " or "))")
        }
        return reasons
    }
}
