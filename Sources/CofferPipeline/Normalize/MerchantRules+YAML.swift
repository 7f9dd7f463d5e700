import CofferModel
import Foundation
import Yams

extension MerchantRules {
    /// Loads the shipped defaults and, when given, the user's own rules file, which overrides and extends them.
    ///
    /// For example, `try MerchantRules.load(defaults: "config/merchants.yaml", user: nil)`.
    /// Throws `CofferError(.badConfiguration)` naming the file, the line and the rule for a mistake in either.
    public static func load(defaults: String, user: String?) throws -> MerchantRules {
        let base = try parse(yaml: ConfigYAML.read(defaults), file: defaults)
        let own = try user.map { try parse(yaml: ConfigYAML.read($0), file: $0) } ?? []
        return MerchantRules(defaults: base, overrides: own)
    }

    /// The rules of one `merchants.yaml` text (see the comment at the top of `config/merchants.yaml`).
    ///
    /// Rules are numbered from 1 in messages: `rule 3 (Starbucks): 'mcc' must be ...`.
    public static func parse(yaml text: String, file: String) throws -> [MerchantRule] {
        let root = try ConfigYAML.root(of: text, file: file)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with a 'merchants' list at the top", at: root, file: file)
        }
        var list: Node?
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "merchants": list = value
            case "version": continue
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected 'merchants'",
                                       at: key, file: file)
            }
        }
        guard let list else { throw ConfigYAML.error("missing the 'merchants' list", at: root, file: file) }
        guard case .sequence(let items) = list else {
            throw ConfigYAML.error("'merchants' must be a list of rules (each starting with '- name:')", at: list, file: file)
        }
        return try items.enumerated().map { offset, item in try rule(item, number: offset + 1, file: file) }
    }

    private static let keys = ["name", "mcc", "contains", "prefix", "type", "on"]

    private static func rule(_ node: Node, number: Int, file: String) throws -> MerchantRule {
        guard case .mapping(let mapping) = node else {
            throw ConfigYAML.error("rule \(number): expected a mapping with 'name' and 'contains' or 'prefix'", at: node, file: file)
        }
        let name = mapping["name"].flatMap(ConfigYAML.text)?.trimmingCharacters(in: .whitespaces) ?? ""
        let what = name.isEmpty ? "rule \(number)" : "rule \(number) (\(name))"
        guard !name.isEmpty else { throw ConfigYAML.error("\(what): missing 'name'", at: node, file: file) }
        var rule = MerchantRule(name: name)
        for (keyNode, value) in mapping {
            let key = ConfigYAML.text(keyNode) ?? "?"
            switch key {
            case "name":
                continue
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
        guard !rule.contains.isEmpty || !rule.prefixes.isEmpty else {
            throw ConfigYAML.error("\(what): needs 'contains' or 'prefix' (the words that identify the merchant)", at: node, file: file)
        }
        return rule
    }
}
