import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Each quirk real OFX files have, on its own.
@Suite struct OFXQuirkTests {
    typealias T = OFXTest

    static let one = "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260105<TRNAMT>-1.00<FITID>F1<NAME>Shop</STMTTRN>"
    static let xmlHeader = "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n"

    private func single(_ text: String) throws -> RawTransaction {
        let txs = T.transactions(try T.events(text))
        #expect(txs.count == 1)
        return try #require(txs.first)
    }

    @Test func xmlHeaderOverSGMLBody() throws {
        #expect(try single(T.bank(Self.one, header: Self.xmlHeader)).amount == -1)
    }

    @Test func sgmlHeaderOverXMLBody() throws {
        let xml = "<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260105</DTPOSTED><TRNAMT>-1.00</TRNAMT></STMTTRN>"
        #expect(try single(T.bank(xml)).amount == -1)
    }

    @Test func noHeader() throws {
        let text = T.bank(Self.one, header: "")
        #expect(OFXParser.sniff(Array(text.utf8)))
        #expect(try single(text).externalID == "F1")
    }

    @Test func headerInsideAComment() throws {
        let text = T.bank(Self.one.replacingOccurrences(of: "Shop", with: "Caf\u{E9}"),
                          header: "<!--\nOFXHEADER:100\nDATA:OFXSGML\nCHARSET:8859-1\n-->\n")
        #expect(OFXParser.sniff(Array(text.utf8)))
        var bytes = Array(text.utf8)
        // Make the é a Latin-1 byte, which the commented header declares.
        if let at = bytes.firstIndex(of: 0xC3) { bytes.replaceSubrange(at...(at + 1), with: [0xE9]) }
        let txs = T.transactions(try T.events(.bytes(bytes)))
        #expect(txs.first?.name == "Café")
    }

    @Test func everythingOnOneLine() throws {
        let text = T.bank(Self.one).replacingOccurrences(of: "\n", with: " ")
        let tx = try single(text)
        #expect(tx.location.line == 1)
        let offset = try #require(text.range(of: "<STMTTRN>")).lowerBound.utf16Offset(in: text)
        #expect(tx.location.column == offset + 1)
    }

    @Test func valueOnTheLineAfterItsTag() throws {
        let tx = try single(T.bank("<STMTTRN>\n<TRNTYPE>\nPOS\n<DTPOSTED>\n20260105\n<TRNAMT>\n-2.50\n<NAME>\n  Kiosk  \n</STMTTRN>"))
        #expect(tx.amount == T.decimal("-2.50"))
        #expect(tx.name == "Kiosk")
        #expect(tx.transactionType == .pointOfSale)
    }

    @Test func mixedClosedAndUnclosedLeaves() throws {
        let tx = try single(T.bank("<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260105<TRNAMT>-3</TRNAMT><NAME>X<MEMO>Y</MEMO></STMTTRN>"))
        #expect(tx.name == "X")
        #expect(tx.memo == "Y")
    }

    @Test func aggregateClosedWithTheWrongEndTag() throws {
        let text = T.bank(Self.one).replacingOccurrences(of: "</BANKACCTFROM>", with: "</CCACCTFROM>")
        #expect(try single(text).amount == -1)
        #expect(T.headers(try T.events(text)).first?.account.accountNumber == "2")
    }

    @Test func byteOrderMarkBlankLinesAndCROnlyLineEnds() throws {
        let text = "\u{FEFF}\r\r" + T.bank(Self.one.replacingOccurrences(of: "<NAME>", with: "\r<NAME>"))
            .replacingOccurrences(of: "\n", with: "\r")
        #expect(OFXParser.sniff(Array(text.utf8)))
        let tx = try single(text)
        #expect(tx.location.line == 10)
    }

    @Test func trailingNULAfterTheEnd() throws {
        var bytes = Array(T.bank(Self.one).utf8)
        bytes += [0, 0, 0, 0x1A, 0xFF]
        #expect(T.transactions(try T.events(.bytes(bytes))).count == 1)
    }

    @Test func proprietaryTagsIgnored() throws {
        let tx = try single(T.bank("<STMTTRN><TRNTYPE>DEBIT<INTU.BID>123<DTPOSTED>20260105<TRNAMT>-1<INTU.XTRA><A>1</A></INTU.XTRA><NAME>N</STMTTRN>"))
        #expect(tx.name == "N")
    }

    @Test func cdataValues() throws {
        let tx = try single(T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1<NAME><![CDATA[A & B <C>]]></NAME><MEMO>x <![CDATA[&amp;]]> &amp; y</MEMO></STMTTRN>"))
        #expect(tx.name == "A & B <C>")
        #expect(tx.memo == "x &amp; & y")
    }

    @Test func rawAmpersandAndDoubleEscapedEntities() throws {
        let tx = try single(T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1<NAME>AT&T & Sons &amp;amp; Co &#233;<MEMO>a &amp;lt;b&amp;gt; &unknown; &</STMTTRN>"))
        #expect(tx.name == "AT&T & Sons & Co é")
        #expect(tx.memo == "a <b> &unknown; &")
    }

    @Test func selfClosingAndEmptyLeaves() throws {
        let tx = try single(T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1<MEMO/><NAME>N<CHECKNUM></CHECKNUM><SIC>\n</STMTTRN>"))
        #expect(tx.memo == nil)
        #expect(tx.name == "N")
        #expect(tx.merchantCategoryCode == nil)
    }

    @Test func overLongIdentifiersAccepted() throws {
        let long = String(repeating: "9", count: 300)
        let name = String(repeating: "Very Long Merchant Name ", count: 40)
        let text = T.bank("<STMTTRN><DTPOSTED>20260105<TRNAMT>-1<FITID>\(long)<NAME>\(name)</STMTTRN>")
            .replacingOccurrences(of: "<ACCTID>2", with: "<ACCTID>\(long)")
            .replacingOccurrences(of: "<BANKID>1", with: "<BANKID>\(long)")
        let events = try T.events(text)
        #expect(T.headers(events).first?.account.accountNumber == long)
        #expect(T.headers(events).first?.account.institutionID == long)
        #expect(T.transactions(events).first?.name == name.trimmingCharacters(in: .whitespaces))
        #expect(T.transactions(events).first?.externalID == long)
    }

    @Test func utf8UnderA1252LabelStillReadsRight() throws {
        let text = T.bank(Self.one.replacingOccurrences(of: "Shop", with: "Zoë’s Café"),
                          header: "OFXHEADER:100\nDATA:OFXSGML\nCHARSET:1252\n\n")
        #expect(try single(text).name == "Zoë’s Café")
    }

    @Test func windows1252BytesDecode() throws {
        var bytes = Array(T.bank(Self.one, header: "OFXHEADER:100\nCHARSET:1252\n\n").utf8)
        let at = try #require(Array(bytes.indices).first { bytes[$0...].starts(with: Array("Shop".utf8)) })
        bytes.replaceSubrange(at..<(at + 4), with: [0x80, 0x20, 0x93, 0x41, 0x94])  // € “A”
        #expect(T.transactions(try T.events(.bytes(bytes))).first?.name == "€ “A”")
    }

    @Test func chunkBoundariesAnywhere() throws {
        // The same file split at every byte boundary (small chunks) must read the same.
        let text = try String(contentsOf: OFXTest.feeds.appendingPathComponent("quirks.ofx"), encoding: .utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ofx-chunks-\(UUID()).ofx").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = T.transactions(try T.events(.string(text))).map(\.name)
        for size in [1, 2, 3, 7, 64] {
            var events: [StatementEvent] = []
            let input = StatementInput.file(path)
            let reader = try input.makeReader(chunkSize: size)
            let tokenizer = OFXTokenizer(file: path)
            var elements = OFXElementReader(file: path)
            while let chunk = try reader.next(), !elements.isFinished {
                try tokenizer.feed(chunk, eof: false, into: &elements)
            }
            events = elements.assembler.events
            #expect(T.transactions(events).map(\.name) == expected, "chunk size \(size)")
        }
    }
}
