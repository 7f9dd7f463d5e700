import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// MT940 and QIF files cannot say what encoding their text is in: a Polish or Czech bank writes MT940 in
/// windows-1250, Quicken writes QIF in the system's code page. Read as Windows-1252 (the default), `Łódź` in
/// windows-1250 became `£ódŸ`; with the encoding named (`coffer import --encoding cp1250`) each line that is not
/// valid UTF-8 is read in it, and valid UTF-8 still wins.
@Suite struct LineFormatEncodingTests {
    static let mt940 = """
        :20:STMT
        :25:PL61109010140000071219812874
        :28C:1/1
        :60F:C260301PLN1000,00
        :61:2603020302D12,50NTRFNONREF
        :86:Żabka Łódź, płatność kartą
        :61:2603030303C250,00NTRFNONREF
        :86:Przelew od Świętosław Kręcisz
        :62F:C260303PLN1237,50
        -

        """

    static func mt940Names(_ bytes: [UInt8], _ table: SingleByteTable?) throws -> [String] {
        var names: [String] = []
        try MT940Parser(textEncoding: table).parse(.bytes(bytes, name: "wyciag.sta")) { event in
            if case .transaction(let t) = event { names.append([t.name, t.memo].compactMap { $0 }.joined(separator: " | ")) }
        }
        return names
    }

    @Test func mt940InTheNamedEncodingReadsRight() throws {
        let utf8 = try Self.mt940Names(Array(Self.mt940.utf8), nil)
        #expect(utf8.contains { $0.contains("Żabka Łódź, płatność kartą") }, "\(utf8)")
        let cp1250 = try OFXCharsetTests.encode(Self.mt940, "CP1250")
        #expect(String(validating: cp1250, as: UTF8.self) == nil)
        #expect(try Self.mt940Names(cp1250, SingleByteTable(label: "cp1250")) == utf8)
        #expect(try Self.mt940Names(try OFXCharsetTests.encode(Self.mt940, "ISO-8859-2"), SingleByteTable(label: "ISO-8859-2")) == utf8)
        // Without it: Windows-1252, as before (Ł is 0xA3, £ in Windows-1252).
        let guessed = try Self.mt940Names(cp1250, nil)
        #expect(guessed != utf8)
        #expect(guessed.contains { $0.contains("£ódŸ") }, "\(guessed)")
        // A UTF-8 file read with a named encoding is still UTF-8.
        #expect(try Self.mt940Names(Array(Self.mt940.utf8), SingleByteTable(label: "cp1250")) == utf8)
    }

    @Test func qifInTheNamedEncodingReadsRight() throws {
        let text = "!Account\nNКарта\nTCCard\n^\n!Type:CCard\nD03/02/2026\nT-450.00\nPПятёрочка Москва\nMПокупка\n^\n"
        func payees(_ bytes: [UInt8], _ table: SingleByteTable?) throws -> [String] {
            var names: [String] = []
            try QIFParser(dateOrder: .mdy, textEncoding: table).parse(.bytes(bytes, name: "export.qif")) { event in
                if case .transaction(let t) = event { names.append((t.name ?? "") + " | " + (t.memo ?? "")) }
            }
            return names
        }
        let expected = try payees(Array(text.utf8), nil)
        #expect(expected == ["Пятёрочка Москва | Покупка"])
        for (iconvName, label) in [("CP1251", "cp1251"), ("KOI8-R", "KOI8-R")] {
            let bytes = try OFXCharsetTests.encode(text, iconvName)
            #expect(try payees(bytes, SingleByteTable(label: label)) == expected, "\(label)")
            #expect(try payees(bytes, nil) != expected, "\(label) read as Windows-1252 is mojibake")
        }
    }
}
