import CofferModel
import Foundation

/// The content fingerprint of a transaction: what identifies it when the institution gives no id.
///
/// It covers the calendar day, direction, exact amount, currency, pending-or-not and the original text reduced
/// to lowercase letters and digits. The key starts with the day (`2026-03-14:…`) so that inserts into the unique
/// index stay local (hash-only keys scatter; the day prefix measured 1.4x faster).
///
/// Version 2 (`key`) starts with the transaction's local day, the bank's own (`Transaction.localDay`); version 1
/// started with its UTC day. The hash is the same in both (it is seeded with "v1" and covers no day), so the two
/// keys differ only for a time whose own day is not its UTC day (`20260331200000[-8:PST]`): `legacyKey` is then
/// the version-1 key a store filled before may hold, else nil. The hash is
/// 64-bit FNV-1a, written here because it must be stable across processes and versions (Swift's `Hasher` is
/// seeded per process); within one account and day a collision is negligible, and the occurrence number
/// separates true duplicates anyway.
package struct Fingerprint: Hashable, Sendable {
    package static let version = 2
    /// The hash's seed: version 1's, kept so that version-2 keys of date-only values equal the stored ones.
    static let seed = "v1"
    package let key: String
    /// The version-1 key when it differs from `key` (a time whose UTC day is not its own day), else nil.
    package let legacyKey: String?
    package let hash: UInt64

    package init(transaction t: borrowing Transaction) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func mix(_ byte: UInt8) {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        for byte in Fingerprint.seed.utf8 { mix(byte) }
        mix(t.creditDebitIndicator == .credit ? 0x43 : 0x44)
        mix(t.status == .pending || t.status == .authorized ? 0x50 : 0x42)
        for byte in ExactDecimal.text(t.transactionAmount.amount).utf8 { mix(byte) }
        mix(0x7C)
        for byte in t.transactionAmount.currencyCode.utf8 { mix(byte) }
        mix(0x7C)
        // An ASCII letter or digit, lower-cased, by hand: Unicode property look-ups cost more than the whole hash.
        @inline(__always) func mixASCII(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): mix(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): mix(byte + 32)
            default: break
            }
        }
        var description = t.originalTransactionDescription
        let ascii = description.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            // The common case by bytes: an ASCII text's scalars are its bytes.
            for byte in bytes { mixASCII(byte) }
            return true
        }
        if !ascii {
            for scalar in description.unicodeScalars {
                if scalar.isASCII {
                    mixASCII(UInt8(scalar.value))
                } else if scalar.properties.isAlphabetic {
                    for lowered in scalar.properties.lowercaseMapping.utf8 { mix(lowered) }
                }
            }
        }
        hash = h
        let day = t.localDay
        key = Fingerprint.key(day: day, hash: h)
        let utcDay = CalendarDay.dayNumber(t.transactionDate)
        legacyKey = utcDay == day ? nil : Fingerprint.key(day: utcDay, hash: h)
    }

    /// `2026-03-14:` and the hash as 16 lowercase hex digits, written into the string's own storage (building it
    /// from `String(radix:)`, padding and two concatenations cost three allocations more).
    static func key(day: Int, hash: UInt64) -> String {
        String(unsafeUninitializedCapacity: 27) { bytes in
            CalendarDay.write(day: day, into: bytes)
            bytes[10] = UInt8(ascii: ":")
            for i in 0..<16 {
                bytes[11 + i] = UInt8.hexDigit(UInt8(truncatingIfNeeded: hash >> UInt64(60 - 4 * i)) & 0x0F, upper: false)
            }
            return 27
        }
    }
}
