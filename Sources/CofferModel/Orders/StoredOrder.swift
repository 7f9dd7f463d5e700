import Foundation

/// An order as the store keeps it: its content, who saved it, what of its archive was verified, and the
/// transaction that paid for it.
public struct StoredOrder: Hashable, Sendable, Codable, Identifiable {
    /// Coffer's id of the stored order (`coffer orders show ID`); a newer version of the same order keeps it.
    public var id: UUID
    /// The order's content, from the newest version saved.
    public var order: WalletOrder
    /// Who saved it: nil for the store's owner, else the client's id.
    public var clientID: UUID?
    /// When this version was saved.
    public var savedAt: Date
    /// What was checked of its archive, and what was not.
    public var verification: OrderVerification
    /// The transaction that paid for it (same currency and amount, a few days apart, agreeing merchant text), if one
    /// was found. A Coffer addition: FinanceKit does not link orders and transactions.
    public var transactionID: UUID?
    /// SHA-256 of the signed archive, lowercase hex.
    public var archiveSHA256: String

    /// A stored order.
    public init(id: UUID, order: WalletOrder, clientID: UUID? = nil, savedAt: Date, verification: OrderVerification,
                transactionID: UUID? = nil, archiveSHA256: String) {
        self.id = id
        self.order = order
        self.clientID = clientID
        self.savedAt = savedAt
        self.verification = verification
        self.transactionID = transactionID
        self.archiveSHA256 = archiveSHA256
    }

    /// The order's full identifier.
    public var fullyQualifiedOrderIdentifier: FullyQualifiedOrderIdentifier { order.fullyQualifiedOrderIdentifier }
}

/// What was verified of an order archive, said plainly: the manifest's hashes always are; the signature's
/// certificate chain only when trust anchors are configured.
public struct OrderVerification: Hashable, Sendable, Codable {
    /// Every file is listed in `manifest.json` with the SHA-256 it has, and nothing else is in the archive.
    public var manifest: Bool
    /// How the signature fared.
    public var signature: SignatureCheck
    /// The signing certificate's subject, when the signature was read.
    public var signer: String?
    /// One sentence: what was checked and what was not.
    public var summary: String

    /// A verification outcome.
    public init(manifest: Bool, signature: SignatureCheck, signer: String? = nil, summary: String) {
        self.manifest = manifest
        self.signature = signature
        self.signer = signer
        self.summary = summary
    }

    /// How an archive's signature fared.
    public enum SignatureCheck: String, Hashable, Sendable, Codable, CaseIterable {
        /// The CMS signature of `manifest.json` is valid, by a certificate that chains to a configured trust anchor
        /// and names the order's type.
        case verified
        /// No trust anchors were configured, so the signature was not checked at all.
        case notChecked
    }
}
