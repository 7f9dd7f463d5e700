import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Malformed input throws a located `CofferError`, never crashes.
@Suite struct OFXMalformedTests {
    typealias T = OFXTest

    static let good = T.bank("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260105<TRNAMT>-1.00<FITID>F1<NAME>Shop</STMTTRN>")

    @Test func truncatedMidElement() throws {
        let cut = String(Self.good.prefix(upTo: Self.good.range(of: "<TRNAMT>-1")!.upperBound))
        let error = try #require(T.error(cut))
        #expect(error.code == .badInput)
        #expect(error.location?.line == 8)
        #expect(error.message.contains("ends inside"))
    }

    @Test func truncatedInsideATag() throws {
        let cut = String(Self.good.prefix(upTo: Self.good.range(of: "<TRNAM")!.upperBound))
        let error = try #require(T.error(cut))
        #expect(error.code == .badInput)
        #expect(error.location?.line == 8)
    }

    @Test func aBalanceLeftOpenEndsWhereTheNextAggregateStarts() throws {
        // SGML: <LEDGERBAL> never closed, <AVAILBAL> after it. Both balances are kept, with a warning.
        let text = T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1<FITID>A</STMTTRN>")
            .replacingOccurrences(of: "</BANKTRANLIST>", with: "</BANKTRANLIST><LEDGERBAL><BALAMT>100<DTASOF>20260131\n"
                                  + "<AVAILBAL><BALAMT>90<DTASOF>20260131</AVAILBAL>")
        let events = try T.events(.string(text))
        #expect(T.balances(events).map(\.amount) == [100, 90])
        #expect(T.warnings(events).first?.message.contains("<LEDGERBAL>") == true)
    }

    @Test func aStrayUnknownEndTagChangesNothing() throws {
        let text = T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1<FITID>A<NAME>Coffee<X.A>1<X.B>2</X.A></STMTTRN>"
                          + "<STMTTRN><DTPOSTED>20260106<TRNAMT>-2<FITID>B</STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>5"
                          + "<DTASOF>20260131</LEDGERBAL><BANKTRANLIST>")
        let events = try T.events(.string(text))
        #expect(T.transactions(events).map(\.amount) == [-1, -2])
        #expect(T.balances(events).map(\.amount) == [5])
        #expect(T.warnings(events).isEmpty)
    }

    @Test func aSavedPageAroundTheBodyIsSkipped() throws {
        let text = "<html><head><title>Download</title></head><body><pre>\n"
            + T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1<FITID>A</STMTTRN>", header: "OFXHEADER:100\nDATA:OFXSGML\n\n")
            + "\n</pre></body></html>\n"
        #expect(OFXParser.sniff(Array(text.utf8)))
        #expect(T.transactions(try T.events(.string(text))).count == 1)
    }

    @Test func aggregateLeftOpenIsClosedByItsParentWithAWarning() throws {
        // The STMTTRN's end tag comes after its parent's: it is closed at </BANKTRANLIST>, kept, and the stray
        // </STMTTRN> after it changes nothing (the statement still ends at </STMTRS>).
        let text = T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1</BANKTRANLIST></STMTTRN><LEDGERBAL><BALAMT>5"
                          + "<DTASOF>20260131</LEDGERBAL><BANKTRANLIST>")
        let events = try T.events(.string(text))
        #expect(T.transactions(events).map(\.amount) == [-1])
        #expect(T.balances(events).map(\.amount) == [5])
        let warning = try #require(T.warnings(events).first)
        #expect(warning.message.contains("<STMTTRN> (line 8)"))
        #expect(warning.message.contains("</BANKTRANLIST>"))
        #expect(warning.location.line == 8)
    }

    @Test func notOFXAtAll() throws {
        let error = try #require(T.error("Date,Amount,Description\n2026-01-01,-5.00,Coffee\n"))
        #expect(error.code == .badInput)
        #expect(error.message.contains("not an OFX file"))
        #expect(!OFXParser.sniff(Array("Date,Amount\n".utf8)))
        let xml = try #require(T.error("<?xml version=\"1.0\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">"))
        #expect(xml.location?.line == 2)
        #expect(!OFXParser.sniff(Array("<?xml version=\"1.0\"?>\n<Document>".utf8)))
    }

    @Test func emptyFile() throws {
        let error = try #require(T.error(""))
        #expect(error.message.contains("empty"))
        #expect(error.location?.line == 1)
        #expect(T.error("\n\n   \n")?.location?.line == 4)
    }

    @Test func binaryGarbage() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let count = Int.random(in: 0..<2000, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 2 == 0 { bytes = Array(Self.good.utf8.prefix(round * 2)) + bytes }
            if let error = T.error(.bytes(bytes)) {
                #expect(error.location?.line != nil)
            }
        }
    }

    @Test func tenThousandDeepNesting() throws {
        let text = "<OFX>" + String(repeating: "<A>", count: 10_000) + String(repeating: "</A>", count: 10_000) + "</OFX>"
        let error = try #require(T.error(text))
        #expect(error.message.contains("deeper than 256"))
        #expect(error.location?.line == 1)
    }

    @Test func missingAmount() throws {
        let error = try #require(T.error(T.bank("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260105<FITID>F1</STMTTRN>")))
        #expect(error.code == .badInput)
        #expect(error.message.contains("TRNAMT"))
        #expect(error.location?.line == 8)
        #expect(error.location?.element?.hasSuffix("STMTTRN[1]") == true)
    }

    @Test func emptyAmount() throws {
        let error = try #require(T.error(T.bank("<STMTTRN><DTPOSTED>20260105\n<TRNAMT></TRNAMT></STMTTRN>")))
        #expect(error.message.contains("TRNAMT"))
        #expect(error.location?.line == 9)
        #expect(error.location?.element == "OFX/BANKMSGSRSV1/STMTTRNRS/STMTRS/BANKTRANLIST/STMTTRN[1]/TRNAMT")
    }

    @Test func unparseableAmount() throws {
        let error = try #require(T.error(T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>12abc</STMTTRN>")))
        #expect(error.message.contains("12abc"))
        #expect(error.location?.element?.hasSuffix("/TRNAMT") == true)
    }

    @Test func unparseableDate() throws {
        let error = try #require(T.error(T.bank("<STMTTRN>\n<DTPOSTED>20261345\n<TRNAMT>-1</STMTTRN>")))
        #expect(error.code == .badInput)
        #expect(error.message.contains("20261345"))
        #expect(error.location?.line == 9)
        #expect(error.location?.element?.hasSuffix("STMTTRN[1]/DTPOSTED") == true)
    }

    @Test func institutionErrorStatus() throws {
        let text = Self.good.replacingOccurrences(of: "<STMTTRNRS>",
            with: "<STMTTRNRS><TRNUID>1<STATUS><CODE>2000<SEVERITY>ERROR<MESSAGE>Account temporarily unavailable</STATUS>")
        let error = try #require(T.error(text))
        #expect(error.code == .institutionError)
        #expect(error.message == "the institution said: 2000 Account temporarily unavailable")
        #expect(error.location?.element == "OFX/BANKMSGSRSV1/STMTTRNRS/STATUS")
        let signon = "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500<SEVERITY>ERROR</STATUS></SONRS></SIGNONMSGSRSV1></OFX>"
        #expect(T.error(signon)?.message == "the institution said: 15500")
    }

    @Test func firstElementIsNotOFX() throws {
        let error = try #require(T.error("OFXHEADER:100\n\n<BANKMSGSRSV1>"))
        #expect(error.message.contains("expected <OFX>"))
        #expect(error.location?.line == 3)
    }

    @Test func unterminatedTag() throws {
        let error = try #require(T.error("<OFX><NAME<TRNAMT>1</OFX>"))
        #expect(error.location?.line == 1)
        #expect(error.location?.column == 11)
    }

    @Test func mutatedSamplesNeverCrash() throws {
        // A small in-process fuzz: flip, insert, delete and truncate bytes of every sample; any outcome but a crash
        // (events or a located CofferError) is fine.
        var generator = SystemRandomNumberGenerator()
        let structural: [UInt8] = Array("<>/![]?&;-\n\r\0".utf8) + [0]
        for name in OFXGoldenTests.samples {
            let original = Array(try Data(contentsOf: OFXTest.feeds.appendingPathComponent(name)))
            for _ in 0..<300 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...8, using: &generator) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: bytes[at] = structural.randomElement(using: &generator) ?? 0
                    case 1: bytes.insert(structural.randomElement(using: &generator) ?? 0, at: at)
                    case 2: bytes.remove(at: at)
                    default: bytes.removeSubrange(at...)
                    }
                }
                do {
                    _ = try OFXTest.events(.bytes(bytes, name: name))
                } catch let error as CofferError {
                    #expect(error.location?.line != nil || error.code == .institutionError, "\(error)")
                }
            }
        }
    }
}
