import CofferModel
import Foundation
import Yams

extension MerchantRules {
    /// Loads the shipped defaults and, when given, the user's own rules file, which overrides and extends them.
    ///
    /// For example, `try MerchantRules.load(defaults: "config/merchants.yaml", user: nil)`.
    /// Throws `CofferError(.badConfiguration)` naming the file, the line and the rule for a mistake in either.
    package static func load(defaults: String, user: String?) throws -> MerchantRules {
        let base = try parse(yaml: ConfigYAML.read(defaults), file: defaults)
        let own = try user.map { try parse(yaml: ConfigYAML.read($0), file: $0) } ?? []
        return MerchantRules(defaults: base, overrides: own)
    }

    /// The rules of one `merchants.yaml` text (see the comment at the top of `config/merchants.yaml`).
    ///
    /// Rules are numbered from 1 in messages: `rule 3 (Starbucks): 'mcc' must be ...`.
    package static func parse(yaml text: String, file: String) throws -> [MerchantRule] {
        let root = try ConfigYAML.root(of: text, file: file)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with a 'merchants' list at the top", at: root, file: file)
        }
        var list: Node?
        var purchasesOnly = false
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "merchants": list = value
            case "version": continue
            case "scope": purchasesOnly = try scope(value, what: "'scope'", file: file)
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected 'merchants' (or 'scope')",
                                       at: key, file: file)
            }
        }
        guard let list else { throw ConfigYAML.error("missing the 'merchants' list", at: root, file: file) }
        return try rules(list, kind: .merchant, purchasesOnly: purchasesOnly, file: file)
    }

    /// The own-transfer rules of one `transfers.yaml` text (see the comment at the top of `config/transfers.yaml`).
    package static func parseTransfers(yaml text: String, file: String) throws -> [MerchantRule] {
        let root = try ConfigYAML.root(of: text, file: file)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with a 'transfers' list at the top", at: root, file: file)
        }
        var result: [MerchantRule] = []
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "version": continue
            case "transfers":
                if case .scalar(let scalar) = value, scalar.string.isEmpty || scalar.string == "[]" { continue }
                result = try rules(value, kind: .transfer, file: file)
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected 'transfers'", at: key, file: file)
            }
        }
        return result
    }

    /// What a list of rules is for: merchant rules (`merchants.yaml`), category rules (`mcc-categories.yaml`'s
    /// `rules`) or own-transfer rules (`transfers.yaml`). They share the keys that say which transactions a rule is
    /// for (`contains`, `prefix`, `on`, `amount`, `direction`, `account`).
    package enum RuleKind: Sendable {
        case merchant, category, transfer

        var listKey: String {
            switch self { case .merchant: "merchants"; case .category: "rules"; case .transfer: "transfers" }
        }

        var keys: [String] {
            let selecting = ["id", "contains", "prefix", "on", "amount", "direction", "account"]
            switch self {
            case .merchant: return ["id", "name", "mcc", "contains", "prefix", "type", "on", "amount", "direction", "account",
                                    "scope", "category"]
            case .category: return selecting + ["name", "category"]
            case .transfer: return selecting + ["name"]
            }
        }
    }

    /// The rules of a YAML list of `kind` (numbered from 1 in messages).
    package static func rules(_ list: Node, kind: RuleKind, purchasesOnly: Bool = false, file: String) throws -> [MerchantRule] {
        guard case .sequence(let items) = list else {
            throw ConfigYAML.error("'\(kind.listKey)' must be a list of rules (each starting with '- ')", at: list, file: file)
        }
        return try items.enumerated().map { offset, item in
            try rule(item, number: offset + 1, purchasesOnly: purchasesOnly, kind: kind, file: file)
        }
    }

    /// `scope: purchases` (only text the cleaner takes for a purchase) or `scope: any`.
    private static func scope(_ node: Node, what: String, file: String) throws -> Bool {
        switch ConfigYAML.text(node) {
        case "purchases": return true
        case "any": return false
        default:
            throw ConfigYAML.error("\(what) must be purchases or any, found '\(ConfigYAML.text(node) ?? "a list")'", at: node, file: file)
        }
    }

    private static func rule(_ node: Node, number: Int, purchasesOnly: Bool, kind: RuleKind, file: String) throws -> MerchantRule {
        guard case .mapping(let mapping) = node else {
            let expected = kind == .merchant ? "'name' and 'contains' or 'prefix'" : "'contains' or 'prefix'"
            throw ConfigYAML.error("rule \(number): expected a mapping with \(expected)", at: node, file: file)
        }
        var name = mapping["name"].flatMap(ConfigYAML.text)?.trimmingWhitespace ?? ""
        let what = name.isEmpty ? "rule \(number)" : "rule \(number) (\(name))"
        let category = try mapping["category"].map { try categoryName($0, what: "\(what): 'category'", file: file) }
        switch kind {
        case .merchant:
            guard !name.isEmpty else { throw ConfigYAML.error("\(what): missing 'name'", at: node, file: file) }
        case .category:
            guard let category else {
                throw ConfigYAML.error("\(what): missing 'category' (the category its transactions are reported under)", at: node, file: file)
            }
            if name.isEmpty { name = category }
        case .transfer:
            break
        }
        var rule = MerchantRule(name: name.isEmpty ? "transfer rule \(number)" : name)
        rule.category = category
        rule.purchasesOnly = purchasesOnly
        let keys = kind.keys
        for (keyNode, value) in mapping {
            let key = ConfigYAML.text(keyNode) ?? "?"
            guard keys.contains(key) else {
                throw ConfigYAML.error("\(what): unknown key '\(key)'; expected one of \(keys.joined(separator: ", "))",
                                       at: keyNode, file: file)
            }
            switch key {
            case "name", "category":
                continue
            case "id":
                let id = ConfigYAML.text(value)?.trimmingWhitespace ?? ""
                guard !id.isEmpty, !id.contains(where: { $0.isWhitespace || $0 == ":" }) else {
                    throw ConfigYAML.error("\(what): 'id' must be a word without spaces or ':' (such as globex-salary)",
                                           at: value, file: file)
                }
                rule.id = id
            case "scope":
                rule.purchasesOnly = try scope(value, what: "\(what): 'scope'", file: file)
            case "amount":
                (rule.minimumAmount, rule.maximumAmount) = try amountRange(value, what: "\(what): 'amount'", file: file)
            case "direction":
                switch ConfigYAML.text(value) {
                case "debit": rule.direction = .debit
                case "credit": rule.direction = .credit
                default:
                    throw ConfigYAML.error("\(what): 'direction' must be debit (money out) or credit (money in), found '\(ConfigYAML.text(value) ?? "a list")'",
                                           at: value, file: file)
                }
            case "account":
                let accounts = try ConfigYAML.strings(value, what: "\(what): 'account'", file: file)
                    .map { $0.trimmingWhitespace }
                guard !accounts.isEmpty, !accounts.contains(where: \.isEmpty) else {
                    throw ConfigYAML.error("\(what): 'account' must name an account: its id or its name, as `coffer accounts` prints them",
                                           at: value, file: file)
                }
                rule.accounts = accounts
            case "mcc":
                rule.merchantCategoryCode = try ConfigYAML.merchantCategoryCode(value, what: "\(what): 'mcc'", file: file)
            case "contains", "prefix":
                let patterns = try ConfigYAML.strings(value, what: "\(what): '\(key)'", file: file)
                for pattern in patterns where TextFolding.symbols(of: pattern).isEmpty {
                    throw ConfigYAML.error("\(what): '\(key)' pattern '\(pattern)' has no letters or digits", at: value, file: file)
                }
                if key == "contains" { rule.contains += patterns } else { rule.prefixes += patterns }
            case "type":
                let text = ConfigYAML.text(value) ?? ""
                guard let type = TransactionType.allCases.first(where: { TransactionType.caseNames[$0] == text }) else {
                    throw ConfigYAML.error("\(what): 'type' must be a transaction type such as pointOfSale or transfer, found '\(text)'",
                                           at: value, file: file)
                }
                rule.transactionType = type
            case "on":
                let text = ConfigYAML.text(value) ?? ""
                guard let field = MerchantRule.Field(rawValue: text) else {
                    throw ConfigYAML.error("\(what): 'on' must be any, cleaned or raw, found '\(text)'", at: value, file: file)
                }
                rule.field = field
            default:
                throw ConfigYAML.error("\(what): unknown key '\(key)'; expected one of \(keys.joined(separator: ", "))",
                                       at: keyNode, file: file)
            }
        }
        guard rule.hasPatterns || !rule.accounts.isEmpty || rule.minimumAmount != nil || rule.maximumAmount != nil else {
            let words = kind == .merchant ? "the words that identify the merchant" : "the words that identify its transactions"
            throw ConfigYAML.error("\(what): needs 'contains' or 'prefix' (\(words))", at: node, file: file)
        }
        if kind != .merchant, mapping["id"] == nil {
            // No name of its own to make an id from: the id is made from what it says.
            let words = (rule.contains + rule.prefixes).first ?? rule.accounts.first ?? "\(number)"
            rule.id = MerchantRule.id(forName: (kind == .category ? (category ?? "") : "transfer") + " " + words)
        }
        return rule
    }

    /// A category name as rules and the MCC table write it: words (letters, digits, spaces, `&`, `-`, `/`), kept as
    /// written, `dining` or `Home & garden`.
    static func categoryName(_ node: Node, what: String, file: String) throws -> String {
        let text = ConfigYAML.text(node)?.trimmingWhitespace ?? ""
        guard !text.isEmpty, text.count <= 40, text.contains(where: { $0.isLetter }),
              text.allSatisfy({ $0.isLetter || $0.isNumber || " &-/'".contains($0) }) else {
            throw ConfigYAML.error("\(what) must be a category name of letters, digits and spaces (such as dining or Home & garden, "
                                   + "at most 40 characters), found '\(ConfigYAML.text(node) ?? "a list")'", at: node, file: file)
        }
        return text
    }

    /// `amount: 42.50` (exactly), or `amount: {min: 1000, max: 5000}` (either bound may be left out; both inclusive).
    private static func amountRange(_ node: Node, what: String, file: String) throws -> (Decimal?, Decimal?) {
        func amount(_ node: Node, _ what: String) throws -> Decimal {
            let text = ConfigYAML.text(node)?.trimmingWhitespace ?? ""
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), text.filter({ $0 == "." }).count <= 1,
                  let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw ConfigYAML.error("\(what): expected a positive amount such as 42.50 (amounts are magnitudes; "
                                       + "'direction: debit' or 'credit' says which way), found '\(text)'", at: node, file: file)
            }
            return value
        }
        switch node {
        case .scalar:
            let value = try amount(node, what)
            return (value, value)
        case .mapping(let mapping):
            var minimum: Decimal?, maximum: Decimal?
            for (key, value) in mapping {
                switch ConfigYAML.text(key) {
                case "min": minimum = try amount(value, what + " min")
                case "max": maximum = try amount(value, what + " max")
                default:
                    throw ConfigYAML.error("\(what): unknown key '\(ConfigYAML.text(key) ?? "?")'; expected min and max", at: key, file: file)
                }
            }
            if let minimum, let maximum, minimum > maximum {
                throw ConfigYAML.error("\(what): min \(minimum) is more than max \(maximum)", at: node, file: file)
            }
            guard minimum != nil || maximum != nil else {
                throw ConfigYAML.error("\(what): expected min, max or both", at: node, file: file)
            }
            return (minimum, maximum)
        default:
            throw ConfigYAML.error("\(what): expected an amount or {min: ..., max: ...}", at: node, file: file)
        }
    }
}
