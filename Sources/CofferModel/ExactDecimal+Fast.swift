import Foundation

/// Fast exact conversions for the common case (a mantissa that fits 64 bits).
///
/// Foundation's `Decimal` keeps its fields internal on Linux, and its `description` and arithmetic are slow
/// (they were a third of the CPU time of a bulk import). Its memory layout is the documented `NSDecimal` one:
/// byte 0 the exponent, byte 1 `length << 4 | isNegative << 3 | isCompact << 2`, then eight little-endian
/// `UInt16` mantissa words. This reads that layout — and checks itself once against the slow path, falling
/// back to it for good if Foundation's layout ever differs.
extension ExactDecimal {
    struct Parts {
        var negative: Bool
        var mantissa: UInt64
        var exponent: Int
    }

    static func parts(_ value: Decimal) -> Parts? {
        guard fastPathWorks else { return nil }
        return rawParts(value)
    }

    private static func rawParts(_ value: Decimal) -> Parts? {
        withUnsafeBytes(of: value) { raw -> Parts? in
            guard raw.count == 20 else { return nil }
            let exponent = Int(Int8(bitPattern: raw[0]))
            let flags = raw[1]
            let length = Int(flags >> 4)
            guard length <= 4 else { return nil }
            var mantissa: UInt64 = 0
            for word in (0..<length).reversed() {
                mantissa = mantissa << 16 | UInt64(raw[4 + 2 * word]) | UInt64(raw[5 + 2 * word]) << 8
            }
            return Parts(negative: flags & 0x08 != 0 && mantissa != 0, mantissa: mantissa, exponent: exponent)
        }
    }

    /// `[+-]digits[.digits]` with at most 19 digits, already validated: built from its integer and exponent
    /// instead of Foundation's (slow) string scanning.
    static func fastParse(_ text: some StringProtocol) -> Decimal? {
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var negative = false
        var afterPoint = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): afterPoint = true
            default:
                digits += 1
                guard digits <= 19 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                if afterPoint { fraction += 1 }
            }
        }
        let magnitude = Decimal(sign: .plus, exponent: -fraction, significand: Decimal(mantissa))
        return negative && mantissa != 0 ? -magnitude : magnitude
    }

    static func fastText(_ value: Decimal) -> String? {
        guard let p = parts(value) else { return nil }
        // Written into a stack buffer, not built from `String(mantissa)` and arrays (four allocations per amount;
        // this runs for every fingerprint and every amount printed). At most a sign, 20 digits, a point and 128
        // zeros: the exponent is an `Int8`.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 192) { out -> String in
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // the mantissa's digits, least significant first
            let digitCount = withUnsafeMutableBytes(of: &digits) { raw -> Int in
                var m = p.mantissa
                var n = 0
                repeat {
                    raw[n] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
                    m /= 10
                    n &+= 1
                } while m != 0
                return n
            }
            // A struct's mutating calls, not nested functions capturing `count`: those made every byte a dynamic
            // exclusivity check (`swift_beginAccess`, 3% of an OFX import's parsing thread).
            var text = ByteWriter(out: out)
            withUnsafeBytes(of: &digits) { raw in
                if p.negative { text.put(UInt8(ascii: "-")) }
                if p.exponent >= 0 {
                    text.putDigits(raw, digitCount, 0, digitCount)
                    if p.mantissa != 0 { for _ in 0..<p.exponent { text.put(UInt8(ascii: "0")) } }
                } else {
                    let fraction = -p.exponent
                    if digitCount <= fraction {  // 0.00ddd
                        text.put(UInt8(ascii: "0"))
                        text.put(UInt8(ascii: "."))
                        for _ in 0..<(fraction &- digitCount) { text.put(UInt8(ascii: "0")) }
                        text.putDigits(raw, digitCount, 0, digitCount)
                    } else {
                        text.putDigits(raw, digitCount, 0, digitCount &- fraction)
                        text.put(UInt8(ascii: "."))
                        text.putDigits(raw, digitCount, digitCount &- fraction, digitCount)
                    }
                }
            }
            let count = text.count
            return String(decoding: UnsafeBufferPointer(rebasing: out[0..<count]), as: UTF8.self)
        }
    }

    static func fastScaled(_ value: Decimal, scale: Int) -> Int64?? {
        guard let p = parts(value) else { return nil }  // unknown: use the slow path
        var m = p.mantissa
        let shift = scale + p.exponent
        if shift >= 0 {
            for _ in 0..<shift {
                let (r, overflow) = m.multipliedReportingOverflow(by: 10)
                if overflow { return .some(nil) }
                m = r
            }
        } else {
            for _ in 0..<(-shift) {
                if m % 10 != 0 { return .some(nil) }  // not exact at this scale
                m /= 10
            }
        }
        guard m <= UInt64(Int64.max) else { return .some(nil) }
        return .some(p.negative ? -Int64(m) : Int64(m))
    }

    /// Checked once: the layout reading must agree with Foundation on a spread of values.
    ///
    /// The values are built from integers and powers of ten, not parsed: `Decimal(string:locale:)` with a POSIX
    /// locale loaded ICU's locale and number-format data, 0.5 ms of every one-shot CLI call that prints an amount.
    private static let fastPathWorks: Bool = {
        let samples: [(UInt64, Int, Bool)] = [(0, 0, false), (1, 0, false), (1, 0, true), (1230, -2, false), (1, -3, false),
                                              (987_654_321, -4, true), (123_456_789_012_345_678, 0, false), (1000, 0, false),
                                              (1, -6, false), (425, 2, false)]
        for (mantissa, exponent, negative) in samples {
            let value = Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa))
            guard let p = rawParts(value) else { return false }
            var rebuilt = Decimal(p.mantissa) * pow(Decimal(10), abs(p.exponent))
            if p.exponent < 0 { rebuilt = Decimal(p.mantissa) / pow(Decimal(10), -p.exponent) }
            if p.negative { rebuilt = -rebuilt }
            if rebuilt != value { return false }
        }
        return true
    }()
}

/// `fastText`'s output: bytes put one after another into a stack buffer.
private struct ByteWriter {
    let out: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    mutating func put(_ byte: UInt8) {
        out[count] = byte
        count &+= 1
    }

    /// Digits `from..<to` of the `digitCount` in `raw` (least significant first there), most significant first.
    mutating func putDigits(_ raw: UnsafeRawBufferPointer, _ digitCount: Int, _ from: Int, _ to: Int) {
        for i in from..<to { put(raw[digitCount &- 1 &- i]) }
    }
}
