import CofferFormats
import CofferModel
import Foundation

/// Coffer's configuration folder: CSV profiles (`profiles/*.yaml`), merchant rules (`merchants.yaml`, plus the
/// user's own `merchants.local.yaml`), the category→MCC table (`categories.yaml`, plus `categories.local.yaml`),
/// institution equivalences (`institutions.yaml`, plus `institutions.local.yaml`) and the person's own account
/// aliases (`accounts.yaml`).
///
/// For example:
/// ```swift
/// let configuration = try CofferConfiguration.standard()                 // built-in, ~/.config/coffer, $COFFER_CONFIG
/// let one = try CofferConfiguration.load(directory: "config")          // one folder alone
/// ```
public struct CofferConfiguration: Sendable {
    /// The folder it was loaded from, when one folder alone (`load(directory:)`); nil for layers.
    public var directory: String?
    package var profiles: CSVProfileSet
    package var normalizer: DescriptionNormalizer
    /// Which names, OFX ORG/FID pairs, bank ids and BICs name the same institution.
    package var institutions: InstitutionTable
    /// Identities the person says belong to a stored account.
    package var accountAliases: [AccountAliasRule]
    /// Where each item came from, and warnings about the layers (filled by `load(layers:)`).
    public var report = ConfigurationReport()
    /// Spending categories: the MCC table, category rules and type categories of `mcc-categories.yaml`, with the
    /// merchant rules' `category`.
    package var categorizer = Categorizer.empty
    /// The rules of `transfers.yaml`: transactions they match are own transfers (`OwnTransfers`).
    package var transferRules = MerchantRules.empty

    package init(directory: String?, profiles: CSVProfileSet, normalizer: DescriptionNormalizer,
                institutions: InstitutionTable = .empty, accountAliases: [AccountAliasRule] = []) {
        self.directory = directory
        self.profiles = profiles
        self.normalizer = normalizer
        self.institutions = institutions
        self.accountAliases = accountAliases
    }

    /// Loads everything under `directory` alone (no built-in defaults, no other layer); nil gives an empty
    /// configuration (no CSV profiles, no rules). Coffer's commands use `standard(directories:)`, which layers.
    public static func load(directory: String?) throws -> CofferConfiguration {
        guard let directory else {
            return CofferConfiguration(directory: nil, profiles: CSVProfileSet(profiles: []), normalizer: DescriptionNormalizer())
        }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CofferError(.badConfiguration, "the configuration folder \(directory) does not exist")
        }
        func existing(_ name: String) -> String? {
            let path = directory + "/" + name
            return fm.fileExists(atPath: path) ? path : nil
        }
        let profilesPath = directory + "/profiles"
        let profiles = fm.fileExists(atPath: profilesPath) ? try CSVProfileSet.load(directory: profilesPath) : CSVProfileSet(profiles: [])
        let rules = try existing("merchants.yaml").map { try MerchantRules.load(defaults: $0, user: existing("merchants.local.yaml")) } ?? .empty
        let categories = try existing("categories.yaml").map { try CategoryMCCTable.load(defaults: $0, user: existing("categories.local.yaml")) } ?? .empty
        let institutions = try InstitutionTable.load(defaults: existing("institutions.yaml"), user: existing("institutions.local.yaml"))
        let aliases = try existing("accounts.yaml").map(AccountAliasRule.load) ?? []
        var configuration = CofferConfiguration(directory: directory, profiles: profiles,
                                                normalizer: DescriptionNormalizer(rules: rules, categories: categories),
                                                institutions: institutions, accountAliases: aliases)
        // The spending categories and transfer rules of this folder alone: its file, then its .local file.
        var entries: [MCCCategoryTable.Entry] = []
        var categoryRules: [MerchantRule] = []
        var types: [TransactionType: String] = [:]
        var transfers: [MerchantRule] = []
        for (layer, name) in ["mcc-categories.yaml", "mcc-categories.local.yaml"].enumerated() {
            guard let path = existing(name) else { continue }
            let file = try MCCCategoryFile.parse(yaml: ConfigYAML.read(path), file: path)
            entries.removeAll { entry in file.categories.contains { $0.category == entry.category } }
            entries += file.categories.map { MCCCategoryTable.Entry(category: $0.category, ranges: $0.ranges, layer: layer) }
            categoryRules = file.rules + categoryRules.filter { rule in !file.rules.contains { $0.id == rule.id } }
            types.merge(file.types) { _, theirs in theirs }
        }
        for name in ["transfers.yaml", "transfers.local.yaml"] {
            guard let path = existing(name) else { continue }
            let own = try MerchantRules.parseTransfers(yaml: ConfigYAML.read(path), file: path)
            transfers = own + transfers.filter { rule in !own.contains { $0.id == rule.id } }
        }
        configuration.categorizer = Categorizer(table: MCCCategoryTable(entries), merchantRules: rules,
                                                categoryRules: MerchantRules(categoryRules), typeCategories: types,
                                                cleaner: configuration.normalizer.cleaner)
        configuration.transferRules = MerchantRules(transfers)
        return configuration
    }

    /// The one folder versions before configuration layers read: `$COFFER_CONFIG`, else `./config` when it holds
    /// profiles, else `$XDG_CONFIG_HOME/coffer` (`~/.config/coffer`) when it exists; nil when none does. Coffer's
    /// commands now read `standard(directories:)`, the built-in defaults with these folders layered over them.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment,
                                        currentDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        if let explicit = environment["COFFER_CONFIG"], !explicit.isEmpty { return explicit }
        let fm = FileManager.default
        let local = currentDirectory + "/config"
        if fm.fileExists(atPath: local + "/profiles") || fm.fileExists(atPath: local + "/merchants.yaml") { return local }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        let user = base + "/coffer"
        return fm.fileExists(atPath: user) ? user : nil
    }
}
