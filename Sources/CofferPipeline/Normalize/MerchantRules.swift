import CofferModel

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
/// lengths, the rule listed first.
public struct MerchantRules: Sendable {
    /// The rules in priority order.
    public let rules: [MerchantRule]
    private let automaton: PhraseAutomaton
    /// Per phrase: its rule, its length in symbols, and the field it applies to.
    private let phraseRule: [Int32]
    private let phraseLength: [Int32]
    private let phraseField: [MerchantRule.Field]

    /// No rules: `match` always returns nil.
    public static let empty = MerchantRules([])

    /// Compiles `rules`; earlier rules win ties.
    public init(_ rules: [MerchantRule]) {
        var phrases: [[UInt8]] = []
        var phraseRule: [Int32] = []
        var phraseField: [MerchantRule.Field] = []
        for (index, rule) in rules.enumerated() {
            let anchored = rule.prefixes.map { (text: $0, anchored: true) }
            for pattern in rule.contains.map({ (text: $0, anchored: false) }) + anchored {
                let body = TextFolding.symbols(of: pattern.text)
                guard !body.isEmpty else { continue }
                phrases.append((pattern.anchored ? [TextFolding.start] : []) + [TextFolding.space] + body + [TextFolding.space])
                phraseRule.append(Int32(index))
                phraseField.append(rule.field)
            }
        }
        self.rules = rules
        self.automaton = PhraseAutomaton(phrases: phrases)
        self.phraseRule = phraseRule
        self.phraseLength = phrases.map { Int32($0.count) }
        self.phraseField = phraseField
    }

    /// The user's rules before the defaults: a user rule with a default's name (ignoring case) replaces it.
    public init(defaults: [MerchantRule], overrides: [MerchantRule]) {
        let replaced = Set(overrides.map { $0.name.lowercased() })
        self.init(overrides + defaults.filter { !replaced.contains($0.name.lowercased()) })
    }

    /// The rule that names the merchant of this text, or nil.
    public func match(raw: String, cleaned: String) -> MerchantRule? {
        if let index = best(in: cleaned, skipping: .raw) { return rules[index] }
        if let index = best(in: raw, skipping: .cleaned) { return rules[index] }
        return nil
    }

    private func best(in text: String, skipping field: MerchantRule.Field) -> Int? {
        phraseRule.withUnsafeBufferPointer { rule in
            phraseLength.withUnsafeBufferPointer { length in
                phraseField.withUnsafeBufferPointer { fieldOf in
                    var visitor = Longest(rule: rule, length: length, field: fieldOf, skipping: field)
                    automaton.scan(text, &visitor)
                    return visitor.best < 0 ? nil : Int(rule[visitor.best])
                }
            }
        }
    }

    /// Keeps the longest phrase found (the earlier rule between equal lengths).
    private struct Longest: PhraseVisitor {
        let rule: UnsafeBufferPointer<Int32>
        let length: UnsafeBufferPointer<Int32>
        let field: UnsafeBufferPointer<MerchantRule.Field>
        let skipping: MerchantRule.Field
        var best = -1
        var bestLength: Int32 = 0

        mutating func found(_ phrase: Int) {
            guard field[phrase] != skipping else { return }
            let candidate = length[phrase]
            if candidate > bestLength || (candidate == bestLength && rule[phrase] < rule[best]) {
                best = phrase
                bestLength = candidate
            }
        }
    }
}
