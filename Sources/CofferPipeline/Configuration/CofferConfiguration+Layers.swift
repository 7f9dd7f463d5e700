import CofferFormats
import CofferModel
import Foundation
import Yams

extension CofferConfiguration {
    /// The configuration of these layers, lowest first (see `ConfigurationLayer.standard`).
    ///
    /// For example:
    /// ```swift
    /// let configuration = try CofferConfiguration.load(layers: ConfigurationLayer.standard(directories: ["./mine"]))
    /// configuration.report.warnings    // e.g. a disable entry that names nothing
    /// ```
    /// A later layer adds profiles, merchant rules, category words, institutions and account aliases. What has an
    /// id overrides an earlier layer's item of that id: a profile (its `id`), a rule (its `id`, else one made from
    /// its name), a category word (case and punctuation ignored). An institution with an earlier id extends it (more
    /// names and ids), and account aliases add up. A later layer's rules come before the earlier layers' (they win
    /// ties), and a `*.local.yaml` file is a layer of its own just above the file it sits beside. A layer's
    /// `disable.yaml` (`disable: [starbucks, profile:amex]`) turns off earlier layers' items; its own items are read
    /// after it, so a layer may disable a shipped item and define its own under the same id.
    public static func load(layers: [ConfigurationLayer]) throws -> CofferConfiguration {
        var loader = LayerLoader()
        for layer in layers { try loader.read(layer) }
        return try loader.configuration(directory: layers.last(where: { $0.name != ConfigurationLayer.builtIn.name })?.name)
    }

    /// The configuration Coffer's commands use: the built-in defaults, `~/.config/coffer`, each of `directories`
    /// (`--config DIR`) and `$COFFER_CONFIG`, in that order (`ConfigurationLayer.standard`).
    public static func standard(directories: [String] = [],
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CofferConfiguration {
        try load(layers: ConfigurationLayer.standard(directories: directories, environment: environment))
    }
}

/// Folds layers into one configuration, remembering where each item came from.
private struct LayerLoader {
    struct Entry<Value> {
        var value: Value
        var item: ConfigurationItem
        /// The rank of the file that defined it (a later file, a higher rank) and its place in that file.
        var rank = 0
        var position = 0
    }

    var layerNames: [String] = []
    var profiles: [String: Entry<LayerProfile>] = [:]
    var rules: [String: Entry<MerchantRule>] = [:]
    var categories: [String: Entry<MerchantCategoryCode?>] = [:]
    var institutions: [String: Entry<Institution>] = [:]
    var institutionOrder: [String] = []
    var institutionTable = InstitutionTable()
    var aliases: [Entry<AccountAliasRule>] = []
    var mccCategories: [String: Entry<[ClosedRange<Int>]>] = [:]
    var categoryRules: [String: Entry<MerchantRule>] = [:]
    var typeCategories: [TransactionType: String] = [:]
    var transferRules: [String: Entry<MerchantRule>] = [:]
    var disabled: [ConfigurationItem] = []
    var warnings: [String] = []
    var rank = 0

    mutating func read(_ layer: ConfigurationLayer) throws {
        layerNames.append(layer.name)
        for file in layer.files where file.name == "disable.yaml" { try disable(file) }
        var profileFiles: [String: String] = [:]
        for file in layer.files where file.name != "disable.yaml" {
            rank += 1
            if file.name.hasPrefix("profiles/") {
                let id: String, institution: String, value: LayerProfile
                if layer.name == ConfigurationLayer.builtIn.name, let facts = ShippedProfileFacts(yaml: file.text) {
                    (id, institution) = (facts.id, facts.institution)
                    value = .deferred(CSVProfileSet.Deferred(yaml: file.text, file: file.source))
                } else {
                    let profile = try CSVProfileSet.decode(yaml: file.text, file: file.source)
                    (id, institution, value) = (profile.id, profile.institution, .decoded(profile))
                }
                if let other = profileFiles[id] {
                    throw CofferError(.badConfiguration, "key 'id': '\(id)' is already the id of \(other)",
                                      location: SourceLocation(file: file.source))
                }
                profileFiles[id] = file.source
                let item = ConfigurationItem(kind: .profile, id: id, detail: institution, source: file.source,
                                             overrides: overrides(profiles[id]?.item))
                profiles[id] = Entry(value: value, item: item, rank: rank)
                continue
            }
            switch file.name {
            case "merchants.yaml", "merchants.local.yaml":
                var seen: [String: Int] = [:]
                for (position, rule) in try MerchantRules.parse(yaml: file.text, file: file.source).enumerated() {
                    if let first = seen[rule.id] {
                        throw CofferError(.badConfiguration, "rule \(position + 1) (\(rule.name)): its id '\(rule.id)' is also rule "
                                          + "\(first)'s; give one of them another 'id:'", location: SourceLocation(file: file.source))
                    }
                    seen[rule.id] = position + 1
                    let item = ConfigurationItem(kind: .rule, id: rule.id, detail: Self.describe(rule), source: file.source,
                                                 overrides: overrides(rules[rule.id]?.item))
                    rules[rule.id] = Entry(value: rule, item: item, rank: rank, position: position)
                }
            case "categories.yaml", "categories.local.yaml":
                let table = try CategoryMCCTable.parse(yaml: file.text, file: file.source)
                for (key, code) in table.entries.sorted(by: { $0.key < $1.key }) {
                    let item = ConfigurationItem(kind: .category, id: key, detail: code.map { "MCC \($0.code)" } ?? "no MCC",
                                                 source: file.source, overrides: overrides(categories[key]?.item))
                    categories[key] = Entry(value: code, item: item)
                }
            case "institutions.yaml", "institutions.local.yaml":
                for (institution, node) in try InstitutionTable.parse(yaml: file.text, file: file.source) {
                    do {
                        try institutionTable.add(institution)
                    } catch let conflict as InstitutionTableConflict {
                        throw ConfigYAML.error("institution '\(institution.id)': \(conflict.message); an institution's names "
                                               + "and ids must name only it", at: node, file: file.source)
                    }
                    if var entry = institutions[institution.id] {
                        entry.value.names += institution.names
                        entry.value.ofx += institution.ofx
                        entry.value.bankIDs += institution.bankIDs
                        entry.value.bics += institution.bics
                        entry.item.overrides.append(file.source)
                        institutions[institution.id] = entry
                    } else {
                        institutionOrder.append(institution.id)
                        let detail = institution.names.first ?? institution.ofx.first?.org ?? institution.id
                        institutions[institution.id] = Entry(value: institution, item: ConfigurationItem(
                            kind: .institution, id: institution.id, detail: detail, source: file.source))
                    }
                }
            case "mcc-categories.yaml", "mcc-categories.local.yaml":
                let parsed = try MCCCategoryFile.parse(yaml: file.text, file: file.source)
                for (position, entry) in parsed.categories.enumerated() {
                    let item = ConfigurationItem(kind: .category, id: entry.category, detail: "spending category of MCC " + Self.describe(entry.ranges),
                                                 source: file.source, overrides: overrides(mccCategories[entry.category]?.item))
                    mccCategories[entry.category] = Entry(value: entry.ranges, item: item, rank: rank, position: position)
                }
                try Self.add(parsed.rules, to: &categoryRules, rank: rank, file: file)
                typeCategories.merge(parsed.types) { _, theirs in theirs }
            case "transfers.yaml", "transfers.local.yaml":
                try Self.add(try MerchantRules.parseTransfers(yaml: file.text, file: file.source), to: &transferRules, rank: rank, file: file)
            case "accounts.yaml", "accounts.local.yaml":
                for alias in try AccountAliasRule.parse(yaml: file.text, file: file.source) {
                    let detail = alias.institution + (alias.lastDigits.map { " …\($0)" } ?? alias.number.map { " \($0)" } ?? "")
                    aliases.append(Entry(value: alias, item: ConfigurationItem(
                        kind: .account, id: alias.accountID.uuidString, detail: detail, source: file.source)))
                }
            default:
                continue
            }
        }
    }

    /// Category or transfer rules of one file, each replacing an earlier layer's rule of its id.
    private static func add(_ list: [MerchantRule], to rules: inout [String: Entry<MerchantRule>], rank: Int,
                            file: ConfigurationLayer.File) throws {
        var seen: [String: Int] = [:]
        for (position, rule) in list.enumerated() {
            if let first = seen[rule.id] {
                throw CofferError(.badConfiguration, "rule \(position + 1): its id '\(rule.id)' is also rule \(first)'s; give one of "
                                  + "them another 'id:'", location: SourceLocation(file: file.source))
            }
            seen[rule.id] = position + 1
            let item = ConfigurationItem(kind: .rule, id: rule.id, detail: Self.describe(rule), source: file.source,
                                         overrides: rules[rule.id].map { $0.item.overrides + [$0.item.source] } ?? [])
            rules[rule.id] = Entry(value: rule, item: item, rank: rank, position: position)
        }
    }

    /// The sources an item of a new layer overrides: the earlier item's own and those it overrode.
    private func overrides(_ earlier: ConfigurationItem?) -> [String] {
        earlier.map { $0.overrides + [$0.source] } ?? []
    }

    /// `disable: [id, kind:id, ...]`: turns off earlier layers' items. A bare id means a profile or a rule.
    private mutating func disable(_ file: ConfigurationLayer.File) throws {
        let root = try ConfigYAML.root(of: file.text, file: file.source)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with a 'disable' list at the top", at: root, file: file.source)
        }
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "version": continue
            case "disable":
                if case .scalar(let scalar) = value, scalar.string.isEmpty || scalar.string == "[]" { continue }
                for entry in try ConfigYAML.strings(value, what: "'disable'", file: file.source) {
                    try disable(entry.trimmingWhitespace, file: file, node: value)
                }
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected 'disable' "
                                       + "(a list of ids such as starbucks, profile:amex, institution:chase, category:groceries)",
                                       at: key, file: file.source)
            }
        }
    }

    private mutating func disable(_ entry: String, file: ConfigurationLayer.File, node: Node) throws {
        var kinds: [ConfigurationItem.Kind] = [.profile, .rule]
        var id = entry
        if let colon = entry.firstIndex(of: ":") {
            let prefix = String(entry[..<colon])
            guard let kind = ConfigurationItem.Kind(rawValue: prefix == "merchant" ? "rule" : prefix) else {
                throw ConfigYAML.error("'disable': '\(entry)' names no kind of item; write profile:ID, rule:ID, category:WORD or "
                                       + "institution:ID, or a bare profile or rule id", at: node, file: file.source)
            }
            kinds = [kind]
            id = String(entry[entry.index(after: colon)...]).trimmingWhitespace
        }
        var found = false
        func off(_ item: ConfigurationItem) -> ConfigurationItem {
            var item = item
            item.disabledBy = file.source
            found = true
            return item
        }
        for kind in kinds {
            switch kind {
            case .profile: if let entry = profiles.removeValue(forKey: id) { disabled.append(off(entry.item)) }
            case .rule: if let entry = rules.removeValue(forKey: id) { disabled.append(off(entry.item)) }
            case .category:
                let key = CategoryMCCTable.key(id)
                if let entry = categories.removeValue(forKey: key) { disabled.append(off(entry.item)) }
            case .institution:
                if let entry = institutions.removeValue(forKey: id) {
                    disabled.append(off(entry.item))
                    institutionOrder.removeAll { $0 == id }
                    institutionTable = try InstitutionTable(institutionOrder.compactMap { institutions[$0]?.value })
                }
            case .account:
                let before = aliases.count
                for alias in aliases where alias.item.id.lowercased() == id.lowercased() { disabled.append(off(alias.item)) }
                aliases.removeAll { $0.item.id.lowercased() == id.lowercased() }
                found = found || aliases.count != before
            }
        }
        if !found {
            let what = kinds.count == 1 ? "a \(kinds[0].rawValue)" : "a profile or a rule"
            warnings.append("\(file.source): 'disable' names '\(entry)', which is not \(what) of an earlier layer "
                            + "(`coffer config show` lists the ids)")
        }
    }

    func configuration(directory: String?) throws -> CofferConfiguration {
        let orderedRules = rules.values.sorted { $0.rank != $1.rank ? $0.rank > $1.rank : $0.position < $1.position }
        let categoryTable = CategoryMCCTable(keyed: categories.mapValues(\.value))
        var items = profiles.values.map(\.item).sorted { $0.id < $1.id }
        items += orderedRules.map(\.item)
        items += categories.values.map(\.item).sorted { $0.id < $1.id }
        items += institutionOrder.compactMap { institutions[$0]?.item }
        items += aliases.map(\.item)
        // Spending categories (as category items, their codes the detail), then category and transfer rules.
        items += mccCategories.values.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }.map(\.item)
        items += categoryRules.values.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }.map(\.item)
        items += transferRules.values.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }.map(\.item)
        items += disabled
        var configuration = CofferConfiguration(
            directory: directory, profiles: CSVProfileSet(profiles: profiles.values.compactMap(\.value.decoded),
                                                          deferred: profiles.values.compactMap(\.value.deferred)),
            normalizer: DescriptionNormalizer(rules: MerchantRules(orderedRules.map(\.value)), categories: categoryTable),
            institutions: institutionTable, accountAliases: aliases.map(\.value))
        configuration.report = ConfigurationReport(layers: layerNames, items: items, warnings: warnings)
        let ordered = { (rules: [String: Entry<MerchantRule>]) in
            rules.values.sorted { $0.rank != $1.rank ? $0.rank > $1.rank : $0.position < $1.position }.map(\.value)
        }
        let tableEntries = mccCategories.sorted { ($0.value.rank, $0.value.position) < ($1.value.rank, $1.value.position) }
            .map { MCCCategoryTable.Entry(category: $0.key, ranges: $0.value.value, layer: $0.value.rank) }
        configuration.categorizer = Categorizer(table: MCCCategoryTable(tableEntries), merchantRules: configuration.normalizer.rules,
                                                categoryRules: MerchantRules(ordered(categoryRules)), typeCategories: typeCategories,
                                                cleaner: configuration.normalizer.cleaner)
        configuration.transferRules = MerchantRules(ordered(transferRules))
        return configuration
    }

    /// `5811-5814, 5912`.
    static func describe(_ ranges: [ClosedRange<Int>]) -> String {
        func code(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }
        return ranges.map { $0.count == 1 ? code($0.lowerBound) : code($0.lowerBound) + "-" + code($0.upperBound) }
            .joined(separator: ", ")
    }

    /// `Starbucks · MCC 5814 · contains starbucks, sbux`.
    static func describe(_ rule: MerchantRule) -> String {
        var parts = [rule.name]
        if let mcc = rule.merchantCategoryCode { parts.append("MCC \(mcc.code)") }
        if let type = rule.transactionType { parts.append("type \(TransactionType.caseNames[type] ?? "\(type)")") }
        if !rule.contains.isEmpty { parts.append("contains " + rule.contains.joined(separator: ", ")) }
        if !rule.prefixes.isEmpty { parts.append("prefix " + rule.prefixes.joined(separator: ", ")) }
        if rule.field != .any { parts.append("on \(rule.field.rawValue)") }
        if let category = rule.category { parts.append("category \(category)") }
        if rule.purchasesOnly { parts.append("purchases only") }
        switch (rule.minimumAmount, rule.maximumAmount) {
        case let (min?, max?) where min == max: parts.append("amount \(min)")
        case let (min?, max?): parts.append("amount \(min)–\(max)")
        case let (min?, nil): parts.append("amount ≥ \(min)")
        case let (nil, max?): parts.append("amount ≤ \(max)")
        default: break
        }
        if let direction = rule.direction { parts.append(direction == .debit ? "debits" : "credits") }
        if !rule.accounts.isEmpty { parts.append("account " + rule.accounts.joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }
}
