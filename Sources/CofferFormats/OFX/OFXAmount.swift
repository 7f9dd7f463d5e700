import CofferModel
import Foundation

/// Reads OFX amounts from value bytes, exactly and without building a `String` on the common path.
///
/// For example:
/// ```swift
/// OFXAmount.parse(Array("-12.34".utf8)[...])              // -12.34
/// OFXAmount.parse(Array("+0000000100.00000".utf8)[...])   // 100
/// OFXAmount.parse(Array("-200,00".utf8)[...])             // -200 (a lone comma is the decimal mark)
/// OFXAmount.parse(Array("1.234,56".utf8)[...])            // 1234.56 (the last mark is the decimal one)
/// ```
/// The OFX specification allows `.` or `,` as the decimal mark and no grouping; files do group sometimes. The
/// rule: with both marks present, the last one is the decimal mark and the other is grouping; a single comma
/// alone is a decimal mark; several commas alone are grouping. Up to 19 significant digits are read directly;
/// longer values (at most 38 digits) go through `ExactDecimal.parse`. Never through `Double`.
enum OFXAmount {
    static func parse<Bytes: RandomAccessCollection<UInt8>>(_ value: Bytes) -> Decimal? where Bytes.Index == Int {
        var start = value.startIndex
        var end = value.endIndex
        while start < end, OFXText.isSpace(value[start]) { start &+= 1 }
        while end > start, OFXText.isSpace(value[end &- 1]) { end &-= 1 }
        guard start < end else { return nil }
        var negative = false
        if value[start] == 0x2D || value[start] == 0x2B {
            negative = value[start] == 0x2D
            start &+= 1
        }
        var dots = 0, commas = 0, lastMark = -1
        for i in start..<end {
            let b = value[i]
            if b == 0x2E { dots &+= 1; lastMark = i } else if b == 0x2C { commas &+= 1; lastMark = i }
            else if b < 0x30 || b > 0x39 { return nil }
        }
        let decimalMark: Int
        if dots > 0, commas > 0 {
            decimalMark = lastMark
            let markByte = value[lastMark]
            // The grouping mark must not also appear after the decimal mark (checked by the loop below).
            if markByte == 0x2E ? dots > 1 : commas > 1 { return nil }
        } else if dots == 1 || commas == 1 {
            decimalMark = lastMark
        } else if dots > 1 {
            return nil
        } else {
            decimalMark = -1  // no mark, or several commas used for grouping
        }
        var significand: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var sawDigit = false
        for i in start..<end {
            let b = value[i]
            if i == decimalMark { continue }
            guard b >= 0x30, b <= 0x39 else { continue }  // grouping mark
            sawDigit = true
            if decimalMark >= 0, i > decimalMark { fractionDigits &+= 1 }
            if significant > 0 || b != 0x30 { significant &+= 1 }
            if significant <= 19 { significand = significand &* 10 &+ UInt64(b &- 0x30) }
        }
        guard sawDigit, fractionDigits <= 38 else { return nil }  // beyond that, Decimal's exponent runs out
        if significant > 19 {
            // Rare: the digits and the point again, without grouping marks (not gathered in the loop above: an
            // array per amount).
            var normalized: [UInt8] = []
            for i in start..<end {
                if i == decimalMark { normalized.append(0x2E) } else if value[i] >= 0x30, value[i] <= 0x39 { normalized.append(value[i]) }
            }
            guard let magnitude = ExactDecimal.parse(String(decoding: normalized, as: UTF8.self)) else { return nil }
            return negative ? -magnitude : magnitude
        }
        return Decimal(sign: negative && significand != 0 ? .minus : .plus, exponent: -fractionDigits,
                       significand: Decimal(significand))
    }
}
