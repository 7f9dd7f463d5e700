import CofferModel
import Foundation

// The fast path for the common case: plain ASCII amounts (`-1,676.22`, `$12.00`, `1.234,56-`) read straight from
// the row's bytes. `ExactDecimal.parse` costs about 4 µs a call (it makes a Locale and goes through
// `Decimal(string:)`), which alone would cap a parser at ~100k amounts/s; here the digits become an exact
// integer significand and a power-of-ten exponent, which is the same value (tests compare the two on every case).

extension AmountText {
    /// The amount in UTF-8 `bytes`, trying the ASCII fast path first and the full parser otherwise.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, decimalMark: Character, thousandsSeparator: Character?) -> Decimal? {
        if let mark = decimalMark.asciiValue,
           let value = fastParse(bytes, decimalMark: mark, thousands: thousandsSeparator.map { $0.asciiValue ?? 0xFF }) {
            return value
        }
        return parse(String(decoding: bytes, as: UTF8.self), decimalMark: decimalMark, thousandsSeparator: thousandsSeparator)
    }

    /// `[spaces][sign][$]digits[mark digits][sign][spaces]` with strict grouping and at most 18 digits; nil for
    /// anything else (the caller then asks the full parser, which also decides what is invalid).
    static func fastParse(_ b: UnsafeBufferPointer<UInt8>, decimalMark: UInt8, thousands: UInt8?) -> Decimal? {
        var i = 0
        var end = b.count
        while i < end, b[i] == 0x20 { i += 1 }
        while end > i, b[end - 1] == 0x20 { end -= 1 }
        var negative = false
        var signs = 0
        if i < end, b[i] == 0x2D || b[i] == 0x2B { negative = b[i] == 0x2D; signs += 1; i += 1 }
        if i < end, b[i] == 0x24 { i += 1 }  // $
        if end > i, b[end - 1] == 0x2D || b[end - 1] == 0x2B { negative = negative || b[end - 1] == 0x2D; signs += 1; end -= 1 }
        guard signs <= 1, i < end else { return nil }
        var significand: UInt64 = 0
        var digits = 0
        var fraction = 0
        var sawMark = false
        var sawSeparator = false
        var group = 0
        var integerDigits = 0
        while i < end {
            let c = b[i]
            if c >= 0x30, c <= 0x39 {
                guard digits < 18 else { return nil }
                significand = significand &* 10 &+ UInt64(c &- 0x30)
                digits += 1
                if sawMark { fraction += 1 } else { integerDigits += 1; group += 1 }
            } else if c == decimalMark, !sawMark {
                if sawSeparator, group != 3 { return nil }
                sawMark = true
            } else if !sawMark, let separator = thousands, c == separator {
                if integerDigits == 0 || (sawSeparator ? group != 3 : group > 3) { return nil }
                sawSeparator = true
                group = 0
            } else {
                return nil
            }
            i += 1
        }
        if sawSeparator, !sawMark, group != 3 { return nil }
        guard digits > 0 else { return nil }
        if significand == 0 { return Decimal(0) }
        return Decimal(sign: negative ? .minus : .plus, exponent: -fraction, significand: Decimal(significand))
    }
}
