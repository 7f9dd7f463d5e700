import Foundation
import Testing
@testable import CofferModel
import CofferTestSupport

/// `ExactDecimal.fastText` (written into a stack buffer) and `CalendarDay.string` (written in place) agree with the
/// array-building versions they replaced, on random values. A failure prints its seed and value.
@Suite struct FastTextTests {
    typealias SplitMix = SplitMix64

    /// `fastText` as it was first written (arrays and inserts).
    static func referenceText(_ value: Decimal) -> String? {
        guard let p = ExactDecimal.parts(value) else { return nil }
        var digits = Array(String(p.mantissa).utf8)
        if p.exponent > 0 {
            if p.mantissa != 0 { digits += Array(repeating: UInt8(ascii: "0"), count: p.exponent) }
        } else if p.exponent < 0 {
            let fraction = -p.exponent
            if digits.count <= fraction { digits = Array(repeating: UInt8(ascii: "0"), count: fraction - digits.count + 1) + digits }
            digits.insert(UInt8(ascii: "."), at: digits.count - fraction)
        }
        if p.negative { digits.insert(UInt8(ascii: "-"), at: 0) }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The array-building `CalendarDay.string(day:)` it replaced.
    static func referenceDay(_ day: Int) -> String {
        let c = CalendarDay.civilFromDays(CalendarDay.dayNumber(CalendarDay.date(day: day)))
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 10)
        var y = max(0, min(9999, c.year))
        for i in (0..<4).reversed() { bytes[i] = UInt8(ascii: "0") + UInt8(y % 10); y /= 10 }
        bytes[5] = UInt8(ascii: "0") + UInt8(c.month / 10)
        bytes[6] = UInt8(ascii: "0") + UInt8(c.month % 10)
        bytes[8] = UInt8(ascii: "0") + UInt8(c.day / 10)
        bytes[9] = UInt8(ascii: "0") + UInt8(c.day % 10)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func fastTextAgreesWithTheArrayVersion() {
        for seed in UInt64(1)...50000 {
            var rng = SplitMix(state: seed)
            // Mantissas of every length (0, small, up to 64 bits), exponents over the whole Int8 range, both signs.
            let bits = Int.random(in: 0...64, using: &rng)
            let mantissa = bits == 0 ? 0 : rng.next() >> UInt64(64 - bits)
            let exponent = Bool.random(using: &rng) ? Int.random(in: -6...4, using: &rng) : Int.random(in: -128...127, using: &rng)
            let value = Decimal(sign: Bool.random(using: &rng) ? .minus : .plus, exponent: exponent,
                                significand: Decimal(mantissa))
            let fast = ExactDecimal.fastText(value)
            #expect(fast == Self.referenceText(value), "seed \(seed): \(mantissa)e\(exponent)")
        }
        for text in ["0", "-0.5", "1538.22", "0.001", "100", "-12.30", "99999999999999999999"] {
            let value = Decimal(string: text)!
            #expect(ExactDecimal.fastText(value) == Self.referenceText(value), "\(text)")
        }
    }

    @Test func dayStringAgreesWithTheArrayVersion() {
        for seed in UInt64(1)...20000 {
            var rng = SplitMix(state: seed)
            let day = Int.random(in: -800_000...3_000_000, using: &rng)
            #expect(CalendarDay.string(day: day) == Self.referenceDay(day), "seed \(seed): day \(day)")
            let date = Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...9_000_000_000, using: &rng)))
            #expect(CalendarDay.string(date) == Self.referenceDay(CalendarDay.dayNumber(date)), "seed \(seed): \(date)")
        }
    }

    /// `lowercaseHex` spells bytes as `String(format: "%02x")` did, byte by byte (digests, account identity keys).
    @Test func lowercaseHexAgreesWithFormat() {
        #expect([UInt8]().lowercaseHex == "")
        #expect([0x00, 0x09, 0x0A, 0x7F, 0xF0, 0xFF].lowercaseHex == "00090a7ff0ff")
        for seed in UInt64(1)...2000 {
            var rng = SplitMix(state: seed)
            let bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(bytes.lowercaseHex == bytes.map { String(format: "%02x", $0) }.joined(), "seed \(seed)")
        }
    }
}
