import CofferModel
import Foundation
import Testing
@testable import CofferFormats

@Suite struct CSVAmountTextTests {
    static let dot: [(String, String?)] = [
        ("12.34", "12.34"), ("(12.34)", "-12.34"), ("-$1,000.00", "-1000"), ("+ $73.01", "73.01"),
        (" -110.7 €", "-110.7"), ("12.34-", "-12.34"), ("$ 5", "5"), ("USD 1,234,567.89", "1234567.89"),
        ("1,234", "1234"), (".5", "0.5"), ("0", "0"), ("-0.00", "0"), ("£12", "12"), ("12 USD", "12"),
        ("−4.20", "-4.2"), ("( $1,000.50 )", "-1000.5"), ("12345678901234567890.12", "12345678901234567890.12"),
        // Refused:
        ("", nil), ("   ", nil), ("-", nil), ("abc", nil), ("12abc", nil), ("--5", nil), ("-5-", nil),
        ("1,23", nil), ("12,34,567", nil), ("1.2.3", nil), (",123", nil), ("1,2345", nil), ("(-5)", nil),
        ("12 CR", nil), ("EURO 5", nil), ("1e5", nil), ("$", nil), ("12.34.", nil), ("1 234", nil),
    ]

    @Test(arguments: dot)
    func pointDecimal(text: String, expected: String?) {
        #expect(AmountText.parse(text) == expected.flatMap { Decimal(string: $0) }, "\(text)")
    }

    static let comma: [(String, String?)] = [
        ("1.234,56", "1234.56"), ("-1.234,56", "-1234.56"), ("EUR 12,00", "12"), ("12,00 EUR", "12"),
        ("0,5", "0.5"), ("12,34-", "-12.34"), ("1.234.567", "1234567"), ("-110,7 €", "-110.7"),
        ("1.23,4", nil), ("1,2,3", nil), ("12.34", nil),
    ]

    @Test(arguments: comma)
    func commaDecimal(text: String, expected: String?) {
        #expect(AmountText.parse(text, decimalMark: ",", thousandsSeparator: ".") == expected.flatMap { Decimal(string: $0) }, "\(text)")
    }

    @Test func spaceThousandsAcceptNoBreakSpaces() {
        for text in ["1 234,56", "1\u{A0}234,56", "1\u{202F}234,56"] {
            #expect(AmountText.parse(text, decimalMark: ",", thousandsSeparator: " ") == Decimal(string: "1234.56"), "\(text)")
        }
    }

    @Test func noThousandsSeparatorRefusesGrouping() {
        #expect(AmountText.parse("1234.5", thousandsSeparator: nil) == Decimal(string: "1234.5"))
        #expect(AmountText.parse("1,234.5", thousandsSeparator: nil) == nil)
    }

    @Test func exactBeyondDoublePrecision() {
        #expect(AmountText.parse("0.1") == Decimal(string: "0.1"))
        #expect(AmountText.parse("9007199254740993.01")?.description == "9007199254740993.01")
    }

    @Test func fastPathAgreesWithExactDecimal() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let digits = String((0..<Int.random(in: 1...18, using: &generator)).map { _ in "0123456789".randomElement(using: &generator) ?? "0" })
            let split = Int.random(in: 0...digits.count, using: &generator)
            let text = (Bool.random(using: &generator) ? "-" : "") + digits.prefix(split) + (split < digits.count ? "." + digits.dropFirst(split) : "")
            let fast = Array(text.utf8).withUnsafeBufferPointer { AmountText.fastParse($0, decimalMark: 0x2E, thousands: nil) }
            #expect(fast == ExactDecimal.parse(text), "\(text)")
        }
    }

    @Test func windows1252TranscodingMatchesTextEncoding() {
        let bytes: [UInt8] = Array(0x20...0xFF)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(CSVRowMapper.transcode(buffer) == TextEncoding.windows1252.decode(bytes))
            // A Latin-1 label reads 0x80–0x9F as Windows-1252 too (WHATWG): `€`, never the C1 control U+0080.
            #expect(TextEncoding.latin1.decode(bytes) == TextEncoding.windows1252.decode(bytes))
            #expect(TextEncoding.latin1.decode([0x80, 0xE9]) == "€é")
        }
    }
}
