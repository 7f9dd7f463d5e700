/// Enums that encode as their case name (`"pointOfSale"`) rather than their raw value, and decode from either.
///
/// FinanceKit's enums are `Int16`-backed; Coffer keeps those raw values for the store and uses names in JSON
/// so output reads like FinanceKit code.
public protocol CaseNameCodable: Codable, RawRepresentable, CaseIterable, Hashable where RawValue == Int16 {
    /// Each case's name as written in Swift.
    static var caseNames: [Self: String] { get }
}

extension CaseNameCodable {
    /// The case name, as written in Swift.
    public var name: String { Self.caseNames[self] ?? String(rawValue) }

    /// Looks a case up by its name, ignoring case (`"POINTOFSALE"` finds `.pointOfSale`).
    public init?(name: String) {
        let wanted = name.lowercased()
        guard let hit = Self.caseNames.first(where: { $0.value.lowercased() == wanted }) else { return nil }
        self = hit.key
    }

    /// Encodes the case name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Decodes a case name (any letter case) or a raw value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let value = Self(name: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "'\(text)' is not one of \(Self.caseNames.values.sorted().joined(separator: ", "))")
            }
            self = value
        } else {
            let raw = try container.decode(Int16.self)
            guard let value = Self(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(raw) is not a known raw value")
            }
            self = value
        }
    }
}
