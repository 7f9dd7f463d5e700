import CofferFormats
import CofferModel
import CofferPipeline
import Foundation
import Yams

/// The journal account each of Coffer's accounts and categories is written as: `export.yaml` in the configuration
/// folders, over defaults.
///
/// For example, with
/// ```yaml
/// # ~/.config/coffer/export.yaml
/// accounts:
///   97236580-2949-861B-AE1D-14D9B5E761EE: Assets:Checking     # an account id, as `coffer accounts` prints it
/// expenses:
///   dining: Expenses:Food:Restaurants                          # a category's debits
/// income:
///   uncategorized: Income:Other                                # a category's credits
/// opening: Equity:Opening-Balances                             # opening balances
/// transfers: Assets:Transfers                                  # an own transfer whose other half is not written
/// ```
/// the checking account is `Assets:Checking`. Without an entry an asset account is
/// `Assets:Bank:<Institution>:<Name>` and a liability `Liabilities:Card:<Institution>:<Name>` (the name without the
/// institution's name when it starts with it), a debit's counter-posting `Expenses:<Category>` and a credit's
/// `Income:<Category>`. Names are made acceptable to each tool when written (`JournalAccountNames.sanitize`).
public struct JournalAccountNames: Sendable, Equatable {
    /// Names given to accounts, by account id.
    public var accounts: [UUID: String] = [:]
    /// Names given to categories' debits (lowercase category → name).
    public var expenses: [String: String] = [:]
    /// Names given to categories' credits (lowercase category → name).
    public var income: [String: String] = [:]
    /// The counter-account of opening balances.
    public var opening = "Equity:Opening-Balances"
    /// The counter-account of half of an own transfer whose other half is not in the export.
    public var transfers = "Assets:Transfers"

    /// The defaults alone.
    public init() {}

    /// The names the configuration layers give (each layer's `export.yaml`, then `export.local.yaml`; a later
    /// layer's entry replaces an earlier one's of the same key).
    public static func load(layers: [ConfigurationLayer]) throws -> JournalAccountNames {
        var names = JournalAccountNames()
        for layer in layers {
            for file in layer.files where file.name == "export.yaml" || file.name == "export.local.yaml" {
                try names.read(yaml: file.text, file: file.source)
            }
        }
        return names
    }

    /// The names `coffer` uses: those of `ConfigurationLayer.standard(directories:)`.
    public static func standard(directories: [String] = [],
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws -> JournalAccountNames {
        try load(layers: ConfigurationLayer.standard(directories: directories, environment: environment))
    }

    /// Reads one `export.yaml`, its entries replacing those already here.
    package mutating func read(yaml text: String, file: String) throws {
        let root: Node?
        do { root = try CofferYAML.compose(text) } catch {
            throw CofferError(.badConfiguration, "not valid YAML: \(error)", location: SourceLocation(file: file))
        }
        guard let root else { return }
        guard case .mapping(let top) = root else {
            throw Self.error("expected a mapping with 'accounts', 'expenses', 'income', 'opening' or 'transfers'", at: root, file: file)
        }
        for (key, value) in top {
            let name = key.string ?? ""
            switch name {
            case "version": continue
            case "opening": opening = try Self.accountName(value, what: "'opening'", file: file)
            case "transfers": transfers = try Self.accountName(value, what: "'transfers'", file: file)
            case "accounts":
                for (id, node) in try Self.mapping(value, what: "'accounts'", file: file) {
                    guard let uuid = UUID(uuidString: id.string ?? "") else {
                        throw Self.error("'accounts': '\(id.string ?? "")' is not an account id; expected an id as `coffer accounts` "
                                         + "prints it (97236580-2949-861B-AE1D-14D9B5E761EE)", at: id, file: file)
                    }
                    accounts[uuid] = try Self.accountName(node, what: "'accounts' \(uuid.uuidString)", file: file)
                }
            case "expenses", "income":
                for (category, node) in try Self.mapping(value, what: "'\(name)'", file: file) {
                    let key = (category.string ?? "").lowercased()
                    let journal = try Self.accountName(node, what: "'\(name)' \(key)", file: file)
                    if name == "expenses" { expenses[key] = journal } else { income[key] = journal }
                }
            default:
                throw Self.error("unknown key '\(name)'; expected accounts, expenses, income, opening or transfers", at: key, file: file)
            }
        }
    }

    /// The default name of an account, before sanitizing: `Assets:Bank:<Institution>:<Name>` or
    /// `Liabilities:Card:<Institution>:<Name>`.
    package func name(of account: Account) -> String {
        if let given = accounts[account.id] { return given }
        let institution = account.institutionName.trimmingCharacters(in: .whitespaces)
        var name = account.displayName.trimmingCharacters(in: .whitespaces)
        if !institution.isEmpty, name.lowercased().hasPrefix(institution.lowercased()) {
            let rest = name.dropFirst(institution.count).trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
            if rest.contains(where: { $0.isLetter || $0.isNumber }) { name = rest }
        }
        let root = account.kind == .asset ? "Assets:Bank" : "Liabilities:Card"
        return [root, institution.isEmpty ? "Unknown" : institution, name].joined(separator: ":")
    }

    /// The counter-account of a transaction of this category: its debits' (`Expenses:…`) or credits' (`Income:…`).
    package func name(ofCategory category: String, indicator: CreditDebitIndicator) -> String {
        let key = category.lowercased()
        if indicator == .debit { return expenses[key] ?? "Expenses:" + Self.titled(key) }
        return income[key] ?? "Income:" + Self.titled(key)
    }

    /// `home-improvement` → `Home-improvement`.
    static func titled(_ category: String) -> String {
        category.isEmpty ? "Uncategorized" : category.prefix(1).uppercased() + category.dropFirst()
    }

    /// The five top-level names every journal account starts with (beancount accepts no other).
    static let roots = ["Assets", "Liabilities", "Equity", "Income", "Expenses"]

    private static func accountName(_ node: Node, what: String, file: String) throws -> String {
        guard let text = node.string?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            throw error("\(what): expected a journal account name such as Assets:Bank:Checking", at: node, file: file)
        }
        let root = String(text.prefix(while: { $0 != ":" }))
        guard roots.contains(root) else {
            throw error("\(what): '\(text)' must start with one of \(roots.joined(separator: ", ")) "
                        + "(the top-level accounts beancount, hledger and ledger share)", at: node, file: file)
        }
        return text
    }

    private static func mapping(_ node: Node, what: String, file: String) throws -> [(Node, Node)] {
        if node.string == "" { return [] }
        guard case .mapping(let pairs) = node else {
            throw error("\(what): expected a mapping (key: Journal:Account:Name)", at: node, file: file)
        }
        return Array(pairs)
    }

    private static func error(_ message: String, at node: Node, file: String) -> CofferError {
        CofferError(.badConfiguration, message, location: SourceLocation(file: file, line: node.mark?.line, column: node.mark?.column))
    }
}
