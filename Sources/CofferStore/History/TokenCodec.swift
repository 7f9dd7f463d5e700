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

/// Tokens are `base64url(version · storeID · sequence · [snapshot cursor] · HMAC-SHA256/128)`: the MAC, keyed
/// by a secret made with the store, makes a tampered or foreign token detectable.
extension FinanceStore {
    func makeToken(_ position: HistoryPosition) -> HistoryToken {
        var bytes: [UInt8] = [1]
        withUnsafeBytes(of: storeID.uuid) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: position.sequence.bigEndian) { bytes.append(contentsOf: $0) }
        if position.inSnapshot {
            bytes.append(1)
            if let after = position.snapshotAfter {
                withUnsafeBytes(of: after.uuid) { bytes.append(contentsOf: $0) }
            }
        } else {
            bytes.append(0)
        }
        let mac = HMAC<SHA256>.authenticationCode(for: bytes, using: tokenKey)
        bytes.append(contentsOf: Array(mac).prefix(16))
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return HistoryToken(encoded: text)
    }

    /// The position a token names, or `FinanceError.historyTokenInvalid`.
    func position(of token: HistoryToken) throws -> HistoryPosition {
        var text = token.encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard text.count < 200, let data = Data(base64Encoded: text) else { throw FinanceError.historyTokenInvalid }
        let bytes = [UInt8](data)
        guard bytes.count == 1 + 16 + 8 + 1 + 16 || bytes.count == 1 + 16 + 8 + 1 + 16 + 16, bytes[0] == 1 else {
            throw FinanceError.historyTokenInvalid
        }
        let body = Array(bytes.dropLast(16))
        let mac = Array(HMAC<SHA256>.authenticationCode(for: body, using: tokenKey)).prefix(16)
        // Constant-time comparison.
        var diff: UInt8 = 0
        for (a, b) in zip(mac, bytes.suffix(16)) { diff |= a ^ b }
        guard diff == 0 else { throw FinanceError.historyTokenInvalid }
        let id = body[1..<17]
        guard Array(id) == withUnsafeBytes(of: storeID.uuid, Array.init) else { throw FinanceError.historyTokenInvalid }
        var sequence: Int64 = 0
        for byte in body[17..<25] { sequence = sequence << 8 | Int64(byte) }
        let inSnapshot = body[25] == 1
        var after: UUID?
        if body.count == 26 + 16 {
            let u = Array(body[26..<42])
            after = UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]))
        }
        guard sequence >= 0 else { throw FinanceError.historyTokenInvalid }
        return HistoryPosition(sequence: sequence, snapshotAfter: after, inSnapshot: inSnapshot)
    }
}
