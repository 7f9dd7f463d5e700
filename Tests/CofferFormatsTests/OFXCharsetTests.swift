import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// OFX files in the single-byte character sets banks outside Western Europe declare: `CHARSET:1251` (Cyrillic),
/// `CHARSET:1250` and `8859-2` (Polish, Czech), `encoding="ISO-8859-15"` (the euro sign). Their text was read as
/// Windows-1252, storing mojibake without a word; now each field that is not valid UTF-8 is read in the declared
/// set, and valid UTF-8 still wins whatever the header says.
@Suite struct OFXCharsetTests {
    /// `text` in `iconvName`'s encoding, through iconv (the test's own conversion, not the parser's table).
    static func encode(_ text: String, _ iconvName: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        process.arguments = ["-f", "UTF-8", "-t", iconvName]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "iconv -t \(iconvName) failed")
        return [UInt8](data)
    }

    static func sgml(charset: String, name: String, memo: String) -> String {
        """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102
        SECURITY:NONE
        ENCODING:USASCII
        CHARSET:\(charset)
        COMPRESSION:NONE
        OLDFILEUID:NONE
        NEWFILEUID:NONE

        <OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
        <STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>12345678<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20260301<DTEND>20260331
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260305<TRNAMT>-12.50<FITID>A1<NAME>\(name)<MEMO>\(memo)</STMTTRN>
        </BANKTRANLIST><LEDGERBAL><BALAMT>100.00<DTASOF>20260331</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

        """
    }

    static func transaction(_ bytes: [UInt8]) throws -> RawTransaction {
        var found: RawTransaction?
        try OFXParser().parse(.bytes(bytes, name: "charset.ofx")) { event in
            if case .transaction(let t) = event { found = t }
        }
        return try #require(found)
    }

    @Test(arguments: [
        ("1251", "CP1251", "Пятёрочка Москва", "Оплата товаров"),
        ("1250", "CP1250", "Żabka Łódź", "Płatność kartą"),
        ("8859-2", "ISO-8859-2", "Bistro Čáp Brno", "Platba kartou, řízek"),
        ("ISO-8859-15", "ISO-8859-15", "Café € Œuvre", "Šárka Žižka"),
        ("KOI8-R", "KOI8-R", "Магнит", "Покупка"),
    ])
    func fieldsAreReadInTheDeclaredCharset(charset: String, iconvName: String, name: String, memo: String) throws {
        let file = try Self.encode(Self.sgml(charset: charset, name: name, memo: memo), iconvName)
        #expect(String(validating: file, as: UTF8.self) == nil, "the file must not be UTF-8 for the test to mean anything")
        let t = try Self.transaction(file)
        #expect(t.name == name)
        #expect(t.memo == memo)
    }

    /// The same text in UTF-8 under any of those headers reads as UTF-8: a mislabelled file is not mangled.
    @Test(arguments: ["1251", "1250", "8859-2", "ISO-8859-15"])
    func validUTF8WinsOverTheHeader(charset: String) throws {
        let t = try Self.transaction(Array(Self.sgml(charset: charset, name: "Żabka Пятёрочка", memo: "€ 5").utf8))
        #expect(t.name == "Żabka Пятёрочка")
        #expect(t.memo == "€ 5")
    }

    /// OFX 2: the XML declaration names the set.
    @Test func anXMLDeclarationNamesTheCharset() throws {
        let body = Self.sgml(charset: "NONE", name: "Café €", memo: "Œuvre").split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("<OFX>") }.joined(separator: "\n")
            .replacingOccurrences(of: "<TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>", with: "<TRNUID>1</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>")
        let xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-15\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n" + body
        let t = try Self.transaction(try Self.encode(xml, "ISO-8859-15"))
        #expect(t.name == "Café €")
        #expect(t.memo == "Œuvre")
    }

    /// Files labelled ISO-8859-1 are written by Windows programs: at 0x80–0x9F they hold Windows-1252's euro sign,
    /// dashes and curly quotes, never Latin-1's C1 control characters (the WHATWG rule browsers and camt follow).
    /// Every spelling of the label, in an OFX 1 header and in an OFX 2 XML declaration.
    @Test(arguments: ["ISO-8859-1", "8859-1", "LATIN1", "1252", "NONE"])
    func latin1LabelsReadWindowsPunctuation(charset: String) throws {
        // 0x80 €, 0x93 “, 0x94 ”, 0x96 –, 0x85 …, and Latin-1's own é (0xE9) beside them.
        let marks: [UInt8: [UInt8]] = [UInt8(ascii: "E"): [0x80], UInt8(ascii: "Q"): [0x93], UInt8(ascii: "U"): [0x94],
                                       UInt8(ascii: "D"): [0x96], UInt8(ascii: "P"): [0x85], UInt8(ascii: "A"): [0xE9]]
        func bytes(_ text: String) -> [UInt8] {
            // `{X}` stands for the byte(s) `marks[X]`.
            var out: [UInt8] = []
            var inside = false
            for b in Array(text.utf8) {
                if b == UInt8(ascii: "{") { inside = true; continue }
                if b == UInt8(ascii: "}") { inside = false; continue }
                out += inside ? (marks[b] ?? [b]) : [b]
            }
            return out
        }
        let sgml = bytes(Self.sgml(charset: charset, name: "Caf{A} {Q}Le Coin{U}", memo: "12{E} {D} Rabais{P}"))
        #expect(String(validating: sgml, as: UTF8.self) == nil)
        let t = try Self.transaction(sgml)
        #expect(t.name == "Café “Le Coin”")
        #expect(t.memo == "12€ – Rabais…")
        #expect(!(t.name! + t.memo!).unicodeScalars.contains { (0x80...0x9F).contains($0.value) })

        let body = Self.sgml(charset: "NONE", name: "Caf{A} {Q}Le Coin{U}", memo: "12{E}")
            .split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("<OFX>") }.joined(separator: "\n")
            .replacingOccurrences(of: "<TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>",
                                  with: "<TRNUID>1</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>")
        let xml = "<?xml version=\"1.0\" encoding=\"\(charset == "NONE" ? "US-ASCII" : charset)\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n" + body
        let x = try Self.transaction(bytes(xml))
        #expect(x.name == "Café “Le Coin”")
        #expect(x.memo == "12€")
    }

    /// Labels that name no single-byte set Coffer can read leave the old rule: UTF-8, else Windows-1252.
    @Test func unknownAndMultiByteCharsetsFallBackToWindows1252() throws {
        for charset in ["NO-SUCH-SET", "932", "UTF-7"] {
            // 'é' as Windows-1252's single byte.
            let bytes = Array(Self.sgml(charset: charset, name: "Caf#", memo: "m").utf8).map { $0 == UInt8(ascii: "#") ? 0xE9 : $0 }
            #expect(try Self.transaction(bytes).name == "Café", "\(charset)")
        }
        #expect(throws: SingleByteTable.Failure.notASCIISuperset) { try SingleByteTable(label: "932") }
        #expect(throws: SingleByteTable.Failure.unknown) { try SingleByteTable(label: "NO-SUCH-SET") }
        #expect(SingleByteTable.iconvName("1251") == "CP1251")
        #expect(SingleByteTable.iconvName("8859-2") == "ISO-8859-2")
    }
}
