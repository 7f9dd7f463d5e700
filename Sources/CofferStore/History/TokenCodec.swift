import CofferModel
import Crypto
import Foundation

/// A decoded history position.
struct HistoryPosition: Equatable, Sendable {
    /// Changes with a sequence number above this have not been delivered.
    var sequence: Int64
    /// While the initial snapshot is being delivered: the last entity id delivered (snapshot rows are ordered by
    /// id); nil once the snapshot is done.
    var snapshotAfter: UUID?
    var inSnapshot: Bool
}

/// The client and grant epoch a history token was read under (see `AccessScope`): a client's token is valid only
/// for that client, and only while its grant is the one of that epoch.
struct TokenBinding: Equatable, Sendable {
    var clientID: UUID
    var epoch: Int64
}

/// Tokens are `base64url(version · storeID · [clientID · epoch] · sequence · [snapshot cursor] · HMAC-SHA256/128)`:
/// version 1 for the owner's streams, 2 for a client's, which also name the client and the grant's epoch. The MAC,
/// keyed by a secret made with the store, makes a tampered or foreign token detectable; a token of another
/// client, of the owner, or of an earlier epoch is refused like a foreign one.
///
/// Checking a token is on the path of every `since:` read, so the base64url coding is done here on bytes
/// (Foundation's `Data(base64Encoded:)` plus the character replacements cost more than the HMAC).
extension FinanceStore {
    func makeToken(_ position: HistoryPosition, binding: TokenBinding? = nil) -> HistoryToken {
        var bytes: [UInt8] = [binding == nil ? 1 : 2]
        bytes.reserveCapacity(1 + 16 + 24 + 8 + 1 + 16 + 16)
        withUnsafeBytes(of: storeID.uuid) { bytes.append(contentsOf: $0) }
        if let binding {
            withUnsafeBytes(of: binding.clientID.uuid) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: binding.epoch.bigEndian) { bytes.append(contentsOf: $0) }
        }
        withUnsafeBytes(of: position.sequence.bigEndian) { bytes.append(contentsOf: $0) }
        if position.inSnapshot {
            bytes.append(1)
            if let after = position.snapshotAfter {
                withUnsafeBytes(of: after.uuid) { bytes.append(contentsOf: $0) }
            }
        } else {
            bytes.append(0)
        }
        let mac = tokenMAC.code(for: bytes[...])
        mac.withUnsafeBytes { bytes.append(contentsOf: $0.prefix(16)) }
        return HistoryToken(encoded: Base64URL.encode(bytes))
    }

    /// The position a token names, or `FinanceError.historyTokenInvalid`: also for a token not made for `binding`
    /// (nil: the owner's streams).
    func position(of token: HistoryToken, binding: TokenBinding? = nil) throws -> HistoryPosition {
        let head = binding == nil ? 1 + 16 : 1 + 16 + 24
        guard token.encoded.utf8.count < 200, let bytes = Base64URL.decode(token.encoded),
              bytes.count == head + 8 + 1 + 16 || bytes.count == head + 8 + 1 + 16 + 16,
              bytes[0] == (binding == nil ? 1 : 2) else {
            throw FinanceError.historyTokenInvalid
        }
        let body = bytes[..<(bytes.count - 16)]
        let mac = tokenMAC.code(for: body)
        // Constant-time comparison.
        let diff = mac.withUnsafeBytes { mac in
            var diff: UInt8 = 0
            for i in 0..<16 { diff |= mac[i] ^ bytes[bytes.count - 16 + i] }
            return diff
        }
        guard diff == 0 else { throw FinanceError.historyTokenInvalid }
        let same = withUnsafeBytes(of: storeID.uuid) { id in (0..<16).allSatisfy { id[$0] == bytes[1 + $0] } }
        guard same else { throw FinanceError.historyTokenInvalid }
        if let binding {
            let client = withUnsafeBytes(of: binding.clientID.uuid) { id in (0..<16).allSatisfy { id[$0] == bytes[17 + $0] } }
            var epoch: Int64 = 0
            for byte in bytes[33..<41] { epoch = epoch << 8 | Int64(byte) }
            guard client, epoch == binding.epoch else { throw FinanceError.historyTokenInvalid }
        }
        var sequence: Int64 = 0
        for byte in bytes[head..<(head + 8)] { sequence = sequence << 8 | Int64(byte) }
        let inSnapshot = bytes[head + 8] == 1
        var after: UUID?
        if body.count == head + 9 + 16 {
            var id: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &id) { raw in for i in 0..<16 { raw[i] = bytes[head + 9 + i] } }
            after = UUID(uuid: id)
        }
        guard sequence >= 0 else { throw FinanceError.historyTokenInvalid }
        return HistoryPosition(sequence: sequence, snapshotAfter: after, inSnapshot: inSnapshot)
    }
}

/// HMAC-SHA256 keyed with the store's token key, the key schedule done once: setting up the key (two hash blocks
/// and generic byte handling) was most of checking a token.
///
/// `@unchecked Sendable`: `base` is never mutated; each code is computed on a copy, whose hash contexts are copied
/// on first write (swift-crypto's digests are copy-on-write).
final class TokenMAC: @unchecked Sendable {
    private let base: HMAC<SHA256>

    init(key: SymmetricKey) {
        base = HMAC<SHA256>(key: key)
    }

    func code(for bytes: ArraySlice<UInt8>) -> HMAC<SHA256>.MAC {
        var mac = base
        mac.update(data: bytes)
        return mac.finalize()
    }
}

/// Unpadded base64url (RFC 4648 §5), as tokens are written. Decoding also accepts `=` padding and the standard
/// alphabet's `+` and `/`, as the Foundation-based decoder before it did.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func value(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(c - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "-"), UInt8(ascii: "+"): 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): 63
        default: nil
        }
    }

    /// nil for a character outside the alphabet or a length no encoder makes.
    static func decode(_ text: String) -> [UInt8]? {
        var text = Substring(text)
        while text.hasSuffix("=") { text = text.dropLast() }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for c in text.utf8 {
            guard let v = value(c) else { return nil }
            buffer = buffer << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // 2 or 4 leftover bits are padding (which must be zero); 6 means a length no encoder makes.
        guard bits < 6, buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
