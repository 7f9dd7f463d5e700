import CofferModel
import Foundation
import Yams

/// Identities a person says belong to a stored account (`accounts.yaml` in the configuration folder): statements
/// that name the account another way land on it.
///
/// For example, with
/// ```yaml
/// accounts:
///   - id: 0F8E5C43-2D7B-8A1C-9E44-5B6A7C8D9E0F     # as `coffer accounts` prints it
///     identities:
///       - {institution: American Express, last_digits: "1004"}
/// ```
/// a statement of American Express (or an institution the table says is the same) whose account number ends in
/// 1004 lands on that account, whatever key its source gives it.
package struct AccountAliasRule: Sendable, Hashable {
    package var accountID: UUID
    /// The institution's name as a source gives it (or any name the institution table lists for it).
    package var institution: String
    /// The institution's id (OFX FID or BANKID, a BIC), when given.
    package var institutionID: String?
    /// The whole account number (letters and digits, case ignored), or the digits it ends with.
    package var number: String?
    package var lastDigits: String?
    /// Only statements in this currency, when given.
    package var currency: String?
    package var location: SourceLocation

    package var signature: InstitutionSignature {
        InstitutionSignature(name: institution, ids: institutionID.map { [$0] } ?? [])
    }

    /// Whether a statement's account (its institution, its number as letters and digits, its currency) is this
    /// identity.
    func matches(_ incoming: InstitutionSignature, number incomingNumber: String, currency incomingCurrency: String?,
                 table: InstitutionTable) -> Bool {
        let digits = incomingNumber.uppercased()
        if let number, number != digits { return false }
        if let lastDigits, !digits.hasSuffix(lastDigits) { return false }
        if let currency, let incomingCurrency, currency != incomingCurrency { return false }
        return table.equivalent(signature, incoming)
    }

    /// The rules of an `accounts.yaml` file (see the comment at the top of `config/accounts.yaml`).
    package static func load(_ file: String) throws -> [AccountAliasRule] {
        try parse(yaml: ConfigYAML.read(file), file: file)
    }

    static func parse(yaml text: String, file: String) throws -> [AccountAliasRule] {
        let root = try ConfigYAML.root(of: text, file: file)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with an 'accounts' list at the top", at: root, file: file)
        }
        var list: Node?
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "accounts": list = value
            case "version": continue
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected 'accounts'", at: key, file: file)
            }
        }
        guard let list else { throw ConfigYAML.error("missing the 'accounts' list", at: root, file: file) }
        if case .scalar(let scalar) = list, scalar.string.isEmpty || scalar.string == "[]" { return [] }
        guard case .sequence(let items) = list else {
            throw ConfigYAML.error("'accounts' must be a list (each entry starting with '- id:')", at: list, file: file)
        }
        var rules: [AccountAliasRule] = []
        for (offset, item) in items.enumerated() {
            let what = "account \(offset + 1)"
            guard case .mapping(let mapping) = item else {
                throw ConfigYAML.error("\(what): expected a mapping with 'id' and 'identities'", at: item, file: file)
            }
            for key in mapping.keys where !["id", "identities"].contains(ConfigYAML.text(key) ?? "") {
                throw ConfigYAML.error("\(what): unknown key '\(ConfigYAML.text(key) ?? "?")'; expected id, identities", at: key, file: file)
            }
            let idText = mapping["id"].flatMap(ConfigYAML.text) ?? ""
            guard let id = UUID(uuidString: idText.trimmingWhitespace) else {
                throw ConfigYAML.error("\(what): 'id' must be an account's id as coffer accounts prints it "
                                       + "(a UUID such as 0F8E5C43-2D7B-8A1C-9E44-5B6A7C8D9E0F), found '\(idText)'",
                                       at: mapping["id"] ?? item, file: file)
            }
            guard case .sequence(let identities)? = mapping["identities"], !identities.isEmpty else {
                throw ConfigYAML.error("\(what): needs 'identities', a list of {institution: ..., last_digits: ...} "
                                       + "or {institution: ..., number: ...}", at: mapping["identities"] ?? item, file: file)
            }
            for identity in identities {
                rules.append(try rule(identity, accountID: id, what: what, file: file))
            }
        }
        return rules
    }

    private static func rule(_ node: Node, accountID: UUID, what: String, file: String) throws -> AccountAliasRule {
        guard case .mapping(let mapping) = node else {
            throw ConfigYAML.error("\(what): each identity is a mapping such as {institution: Amex, last_digits: \"1004\"}",
                                   at: node, file: file)
        }
        var fields: [String: String] = [:]
        for (keyNode, value) in mapping {
            let key = ConfigYAML.text(keyNode) ?? "?"
            guard ["institution", "institution_id", "number", "last_digits", "currency"].contains(key) else {
                throw ConfigYAML.error("\(what): unknown key '\(key)' in an identity; expected institution, institution_id, "
                                       + "number, last_digits, currency", at: keyNode, file: file)
            }
            guard let text = ConfigYAML.text(value)?.trimmingWhitespace, !text.isEmpty else {
                throw ConfigYAML.error("\(what): '\(key)' must be a text", at: value, file: file)
            }
            fields[key] = text
        }
        let digits = { (text: String) in text.uppercased().filter { $0.isLetter || $0.isNumber } }
        let location = SourceLocation(file: file, line: node.mark?.line, column: node.mark?.column)
        guard let institution = fields["institution"] else {
            throw ConfigYAML.error("\(what): an identity needs 'institution' (the name its statements give)", at: node, file: file)
        }
        let number = fields["number"].map(digits)
        let last = fields["last_digits"].map(digits)
        guard (number == nil) != (last == nil), !(number ?? last ?? "").isEmpty else {
            throw ConfigYAML.error("\(what): an identity needs either 'number' (the whole account number) or 'last_digits'",
                                   at: node, file: file)
        }
        if let last, last.count < 4 {
            throw ConfigYAML.error("\(what): 'last_digits' needs at least four digits, found '\(last)'", at: node, file: file)
        }
        let currency = fields["currency"]?.uppercased()
        if let currency, StatementAccount.isCurrencyCode(currency) == nil {
            throw ConfigYAML.error("\(what): 'currency' must be an ISO 4217 code such as USD, found '\(currency)'", at: node, file: file)
        }
        return AccountAliasRule(accountID: accountID, institution: institution, institutionID: fields["institution_id"],
                                number: number, lastDigits: last, currency: currency, location: location)
    }
}
