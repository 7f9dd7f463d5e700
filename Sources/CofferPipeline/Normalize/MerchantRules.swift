import CofferModel
import Foundation

/// What a merchant rule's conditions are checked against besides the text: the transaction's amount and direction,
/// and which rules its account meets (`MerchantRules.accountMatches(id:names:)`, worked out once per statement).
package struct MerchantRuleContext: Sendable {
    package var amount: Decimal
    package var indicator: CreditDebitIndicator
    /// Per rule, by its index in `MerchantRules.rules`: whether the account meets the rule's `account`. Empty when the
    /// account is not known: then no rule with an `account` applies.
    package var accountMatches: [Bool]

    package init(amount: Decimal, indicator: CreditDebitIndicator, accountMatches: [Bool] = []) {
        self.amount = amount
        self.indicator = indicator
        self.accountMatches = accountMatches
    }
}

/// A set of merchant rules, compiled for matching in one pass over the text.
///
/// For example:
/// ```swift
/// let rules = try MerchantRules.load(defaults: "config/merchants.yaml", user: "~/.config/coffer/merchants.yaml")
/// let rule = rules.match(raw: "AMZN Mktp US*2K4AB12C3", cleaned: "AMZN Mktp US")
/// rule?.name                           // "Amazon Marketplace"
/// rule?.merchantCategoryCode?.code     // "5999"
/// ```
/// Every pattern of every rule goes into one Aho–Corasick automaton (`PhraseAutomaton`), so a match costs one
/// pass over the cleaned text (and, when nothing matched there, one over the raw text) however many rules there
/// are. When several patterns match, the longest wins (`whole foods market` beats `whole foods`); between equal
/// lengths, the rule listed first. A pattern of a rule with conditions (amount, direction, account) counts only
/// when the transaction meets them, so another rule's shorter pattern can win instead.
package struct MerchantRules: Sendable {
    /// The rules in priority order.
    package let rules: [MerchantRule]
    private let automaton: PhraseAutomaton
    /// Per phrase: its length in symbols and its first candidate. A phrase several rules share (`rent` in two rules
    /// for different amounts) is one phrase of the automaton with a chain of candidates, in rule order.
    private let phraseLength: [Int32]
    private let phraseFirst: [Int32]
    /// Per candidate: its rule, the field it applies to, the next candidate of the same phrase (or -1).
    private let candidateRule: [Int32]
    private let candidateField: [MerchantRule.Field]
    private let candidateNext: [Int32]
    /// Per rule: whether it has conditions besides its text, and whether it applies to purchases only.
    private let conditional: [Bool]
    private let purchasesOnly: [Bool]
    /// Whether some rule applies to text that is not a purchase: when none does (the shipped rules alone), such
    /// text is not scanned at all, as before rules applied to any text.
    private let anyForAllText: Bool
    /// Whether some rule looks at the amount, direction or account: when none does, the normalizer makes no
    /// `MerchantRuleContext` (no amount to copy per row).
    package let needsContext: Bool
    /// Rules with conditions and no pattern, in priority order: tried when no pattern matched.
    private let textless: [Int]

    /// No rules: `match` always returns nil.
    package static let empty = MerchantRules([])

    /// Compiles `rules`; earlier rules win ties.
    package init(_ rules: [MerchantRule]) {
        var phrases: [[UInt8]] = []
        var phraseIndex: [[UInt8]: Int] = [:]
        var phraseFirst: [Int32] = []
        var phraseLast: [Int32] = []
        var candidateRule: [Int32] = []
        var candidateField: [MerchantRule.Field] = []
        var candidateNext: [Int32] = []
        for (index, rule) in rules.enumerated() {
            let anchored = rule.prefixes.map { (text: $0, anchored: true) }
            for pattern in rule.contains.map({ (text: $0, anchored: false) }) + anchored {
                let body = TextFolding.symbols(of: pattern.text)
                guard !body.isEmpty else { continue }
                let phrase = (pattern.anchored ? [TextFolding.start] : []) + [TextFolding.space] + body + [TextFolding.space]
                let candidate = Int32(candidateRule.count)
                candidateRule.append(Int32(index))
                candidateField.append(rule.field)
                candidateNext.append(-1)
                if let existing = phraseIndex[phrase] {
                    candidateNext[Int(phraseLast[existing])] = candidate
                    phraseLast[existing] = candidate
                } else {
                    phraseIndex[phrase] = phrases.count
                    phrases.append(phrase)
                    phraseFirst.append(candidate)
                    phraseLast.append(candidate)
                }
            }
        }
        self.rules = rules
        self.automaton = PhraseAutomaton(phrases: phrases)
        self.phraseLength = phrases.map { Int32($0.count) }
        self.phraseFirst = phraseFirst
        self.candidateRule = candidateRule
        self.candidateField = candidateField
        self.candidateNext = candidateNext
        self.conditional = rules.map(\.hasConditions)
        self.purchasesOnly = rules.map(\.purchasesOnly)
        self.anyForAllText = rules.contains { !$0.purchasesOnly }
        self.needsContext = rules.contains(where: \.hasConditions)
        self.textless = rules.indices.filter { !rules[$0].hasPatterns && rules[$0].hasConditions }
    }

    /// The user's rules before the defaults: a user rule with a default's id (or name, ignoring case) replaces it.
    package init(defaults: [MerchantRule], overrides: [MerchantRule]) {
        let replaced = Set(overrides.map { $0.name.lowercased() })
        let replacedIDs = Set(overrides.map(\.id))
        self.init(overrides + defaults.filter { !replaced.contains($0.name.lowercased()) && !replacedIDs.contains($0.id) })
    }

    /// The rule that names the merchant of this text, or nil. Without a context, rules with conditions never apply;
    /// `isPurchase` false (a transfer, salary, fee text) passes over the rules with `scope: purchases`.
    package func match(raw: String, cleaned: String, context: MerchantRuleContext? = nil, isPurchase: Bool = true) -> MerchantRule? {
        matchIndex(raw: raw, cleaned: cleaned, context: context, isPurchase: isPurchase).map { rules[$0] }
    }

    /// The index in `rules` of the rule that names the merchant of this text, or nil.
    package func matchIndex(raw: String, cleaned: String, context: MerchantRuleContext? = nil, isPurchase: Bool = true) -> Int? {
        guard isPurchase || anyForAllText else { return nil }
        if let index = best(in: cleaned, skipping: .raw, context: context, isPurchase: isPurchase) { return index }
        if let index = best(in: raw, skipping: .cleaned, context: context, isPurchase: isPurchase) { return index }
        if let context {
            for index in textless where (isPurchase || !purchasesOnly[index]) && Self.meets(rules[index], index, context) { return index }
        }
        return nil
    }

    /// Every rule one of whose patterns this text has (in the text the rule looks at), whatever its conditions and
    /// whichever would win: what `MerchantRuleUsage` counts as a rule's text matching.
    package func rulesMentioned(raw: String, cleaned: String) -> Set<Int> {
        var found = Set<Int>()
        for (text, skipping) in [(cleaned, MerchantRule.Field.raw), (raw, .cleaned)] {
            var visitor = Every(skipping: skipping, phraseFirst: phraseFirst, candidateRule: candidateRule,
                                candidateField: candidateField, candidateNext: candidateNext)
            automaton.scan(text, &visitor)
            found.formUnion(visitor.rules)
        }
        return found
    }

    private struct Every: PhraseVisitor {
        let skipping: MerchantRule.Field
        let phraseFirst: [Int32]
        let candidateRule: [Int32]
        let candidateField: [MerchantRule.Field]
        let candidateNext: [Int32]
        var rules = Set<Int>()

        mutating func found(_ phrase: Int) {
            var candidate = Int(phraseFirst[phrase])
            while candidate >= 0 {
                if candidateField[candidate] != skipping { rules.insert(Int(candidateRule[candidate])) }
                candidate = Int(candidateNext[candidate])
            }
        }
    }

    /// Per rule: whether an account with this id and these names (display name, description) meets its `account`.
    /// A rule without `account` is met by every account.
    package func accountMatches(id: UUID, names: [String]) -> [Bool] {
        let idText = id.uuidString.lowercased()
        let folded = Set(names.map(Self.foldedName).filter { !$0.isEmpty })
        return rules.map { rule in
            rule.accounts.isEmpty || rule.accounts.contains { selector in
                selector.lowercased() == idText || folded.contains(Self.foldedName(selector))
            }
        }
    }

    /// An account name as rules compare it: case, accents and spaces at the ends ignored.
    static func foldedName(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .trimmingWhitespace
    }

    private static func meets(_ rule: MerchantRule, _ index: Int, _ context: MerchantRuleContext) -> Bool {
        if !rule.accounts.isEmpty {
            guard index < context.accountMatches.count, context.accountMatches[index] else { return false }
        }
        return rule.accepts(amount: context.amount, indicator: context.indicator)
    }

    private func best(in text: String, skipping field: MerchantRule.Field, context: MerchantRuleContext?, isPurchase: Bool) -> Int? {
        phraseLength.withUnsafeBufferPointer { length in
            phraseFirst.withUnsafeBufferPointer { first in
                candidateRule.withUnsafeBufferPointer { rule in
                    candidateField.withUnsafeBufferPointer { fieldOf in
                        candidateNext.withUnsafeBufferPointer { next in
                            conditional.withUnsafeBufferPointer { conditional in
                                purchasesOnly.withUnsafeBufferPointer { purchasesOnly in
                                    var visitor = Longest(rules: rules, length: length, first: first, rule: rule, field: fieldOf,
                                                          next: next, conditional: conditional,
                                                          excluded: isPurchase ? nil : purchasesOnly, context: context,
                                                          skipping: field)
                                    automaton.scan(text, &visitor)
                                    return visitor.best < 0 ? nil : Int(rule[visitor.best])
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Keeps the longest phrase found (the earlier rule between equal lengths) whose rule's conditions are met.
    private struct Longest: PhraseVisitor {
        let rules: [MerchantRule]
        let length: UnsafeBufferPointer<Int32>
        let first: UnsafeBufferPointer<Int32>
        let rule: UnsafeBufferPointer<Int32>
        let field: UnsafeBufferPointer<MerchantRule.Field>
        let next: UnsafeBufferPointer<Int32>
        let conditional: UnsafeBufferPointer<Bool>
        /// For text that is not a purchase: per rule, whether it is for purchases only.
        let excluded: UnsafeBufferPointer<Bool>?
        let context: MerchantRuleContext?
        let skipping: MerchantRule.Field
        /// The best candidate so far, or -1.
        var best = -1
        var bestLength: Int32 = 0

        init(rules: [MerchantRule], length: UnsafeBufferPointer<Int32>, first: UnsafeBufferPointer<Int32>,
             rule: UnsafeBufferPointer<Int32>, field: UnsafeBufferPointer<MerchantRule.Field>, next: UnsafeBufferPointer<Int32>,
             conditional: UnsafeBufferPointer<Bool>, excluded: UnsafeBufferPointer<Bool>?, context: MerchantRuleContext?,
             skipping: MerchantRule.Field) {
            self.rules = rules
            self.length = length
            self.first = first
            self.rule = rule
            self.field = field
            self.next = next
            self.conditional = conditional
            self.excluded = excluded
            self.context = context
            self.skipping = skipping
        }

        mutating func found(_ phrase: Int) {
            let candidateLength = length[phrase]
            guard candidateLength >= bestLength else { return }
            var candidate = Int(first[phrase])
            while candidate >= 0 {
                defer { candidate = Int(next[candidate]) }
                guard field[candidate] != skipping,
                      candidateLength > bestLength || rule[candidate] < rule[best] else { continue }
                let index = Int(rule[candidate])
                if let excluded, excluded[index] { continue }
                if conditional[index] {
                    guard let context, MerchantRules.meets(rules[index], index, context) else { continue }
                }
                best = candidate
                bestLength = candidateLength
                // Candidates come in rule order: the first that qualifies is the best of this phrase.
                return
            }
        }
    }
}
