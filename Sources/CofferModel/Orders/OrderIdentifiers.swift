/// FinanceKit's name of one Wallet order: the order type identifier (the merchant's reverse-DNS type, as its signing
/// certificate names it) and the order identifier (unique within that type).
///
/// For example:
/// ```swift
/// let fqoid = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "A-1001")
/// let result = try await store.containsOrder(matching: fqoid, updatedDate: savedAt)
/// ```
public struct FullyQualifiedOrderIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The order type identifier, such as `order.com.example.shop`.
    public var orderTypeIdentifier: String
    /// The order identifier, unique within its order type.
    public var orderIdentifier: String

    /// An order's full identifier.
    public init(orderTypeIdentifier: String, orderIdentifier: String) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
    }

    /// `order.com.example.shop/A-1001`: the type, a slash, the identifier.
    public var description: String { orderTypeIdentifier + "/" + orderIdentifier }
}

/// What `saveOrder(signedArchive:)` did, as FinanceKit names it.
public enum SaveOrderResult: String, Hashable, CaseIterable, Sendable, Codable {
    /// The order was stored: new, or a newer version of one already stored (which it replaced).
    case added
    /// The person declined to save it (Coffer: the confirmation was refused); nothing was stored.
    case cancelled
    /// A version at least as new is already stored; nothing was stored.
    case newerExisting
}

/// What `containsOrder(matching:updatedDate:)` found, as FinanceKit names it.
public enum ContainsOrderResult: String, Hashable, CaseIterable, Sendable, Codable {
    /// The order is stored, as of the date asked about (or no date was given).
    case exists
    /// The stored order is newer than the date asked about.
    case newerExists
    /// The stored order is older than the date asked about.
    case olderExists
    /// No such order, or none the caller may see (another client's).
    case notFound
}
