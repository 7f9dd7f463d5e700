import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// OFX dates, amounts and format sniffing, value by value.
@Suite struct OFXValueTests {
    typealias T = OFXTest

    private func date(_ text: String) -> RawDate? { OFXDate.parse(Array(text.utf8)[...]) }
    private func amount(_ text: String) -> Decimal? { OFXAmount.parse(Array(text.utf8)[...]) }

    @Test func dateForms() {
        #expect(date("20260314") == T.day("2026-03-14"))
        #expect(date("20260314[-5:EST]") == T.day("2026-03-14"))
        #expect(date("202603141530") == T.instant("2026-03-14T15:30:00Z"))
        #expect(date("20260314153045") == T.instant("2026-03-14T15:30:45Z"))
        #expect(date("20260314000000") == T.instant("2026-03-14T00:00:00Z"))
        #expect(date("20260314120000.000[-5:EST]") == T.instant("2026-03-14T17:00:00Z", offset: -5))
        #expect(date("20260314120000[-5]") == T.instant("2026-03-14T17:00:00Z", offset: -5))
        #expect(date("20260314120000[+5.30:IST]") == T.instant("2026-03-14T06:30:00Z", offset: 5.5))
        #expect(date("20260314120000[+5.5]") == T.instant("2026-03-14T06:30:00Z", offset: 5.5))
        #expect(date("20260314120000[+5.75:NPT]") == T.instant("2026-03-14T06:15:00Z", offset: 5.75))
        #expect(date("20260314120000[0:GMT]") == T.instant("2026-03-14T12:00:00Z", offset: 0))
        #expect(date("20260314120000[EST]") == T.instant("2026-03-14T17:00:00Z", offset: -5))
        #expect(date(" 20260314 ") == T.day("2026-03-14"))
        // The bank's own day: 20:00 PST on March 31 is April 1 in UTC, March 31 in its offset; 19:00 EST is
        // midnight UTC and still a time, not a day.
        let evening = date("20260331200000[-8:PST]")
        #expect(evening == T.instant("2026-04-01T04:00:00Z", offset: -8))
        #expect(evening?.localDay == CalendarDay.dayNumber(CalendarDay.parse("2026-03-31")!))
        let midnightUTC = date("20260314190000[-5:EST]")
        #expect(midnightUTC?.isDateOnly == false)
        #expect(midnightUTC?.storedOffset == -18_000)
        #expect(midnightUTC?.localDay == CalendarDay.dayNumber(CalendarDay.parse("2026-03-14")!))
        #expect(date("20260314120000")?.storedOffset == 0)
        #expect(date("20260314")?.storedOffset == nil)
        let fraction = date("20260314120000.250")
        #expect(fraction?.date.timeIntervalSince1970 == T.instant("2026-03-14T12:00:00Z").date.timeIntervalSince1970 + 0.25)
    }

    @Test func badDates() {
        for bad in ["", "2026031", "20261301", "20260230", "20260314250000", "20260314126000", "2026-03-14",
                    "20260314120000[", "20260314120000[xyz]", "20260314120000[+99]", "20260314.5", "20260314x"] {
            #expect(date(bad) == nil, "\(bad)")
        }
    }

    @Test func amountForms() {
        #expect(amount("-12.34") == T.decimal("-12.34"))
        #expect(amount("+0000000100.00000") == 100)
        #expect(amount("-200,00") == -200)
        #expect(amount("12,5") == T.decimal("12.5"))
        #expect(amount("1.234,56") == T.decimal("1234.56"))
        #expect(amount("1,234.56") == T.decimal("1234.56"))
        #expect(amount("1,234,567") == 1_234_567)
        #expect(amount("0.123456789") == T.decimal("0.123456789"))
        #expect(amount("-12345678901234567890.123456789") == T.decimal("-12345678901234567890.123456789"))
        #expect(amount(".5") == T.decimal("0.5"))
        #expect(amount("5.") == 5)
        #expect(amount(" 42 ") == 42)
        #expect(amount("-0.00") == 0)
    }

    @Test func badAmounts() {
        for bad in ["", "-", "12abc", "1.2.3", "1,2.3,4", "--1", "1e5", "$5", "1 000", ".", "0." + String(repeating: "0", count: 200) + "1"] {
            #expect(amount(bad) == nil, "\(bad)")
        }
    }

    @Test func sniffing() {
        let yes = ["OFXHEADER:100\nDATA:OFXSGML", "\u{FEFF}\n\nOFXHEADER:100", "<?xml version=\"1.0\"?><?OFX OFXHEADER=\"200\"?><OFX>",
                   "<OFX><SIGNONMSGSRSV1>", "  <!-- a comment --> <ofx>", "<!--\nOFXHEADER:100\n-->",
                   "<?xml version=\"1.0\"?>\n<!DOCTYPE OFX>\n<OFX>"]
        let no = ["", "Date,Amount", "<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022\">",
                  "<html><body>", "<!-- no header -->", "\u{0}\u{1}\u{2}"]
        for text in yes { #expect(OFXParser.sniff(Array(text.utf8)), "\(text)") }
        for text in no { #expect(!OFXParser.sniff(Array(text.utf8)), "\(text)") }
    }

    @Test func headerCharsets() throws {
        func encoding(_ text: String) throws -> TextEncoding {
            var header = OFXHeader()
            try Array(text.utf8).withUnsafeBufferPointer { try header.append($0, file: "x", line: 1, column: 1) }
            return header.encoding
        }
        #expect(try encoding("CHARSET:1252") == .windows1252)
        #expect(try encoding("CHARSET:ISO-8859-1") == .latin1)
        #expect(try encoding("ENCODING:USASCII CHARSET:8859-1") == .latin1)
        #expect(try encoding("CHARSET:NONE") == .windows1252)
        #expect(try encoding("ENCODING:UTF-8 CHARSET:CSUNICODE") == .utf8)
        var xml = OFXHeader()
        Array("xml version=\"1.0\" encoding=\"ISO-8859-1\"".utf8).withUnsafeBufferPointer { xml.readInstruction($0) }
        #expect(xml.encoding == .latin1)
    }

    @Test func transactionTypes() {
        let expected: [String: TransactionType?] = [
            "POS": .pointOfSale, "ATM": .atm, "CHECK": .check, "FEE": .fee, "SRVCHG": .fee, "INT": .interest,
            "DIV": .dividend, "DEP": .deposit, "DIRECTDEP": .directDeposit, "DIRECTDEBIT": .directDebit,
            "XFER": .transfer, "PAYMENT": .billPayment, "REPEATPMT": .standingOrder, "CASH": nil, "CREDIT": nil,
            "DEBIT": nil, "OTHER": nil, "HOLD": nil,
        ]
        for (code, type) in expected { #expect(OFXTransactionFields.transactionType(code) == type, "\(code)") }
    }
}
