import CofferFormats
import CofferModel
import Foundation

/// How `saveOrder(signedArchive:options:)` checks and confirms an archive.
///
/// For example:
/// ```swift
/// let options = OrderSaveOptions(trust: try OrderTrustAnchors(pem: wwdrPEM), archiveName: "receipt.order") { preview in
///     askThePerson("Save the order from \(preview.order.merchant.displayName)?")
/// }
/// ```
public struct OrderSaveOptions: Sendable {
    /// The certificates the signature must chain to; with none, only the manifest is verified, and the report says so.
    public var trust: OrderTrustAnchors
    /// Size bounds the archive is read within.
    public var limits: OrderArchiveLimits
    /// The archive's name in refusals (`receipt.order (manifest.json): …`).
    public var archiveName: String
    /// Asked once the archive is verified and would be stored; `false` gives `.cancelled` and stores nothing. FinanceKit
    /// asks the person in a sheet; with no closure, the caller's request is the consent.
    public var confirm: (@Sendable (OrderPreview) async -> Bool)?

    /// Options; by default no trust anchors, the default limits, no confirmation.
    public init(trust: OrderTrustAnchors = .none, limits: OrderArchiveLimits = OrderArchiveLimits(), archiveName: String = "order archive",
                confirm: (@Sendable (OrderPreview) async -> Bool)? = nil) {
        self.trust = trust
        self.limits = limits
        self.archiveName = archiveName
        self.confirm = confirm
    }
}

/// What a confirmation is asked about: the verified order, and whether it replaces an older stored version.
public struct OrderPreview: Sendable {
    /// The order in the archive.
    public var order: WalletOrder
    /// What of the archive was verified.
    public var verification: OrderVerification
    /// The stored version it would replace, when there is one (its `updatedAt` is older).
    public var replacing: Date?
    /// The transaction it would be linked to, if one paid for it.
    public var transaction: Transaction?
}

/// What saving an order archive did: FinanceKit's result, and what Coffer knows beside it.
public struct OrderSaveReport: Sendable, Codable {
    /// `added`, `cancelled` or `newerExisting`.
    public var result: SaveOrderResult
    /// The order's full identifier.
    public var fullyQualifiedOrderIdentifier: FullyQualifiedOrderIdentifier
    /// The archive's `updatedAt`.
    public var updatedAt: Date
    /// The stored order's id: the new or replaced one for `added`, the stored one for `newerExisting`, nil for `cancelled`.
    public var orderID: UUID?
    /// The `updatedAt` of the version already stored (for `newerExisting`, or the one `added` replaced).
    public var storedUpdatedAt: Date?
    /// What of the archive was verified, and what was not.
    public var verification: OrderVerification
    /// The transaction that paid for it, when one was found (for `added`).
    public var transactionID: UUID?
}
