import CofferModel
import Foundation
import Testing
@testable import CofferPipeline

/// The normalize stage's fast paths agree with the general code they stand in for, on random inputs: `HashSet64`
/// with `Set<UInt64>`, `DescriptionNormalizer.isBlank` with `allSatisfy(\.isWhitespace)`, `Fingerprint.key` with
/// the string building it replaced. A failure prints its seed and input.
@Suite struct NormalizeFastPathTests {
    typealias SplitMix = OrderInvarianceTests.SplitMix

    @Test func hashSetAgreesWithSet() {
        for seed in UInt64(1)...300 {
            var rng = SplitMix(state: seed)
            var fast = HashSet64(capacity: Int.random(in: 0...100, using: &rng))
            var reference = Set<UInt64>()
            // Few distinct keys (many repeats), keys that collide in the low or high bits, 0, and random ones.
            let pool = Int.random(in: 1...5000, using: &rng)
            for _ in 0..<Int.random(in: 0...20000, using: &rng) {
                let key: UInt64
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: key = UInt64.random(in: 0..<UInt64(pool), using: &rng)
                case 1: key = UInt64.random(in: 0..<UInt64(pool), using: &rng) << 40
                case 2: key = 0
                case 3: key = UInt64.max &- UInt64.random(in: 0..<UInt64(pool), using: &rng)
                default: key = rng.next()
                }
                // Compared by hand, recorded only on a difference: an #expect per insert is slow in a debug build.
                if fast.insert(key) != reference.insert(key).inserted || fast.count != reference.count {
                    Issue.record("seed \(seed): key \(key)")
                    return
                }
            }
            #expect(fast.count == reference.count, "seed \(seed)")
            for key in reference where !fast.contains(key) { Issue.record("seed \(seed): lost \(key)") }
            for _ in 0..<200 {
                let key = rng.next()
                #expect(fast.contains(key) == reference.contains(key), "seed \(seed): \(key)")
            }
        }
    }

    /// Flagged keys (the matcher's `RowIDSet`: listed rows, and which of them were matched by id) against a
    /// dictionary from the 63-bit value to its flag: a flag once set stays set, a value is held once.
    @Test func flaggedHashSetAgreesWithDictionary() {
        var flagsSet = 0, flagsClear = 0
        for seed in UInt64(1)...300 {
            var rng = SplitMix(state: seed)
            var fast = HashSet64(capacity: Int.random(in: 0...100, using: &rng))
            var reference: [UInt64: Bool] = [:]
            let pool = Int.random(in: 1...5000, using: &rng)
            for _ in 0..<Int.random(in: 0...20000, using: &rng) {
                // Values with few distinct keys, values that differ only in bit 0's neighbour, random ones.
                var value: UInt64 = switch Int.random(in: 0..<3, using: &rng) {
                case 0: UInt64.random(in: 1...UInt64(pool), using: &rng) << 1
                case 1: UInt64.random(in: 1...UInt64(pool), using: &rng) << 41
                default: rng.next() & ~1
                }
                if value == 0 { value = 2 }
                let flag = Bool.random(using: &rng)
                fast.insertFlagged(value | (flag ? 1 : 0))
                reference[value] = (reference[value] ?? false) || flag
                if fast.count != reference.count {
                    Issue.record("seed \(seed): count \(fast.count), expected \(reference.count) after \(value)")
                    return
                }
            }
            for (value, flag) in reference {
                let held = fast.flagged(value)
                if held != value | (flag ? 1 : 0) { Issue.record("seed \(seed): \(value) held as \(String(describing: held))") }
                // Either form of the key finds it.
                if fast.flagged(value | 1) != held { Issue.record("seed \(seed): \(value | 1) not found as \(value)") }
                if flag { flagsSet += 1 } else { flagsClear += 1 }
            }
            for _ in 0..<200 {
                let value = rng.next() & ~1
                guard value > 1 else { continue }
                #expect((fast.flagged(value) != nil) == (reference[value] != nil), "seed \(seed): \(value)")
            }
        }
        #expect(flagsSet > 1000 && flagsClear > 1000, "both flags were exercised: \(flagsSet) set, \(flagsClear) clear")
    }

    static let pieces = [
        " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1F}", "\u{85}", "\u{A0}", "\u{2003}",
        "\u{3000}", "\u{200B}", "\u{301}", "\u{0600}", "a", "Z", "0", "é", "e\u{301}", "🇩🇪", "*", "",
    ]

    @Test func isBlankAgreesWithCharacterProperties() {
        for seed in UInt64(1)...30000 {
            var rng = SplitMix(state: seed)
            let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            #expect(DescriptionNormalizer.isBlank(text) == text.allSatisfy { $0.isWhitespace },
                    "seed \(seed): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func fingerprintKeyAgreesWithStringBuilding() {
        for seed in UInt64(1)...20000 {
            var rng = SplitMix(state: seed)
            let day = Int.random(in: -800_000...2_900_000, using: &rng)
            let hash = seed % 3 == 0 ? rng.next() >> UInt64(Int.random(in: 0...63, using: &rng)) : rng.next()
            let hex = String(hash, radix: 16)
            let reference = CalendarDay.string(day: day) + ":" + String(repeating: "0", count: 16 - hex.count) + hex
            #expect(Fingerprint.key(day: day, hash: hash) == reference, "seed \(seed): day \(day) hash \(hash)")
        }
    }

    /// The fingerprint hash as it was computed before the ASCII fast path: scalar by scalar.
    static func referenceHash(_ t: Transaction) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        for byte in "v1".utf8 { mix(byte) }
        mix(t.creditDebitIndicator == .credit ? 0x43 : 0x44)
        mix(t.status == .pending || t.status == .authorized ? 0x50 : 0x42)
        for byte in ExactDecimal.text(t.transactionAmount.amount).utf8 { mix(byte) }
        mix(0x7C)
        for byte in t.transactionAmount.currencyCode.utf8 { mix(byte) }
        mix(0x7C)
        for scalar in t.originalTransactionDescription.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): mix(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): mix(byte + 32)
                default: break
                }
            } else if scalar.properties.isAlphabetic {
                for lowered in scalar.properties.lowercaseMapping.utf8 { mix(lowered) }
            }
        }
        return h
    }

    @Test func fingerprintHashAgreesWithScalarLoop() {
        let words = ["Café", "ÜBERWEISUNG", "Straße", "Łódź", "東京", "İstanbul", "ǅ", "Blue Bottle", "#1234", "-", "ß"]
        for seed in UInt64(1)...5000 {
            var rng = SplitMix(state: seed)
            let text = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                Bool.random(using: &rng) ? words.randomElement(using: &rng)! : Self.pieces.randomElement(using: &rng)!
            }.joined(separator: Bool.random(using: &rng) ? " " : "")
            let t = Transaction(id: UUID(), accountID: UUID(),
                                transactionAmount: CurrencyAmount(amount: Decimal(Int.random(in: 0...99999, using: &rng)) / 100,
                                                                  currencyCode: "EUR"),
                                creditDebitIndicator: Bool.random(using: &rng) ? .credit : .debit, transactionDescription: text,
                                originalTransactionDescription: text,
                                transactionDate: Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &rng))),
                                timeZoneOffset: Bool.random(using: &rng) ? nil : -8 * 3600)
            #expect(Fingerprint(transaction: t).hash == Self.referenceHash(t),
                    "seed \(seed): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
