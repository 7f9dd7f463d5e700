import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// The byte readers the handler tries first (`CamtValues.cleanRange`, `text(utf8:)`, `amount(utf8:)`,
/// `date(utf8:)`, `dateTime(utf8:)`, `indicator(utf8:)`) agree with the `String` readers on random values:
/// same accepted set, same value, same text. A failure prints its seed and input.
@Suite struct CamtValueBytesTests {
    static let templates = [
        "2026-03-14", "2026-03-14T09:30:00+01:00", "2026-03-14T09:30:00.250Z", "2026-02-30", "2026-03-14 09:30",
        "12.34", "-0.50", "+7", ".5", "5.", "1234567890123456789012", "0", "CRDT", "DBIT", "true", "0",
        "Bäckerei Schäfer", "Café\u{00A0}Zürich", "€ 12", "Łódź\u{202F}PL", "",
    ]
    static let alphabet: [[UInt8]] = [
        "0", "1", "9", ".", ",", "+", "-", ":", "T", "Z", " ", "  ", "\t", "\n", "\r", "C", "D", "R", "B", "I",
        "ä", "\u{00A0}", "\u{2003}", "\u{85}", "e", "x",
    ].map { Array($0.utf8) }

    static func value(_ rng: inout CamtMutationTests.SplitMix) -> [UInt8] {
        var out = Array(templates.randomElement(using: &rng)!.utf8)
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let piece = alphabet.randomElement(using: &rng)!
            let at = Int.random(in: 0...out.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: out.insert(contentsOf: piece, at: at)
            case 1 where at < out.count: out.remove(at: at)
            default: if at < out.count, out[at] < 0x80, piece.count == 1 { out[at] = piece[0] }
            }
        }
        if Bool.random(using: &rng) { out = Array(" \n ".utf8) + out + Array("\t ".utf8) }
        return out
    }

    /// Exactly the same decimal: value, exponent and digits, as stored and printed.
    static func same(_ a: Decimal?, _ b: Decimal?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a == b && a.exponent == b.exponent && a.significand == b.significand
            && ExactDecimal.text(a) == ExactDecimal.text(b)
    }

    @Test func byteReadersAgreeWithStringReaders() {
        for seed in UInt64(1)...20000 {
            var rng = CamtMutationTests.SplitMix(state: seed)
            let raw = Self.value(&rng)
            raw.withUnsafeBufferPointer { raw in
                let string = String(decoding: raw, as: UTF8.self)
                let text = CamtValues.text(string)
                let label = "seed \(seed): \(raw.map { String($0, radix: 16) })"
                #expect(CamtValues.text(utf8: raw) == text, "\(label)")
                guard let clean = CamtValues.cleanRange(raw) else { return }
                // The fast path holds exactly what `text(_:)` would.
                let bytes = UnsafeBufferPointer(rebasing: raw[clean])
                #expect((clean.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)) == text, "\(label)")
                guard let text else { return }
                #expect(Self.same(CamtValues.amount(utf8: bytes), CamtValues.amount(text)), "\(label)")
                #expect(CamtValues.date(utf8: bytes) == CamtValues.date(text), "\(label)")
                #expect(CamtValues.dateTime(utf8: bytes) == CamtValues.dateTime(text), "\(label)")
                #expect(CamtValues.indicator(utf8: bytes) == CamtValues.indicator(text), "\(label)")
            }
        }
    }

    @Test(arguments: ["CRDT", "DBIT", "crdt", "CRD", "CRDTX", "DBIT ", "", "C\u{0}DT"])
    func indicator(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer(CamtValues.indicator(utf8:)) == CamtValues.indicator(text))
    }
}
