/// An ISO 18245 merchant category code, e.g. 5411 "Grocery Stores, Supermarkets".
///
/// For example:
/// ```swift
/// let groceries = MerchantCategoryCode(rawValue: 5411)
/// groceries.description                          // "Grocery Stores, Supermarkets"
/// MerchantCategoryCode("5812")?.description      // "Eating Places, Restaurants"
/// MerchantCategoryCode("grocery stores, supermarkets") == groceries   // true
/// ```
/// `description` comes from the standard list (generated from `shared/data/mcc_codes.csv`); a code outside the
/// list describes itself as `"MCC 1234"`. `init?(_:)` accepts a four-digit code, `"MCC 1234"`, or a description
/// (ignoring case), so `MerchantCategoryCode(code.description) == code` holds for every code.
public struct MerchantCategoryCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    LosslessStringConvertible
{
    public let rawValue: Int16

    public init(rawValue: Int16) { self.rawValue = rawValue }

    public init?(_ description: String) {
        let text = description.trimmingCharacters(in: .whitespaces)
        let digits = text.lowercased().hasPrefix("mcc") ? String(text.dropFirst(3)).trimmingCharacters(in: .whitespaces) : text
        if !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int16(digits) {
            self.init(rawValue: code)
            return
        }
        guard let code = MerchantCategoryCode.codeByDescription[text.lowercased()] else { return nil }
        self.init(rawValue: code)
    }

    public var description: String {
        MerchantCategoryCode.descriptionByCode[rawValue] ?? "MCC \(code)"
    }

    /// The code as four digits, `"0742"`.
    public var code: String {
        let digits = String(rawValue)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Whether the code is in the ISO 18245 list Coffer ships.
    public var isKnown: Bool { MerchantCategoryCode.descriptionByCode[rawValue] != nil }

    /// Every code of the list, ordered.
    public static var allKnown: [MerchantCategoryCode] { table.map { MerchantCategoryCode(rawValue: $0.code) } }

    static let descriptionByCode: [Int16: String] = Dictionary(
        table.map { ($0.code, $0.description) }, uniquingKeysWith: { first, _ in first })
    static let codeByDescription: [String: Int16] = Dictionary(
        table.map { ($0.description.lowercased(), $0.code) }, uniquingKeysWith: { first, _ in first })

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(Int16.self) {
            self.init(rawValue: raw)
        } else {
            let text = try container.decode(String.self)
            guard let value = MerchantCategoryCode(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a merchant category code")
            }
            self = value
        }
    }
}
