import CofferModel
import Foundation

/// Exact parsing of money amounts as bank CSV exports write them.
///
/// For example:
/// ```swift
/// AmountText.parse("(12.34)")                                              // -12.34
/// AmountText.parse("-$1,000.00")                                           // -1000
/// AmountText.parse("1.234,56", decimalMark: ",", thousandsSeparator: ".")  // 1234.56
/// AmountText.parse("12.34-")                                               // -12.34 (trailing minus)
/// AmountText.parse("EUR 12,00", decimalMark: ",", thousandsSeparator: ".") // 12
/// ```
/// Accepted around the digits: surrounding whitespace (also no-break spaces), one sign (`+`, `-`, `−`) before or
/// after the number, parentheses for a negative amount, currency symbols (`$ € £ ¥`, any Unicode currency sign)
/// and three-letter upper-case codes (`EUR`, `USD`). Thousands separators must group by three (`1,23,456` is
/// refused); a space thousands separator also accepts no-break and narrow no-break spaces. Anything else (letters,
/// two signs, two decimal marks, an empty text) gives nil. Never `Double`: plain ASCII amounts take an exact
/// integer fast path (AmountText+Bytes.swift), everything else goes through `ExactDecimal.parse`.
package enum AmountText {
    /// The amount in `text`, signed, or nil when the text is not an amount.
    package static func parse(_ text: some StringProtocol, decimalMark: Character = ".",
                             thousandsSeparator: Character? = ",") -> Decimal? {
        if let mark = decimalMark.asciiValue, let fast = text.utf8.withContiguousStorageIfAvailable({
            fastParse($0, decimalMark: mark, thousands: thousandsSeparator.map { $0.asciiValue ?? 0xFF })
        }), let value = fast {
            return value
        }
        var chars = Array(text)
        trimSpaces(&chars)
        var negative = false
        var signs = 0
        if chars.first == "(" && chars.last == ")" && chars.count >= 2 {
            negative = true
            signs += 1
            chars.removeFirst()
            chars.removeLast()
        }
        // Leading decorations: spaces, one sign, currency symbols or codes.
        var start = 0
        var end = chars.count
        while start < end {
            let c = chars[start]
            if isSpace(c) { start += 1 }
            else if let sign = signValue(c) { signs += 1; negative = negative || sign; start += 1 }
            else if isCurrencySymbol(c) { start += 1 }
            else if let length = currencyCodeLength(chars, at: start, end: end) { start += length }
            else { break }
        }
        while end > start {
            let c = chars[end - 1]
            if isSpace(c) { end -= 1 }
            else if let sign = signValue(c) { signs += 1; negative = negative || sign; end -= 1 }
            else if isCurrencySymbol(c) { end -= 1 }
            else if end - start >= 3, currencyCodeLength(chars, at: end - 3, end: end) != nil { end -= 3 }
            else { break }
        }
        guard signs <= 1, start < end else { return nil }
        guard let digits = normalizedDigits(chars[start..<end], decimalMark: decimalMark,
                                            thousandsSeparator: thousandsSeparator) else { return nil }
        return ExactDecimal.parse(negative ? "-" + digits : digits)
    }

    /// `1.234,56` → `1234.56` under the given marks, checking the thousands grouping; nil when malformed.
    static func normalizedDigits(_ body: ArraySlice<Character>, decimalMark: Character,
                                 thousandsSeparator: Character?) -> String? {
        let spaceGrouping = thousandsSeparator.map(isSpace) ?? false
        var out = ""
        out.reserveCapacity(body.count)
        var sawMark = false
        var sawSeparator = false
        var groupLength = 0      // digits since the last thousands separator (or the start)
        var fractionDigits = 0
        var integerDigits = 0
        for c in body {
            if c.isASCII, c.isNumber {
                out.append(c)
                if sawMark { fractionDigits += 1 } else { integerDigits += 1; groupLength += 1 }
            } else if c == decimalMark, !sawMark {
                if sawSeparator, groupLength != 3 { return nil }
                sawMark = true
                out.append(".")
            } else if !sawMark, let separator = thousandsSeparator,
                      c == separator || (spaceGrouping && isSpace(c)) {
                // The first group holds 1–3 digits, every later one exactly 3.
                if integerDigits == 0 { return nil }
                if sawSeparator ? groupLength != 3 : groupLength > 3 { return nil }
                sawSeparator = true
                groupLength = 0
            } else {
                return nil
            }
        }
        if sawSeparator, !sawMark, groupLength != 3 { return nil }
        guard integerDigits + fractionDigits > 0 else { return nil }
        return out
    }

    static func isSpace(_ c: Character) -> Bool {
        c == " " || c == "\u{A0}" || c == "\u{202F}" || c == "\t" || c == "\u{2009}"
    }

    /// true for a minus sign, false for a plus sign, nil for anything else.
    static func signValue(_ c: Character) -> Bool? {
        switch c {
        case "-", "\u{2212}", "\u{2013}": return true
        case "+": return false
        default: return nil
        }
    }

    static func isCurrencySymbol(_ c: Character) -> Bool {
        guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return false }
        return scalar.properties.generalCategory == .currencySymbol
    }

    /// 3 when three upper-case ASCII letters stand at `index` and are not followed by another letter.
    static func currencyCodeLength(_ chars: [Character], at index: Int, end: Int) -> Int? {
        guard index >= 0, index + 3 <= end else { return nil }
        for i in index..<(index + 3) {
            let c = chars[i]
            guard c.isASCII, c.isUppercase else { return nil }
        }
        if index + 3 < end, chars[index + 3].isLetter { return nil }
        if index > 0, chars[index - 1].isLetter { return nil }
        return 3
    }

    static func trimSpaces(_ chars: inout [Character]) {
        while let last = chars.last, isSpace(last) || last.isNewline { chars.removeLast() }
        var first = 0
        while first < chars.count, isSpace(chars[first]) || chars[first].isNewline { first += 1 }
        if first > 0 { chars.removeFirst(first) }
    }
}
