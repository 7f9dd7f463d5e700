/// Whether the person who owns a store let a program read it: FinanceKit's `AuthorizationStatus`.
///
/// For example:
/// ```swift
/// let store = try FinanceStore(path: FinanceStore.defaultPath(), clientToken: token)
/// guard try await store.requestAuthorization() == .authorized else { return }
/// ```
/// Like FinanceKit's it has no raw value and no `restricted` case: restriction surfaces as
/// `FinanceError.dataRestricted`. A store opened by its owner (`FinanceStore(path:)`) is always `authorized`. In
/// JSON it is its case name (`"notDetermined"`).
public enum AuthorizationStatus: Codable, Hashable, Sendable, CaseIterable {
    /// The owner granted access (to the accounts, dates and data types of the client's grant).
    case authorized
    /// The owner refused, or withdrew, access.
    case denied
    /// The owner has not decided yet.
    case notDetermined

    /// The case name, as written in Swift.
    public var name: String {
        switch self {
        case .authorized: "authorized"
        case .denied: "denied"
        case .notDetermined: "notDetermined"
        }
    }

    /// Decodes a case name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let status = Self.allCases.first(where: { $0.name == text }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not authorized, denied or notDetermined")
        }
        self = status
    }

    /// Encodes the case name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
