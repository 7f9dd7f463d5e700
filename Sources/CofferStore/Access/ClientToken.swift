import Crypto
import Foundation

/// A client's bearer token: `coffer_` and 256 random bits in unpadded base64url (43 characters). The store keeps
/// only its SHA-256; a token is shown once, when its client is added.
enum ClientToken {
    static let prefix = "coffer_"

    /// A new token: 32 bytes from the system's secure random generator (swift-crypto's `SymmetricKey`).
    static func make() -> String {
        let key = SymmetricKey(size: .bits256)
        return prefix + key.withUnsafeBytes { Base64URL.encode(Array($0)) }
    }

    /// What the store keeps of a token: SHA-256 of its UTF-8 bytes.
    static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(token.utf8)))
    }

    /// Whether two hashes are equal, in time that depends only on their lengths.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
