import Foundation

/// Strict, exact decimal text handling.
///
/// Foundation's `Decimal(string:)` is lenient (`"12abc"` gives 12, `"12,5"` gives 12), which is wrong for money.
/// `ExactDecimal` accepts only `[+-]digits[.digits]` and converts without ever going through `Double`.
///
/// For example:
/// ```swift
/// ExactDecimal.parse("-0012.30")        // -12.3
/// ExactDecimal.scaled(Decimal(string: "1.5")!)  // 1_500_000 (micro-units)
/// ```
package enum ExactDecimal {
    /// The scale of the integer form kept in SQLite for comparing and summing: micro-units.
    package static let storageScale = 6

    /// Made once: building a `Locale` per call cost more than the parse itself.
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// `parse` for a `String`: a concrete entry point, so callers in other modules get the specialized code.
    package static func parse(_ text: String) -> Decimal? { parse(Substring(text)) }

    /// Parses `[+-]digits[.digits]` (or `.5`, `5.`); nil for anything else. At most 38 significant digits.
    package static func parse(_ text: some StringProtocol) -> Decimal? {
        var sawDigit = false
        var sawPoint = false
        var significant = 0
        var index = text.startIndex
        if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
        while index < text.endIndex {
            let c = text[index]
            if c.isASCII, c.isNumber {
                sawDigit = true
                if significant > 0 || c != "0" { significant += 1 }
            } else if c == ".", !sawPoint {
                sawPoint = true
            } else {
                return nil
            }
            index = text.index(after: index)
        }
        guard sawDigit, significant <= 38 else { return nil }
        if let fast = fastParse(text) { return fast }
        var normalized = String(text)
        if normalized.hasPrefix("+") { normalized.removeFirst() }
        if normalized.hasSuffix(".") { normalized.removeLast() }
        if normalized.hasPrefix(".") { normalized = "0" + normalized }
        if normalized.hasPrefix("-.") { normalized = "-0" + normalized.dropFirst() }
        return Decimal(string: normalized, locale: posix)
    }

    /// The value in units of 10^-`scale` as an exact `Int64`, or nil when it does not fit or is not exact
    /// at that scale.
    package static func scaled(_ value: Decimal, scale: Int = storageScale) -> Int64? {
        guard value.isFinite else { return nil }
        if let fast = fastScaled(value, scale: scale) { return fast }
        var shifted = value
        var factor = Decimal(1)
        for _ in 0..<scale { factor *= 10 }
        shifted *= factor
        var rounded = Decimal()
        NSDecimalRound(&rounded, &shifted, 0, .plain)
        guard rounded == shifted else { return nil }
        let text = rounded.description
        return Int64(text)
    }

    /// Plain text of `value` with at least `minimumFractionDigits` decimals: `12.3` → `"12.30"`.
    package static func text(_ value: Decimal, minimumFractionDigits: Int = 0) -> String {
        var text = fastText(value) ?? value.description
        // Byte checks: String.contains(String) and split go through Foundation's slow search on Linux.
        if text.utf8.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            // Decimal.description never uses exponents on Foundation today; keep the guard explicit.
            text = NSDecimalNumber(decimal: value).stringValue
        }
        guard minimumFractionDigits > 0 else { return text }
        let utf8 = Array(text.utf8)
        let fractionCount = utf8.firstIndex(of: UInt8(ascii: ".")).map { utf8.count - $0 - 1 }
        let have = fractionCount ?? 0
        if have >= minimumFractionDigits { return text }
        return text + (fractionCount == nil ? "." : "") + String(repeating: "0", count: minimumFractionDigits - have)
    }
}
