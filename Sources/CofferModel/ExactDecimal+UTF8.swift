import Foundation

extension ExactDecimal {
    /// `parse` over UTF-8 bytes, such as a database column read in place: the same grammar and the same value
    /// (mantissa and exponent) as `parse(_:)`, without making a `String` and walking its `Character`s first.
    package static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        var index = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        var digits = 0
        var significant = 0
        var fraction = 0
        var sawPoint = false
        var mantissa: UInt64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if significant > 0 || byte != UInt8(ascii: "0") { significant += 1 }
                digits += 1
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                if sawPoint { fraction += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, significant <= 38 else { return nil }
        // More digits than a UInt64 holds: the general path (as `parse` does past `fastParse`'s 19 digits).
        guard digits <= 19 else { return parse(String(decoding: bytes, as: UTF8.self)) }
        let magnitude = Decimal(sign: .plus, exponent: -fraction, significand: Decimal(mantissa))
        return negative && mantissa != 0 ? -magnitude : magnitude
    }
}
