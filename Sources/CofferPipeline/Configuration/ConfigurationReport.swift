/// Where each piece of the effective configuration came from: what `coffer config show` prints.
///
/// For example, after loading the built-in defaults and a folder whose `merchants.yaml` has a `Starbucks` rule:
/// ```swift
/// let item = configuration.report.items.first { $0.kind == .rule && $0.id == "starbucks" }!
/// item.source      // "/home/me/.config/coffer/merchants.yaml"
/// item.overrides   // ["built-in:merchants.yaml"]
/// ```
public struct ConfigurationReport: Sendable, Hashable, Codable {
    /// The layers read, lowest first: `built-in`, then folders' paths.
    public var layers: [String] = []
    /// Every profile, rule, category, institution and account alias, in effect or disabled.
    public var items: [ConfigurationItem] = []
    /// What a person should know: a `disable` entry that names nothing, for one.
    public var warnings: [String] = []

    /// Creates a report; `CofferConfiguration.load(layers:)` fills one.
    public init(layers: [String] = [], items: [ConfigurationItem] = [], warnings: [String] = []) {
        self.layers = layers
        self.items = items
        self.warnings = warnings
    }

    /// The item of this kind and id (the one in effect, else the disabled one).
    public func item(_ kind: ConfigurationItem.Kind, _ id: String) -> ConfigurationItem? {
        items.first { $0.kind == kind && $0.id == id && $0.disabledBy == nil }
            ?? items.first { $0.kind == kind && $0.id == id }
    }
}

/// One profile, merchant rule, category word, institution or account alias, and the file it came from.
public struct ConfigurationItem: Sendable, Hashable, Codable {
    /// What kind of item: a CSV profile, a merchant rule, a category word, an institution or an account alias.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case profile, rule, category, institution, account
    }

    /// What kind of item it is.
    public var kind: Kind
    /// A profile's or institution's id, a rule's id, a category's key, an account alias's account id.
    public var id: String
    /// A short description: a rule's name, MCC and patterns; a profile's institution.
    public var detail: String
    /// The file that defines it (a path, or `built-in:merchants.yaml`).
    public var source: String
    /// The files of earlier layers whose definition of the same id this one replaced (profiles, rules,
    /// categories) or extended (institutions), lowest first.
    public var overrides: [String]
    /// The `disable.yaml` that turned it off; nil when it is in effect.
    public var disabledBy: String?

    /// Creates an item's entry.
    public init(kind: Kind, id: String, detail: String, source: String, overrides: [String] = [], disabledBy: String? = nil) {
        self.kind = kind
        self.id = id
        self.detail = detail
        self.source = source
        self.overrides = overrides
        self.disabledBy = disabledBy
    }
}
