import CofferModel
import Foundation
import SwiftASN1
@_spi(CMS) import X509

/// The certificates an order archive's signature must chain to: Apple's WWDR intermediate and root for orders from
/// Apple Wallet, or a merchant's own CA. With none, the signature is not checked, and the verification says so.
///
/// For example:
/// ```swift
/// let trust = try OrderTrustAnchors(pem: String(decoding: pemData, as: UTF8.self))
/// let report = try await store.saveOrder(signedArchive: archive, options: OrderSaveOptions(trust: trust))
/// ```
public struct OrderTrustAnchors: Sendable {
    let certificates: [Certificate]

    /// No anchors: signatures are not checked.
    public static let none = OrderTrustAnchors(certificates: [])

    init(certificates: [Certificate]) {
        self.certificates = certificates
    }

    /// The certificates of a PEM text (one or more `BEGIN CERTIFICATE` blocks); throws when there is none or one
    /// is not a certificate.
    public init(pem: String, source: String = "trust anchors") throws {
        do {
            let documents = try PEMDocument.parseMultiple(pemString: pem)
            certificates = try documents.map { try Certificate(pemDocument: $0) }
        } catch {
            throw CofferError(.badConfiguration, "not PEM certificates: \(error)", location: SourceLocation(file: source))
        }
        guard !certificates.isEmpty else {
            throw CofferError(.badConfiguration, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)", location: SourceLocation(file: source))
        }
    }

    /// One DER-encoded certificate.
    public init(der: Data, source: String = "trust anchor") throws {
        do {
            certificates = [try Certificate(derEncoded: Array(der))]
        } catch {
            throw CofferError(.badConfiguration, "not a DER certificate: \(error)", location: SourceLocation(file: source))
        }
    }

    /// The anchors of both.
    public func adding(_ other: OrderTrustAnchors) -> OrderTrustAnchors {
        OrderTrustAnchors(certificates: certificates + other.certificates)
    }

    /// How many certificates there are.
    public var count: Int { certificates.count }
}

/// Checks an order archive's `signature`: a detached CMS (PKCS #7) SignedData over `manifest.json`, whose signer's
/// certificate chains to a trust anchor (RFC 5280 path validation, expiry against the current time) and names the order's type in its
/// subject's UID, as Apple's order signing certificates do.
package enum OrderSignature {
    /// The OID of the subject's `UID` (userID) attribute.
    static let userID: ASN1ObjectIdentifier = [0, 9, 2342, 19_200_300, 100, 1, 1]

    /// The verification outcome, or a refusal (`CofferError(.badInput)`) located at `archive` and `signature`.
    package static func verify(_ contents: OrderArchiveContents, orderTypeIdentifier: String, trust: OrderTrustAnchors,
                               archive: String) async throws -> OrderVerification {
        guard !trust.certificates.isEmpty else {
            return OrderVerification(
                manifest: true, signature: .notChecked,
                summary: "manifest verified (every file's SHA-256); signature NOT verified: no trust anchors are configured")
        }
        func refuse(_ message: String) -> CofferError {
            CofferError(.badInput, message, location: SourceLocation(file: archive, element: "signature"))
        }
        let result = await CMS.isValidSignature(
            dataBytes: Array(contents.manifest), signatureBytes: Array(contents.signature),
            trustRoots: CertificateStore(trust.certificates)
        ) {
            RFC5280Policy()
        }
        let signer: Certificate
        switch result {
        case .success(let valid):
            signer = valid.signer
        case .failure(.invalidCMSBlock(let block)):
            throw refuse("not a valid CMS signature of manifest.json: \(block.reason)")
        case .failure(.unableToValidateSigner(let failure)):
            let reasons = failure.policyFailures.map { "\($0.policyFailureReason)" }.joined(separator: "; ")
            throw refuse("the signing certificate (\(failure.signer.subject)) does not chain to a configured trust anchor: "
                         + (reasons.isEmpty ? "no path found" : reasons))
        case .failure(let other):
            throw refuse("the signature could not be verified: \(other)")
        }
        let uids = signer.subject.flatMap { $0 }.filter { $0.type == userID }.compactMap { String($0.value) }
        guard uids.contains(orderTypeIdentifier) else {
            throw refuse("signed by a certificate for '\(uids.first ?? "no order type")', not for this order's type '\(orderTypeIdentifier)'")
        }
        return OrderVerification(
            manifest: true, signature: .verified, signer: "\(signer.subject)",
            summary: "manifest verified (every file's SHA-256); signature verified: CMS over manifest.json by \(signer.subject), "
                + "chained to a configured trust anchor")
    }
}
