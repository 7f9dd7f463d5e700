import CofferModel
import CofferTestSupport
import Foundation
import Testing
@testable import CofferFormats

/// UTF-16 statements ("Unicode" text on Windows): how they are recognised, and the conversion to UTF-8 that every
/// parser reads them through.
@Suite struct UTF16TextTests {
    /// `text` as UTF-16 bytes in `form`, with or without a byte order mark.
    static func encode(_ text: String, _ form: UTF16Text.Form, bom: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for unit in ((bom ? "\u{FEFF}" : "") + text).utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            out += form == .littleEndian ? [low, high] : [high, low]
        }
        return out
    }

    /// Converts `bytes` in chunks of the sizes `sizes` cycles through.
    static func convert(_ bytes: [UInt8], _ form: UTF16Text.Form, sizes: [Int]) throws -> [UInt8] {
        var transcoder = UTF16Transcoder(form: form, file: "t.txt")
        var out: [UInt8] = []
        var start = 0
        var n = 0
        while start < bytes.count {
            let end = min(bytes.count, start + sizes[n % sizes.count])
            out += try transcoder.transcode(Array(bytes[start..<end]))
            start = end
            n += 1
        }
        try transcoder.finish()
        return out
    }

    static func failure(_ bytes: [UInt8], _ form: UTF16Text.Form) -> CofferError? {
        do {
            _ = try convert(bytes, form, sizes: [3, 1, 2])
            return nil
        } catch {
            return error as? CofferError
        }
    }

    @Test func theFormIsReadFromTheByteOrderMarkOrTheFirstCharacters() {
        #expect(UTF16Text.form(of: [0xFF, 0xFE, 0x3C, 0x00]) == .littleEndian)
        #expect(UTF16Text.form(of: [0xFE, 0xFF, 0x00, 0x3C]) == .bigEndian)
        #expect(UTF16Text.form(of: [0xFF, 0xFE]) == .littleEndian)
        #expect(UTF16Text.form(of: Array("<\0?\0".utf8)) == .littleEndian)  // XML 1.0 appendix F
        #expect(UTF16Text.form(of: Array("\0<\0?".utf8)) == .bigEndian)
        #expect(UTF16Text.form(of: Array("O\0F\0".utf8)) == .littleEndian)  // OFXHEADER
        #expect(UTF16Text.form(of: Array(":\u{0}2\u{0}".utf8)) == .littleEndian)  // MT940's :20:
        // UTF-8, 8-bit text, UTF-32 and binary data are not UTF-16.
        #expect(UTF16Text.form(of: Array("<?xml".utf8)) == nil)
        #expect(UTF16Text.form(of: [0xEF, 0xBB, 0xBF, 0x3C]) == nil)
        #expect(UTF16Text.form(of: [0xFF, 0xFE, 0x00, 0x00]) == nil)
        #expect(UTF16Text.form(of: [0x3C, 0x00, 0x00, 0x00]) == nil)
        #expect(UTF16Text.form(of: [0x00, 0x00, 0x00, 0x00]) == nil)
        #expect(UTF16Text.form(of: [0x89, 0x00, 0x50, 0x00]) == nil)
        #expect(UTF16Text.utf32Label(of: [0xFF, 0xFE, 0x00, 0x00]) == "UTF-32LE")
        #expect(UTF16Text.utf32Label(of: [0x00, 0x00, 0xFE, 0xFF]) == "UTF-32BE")
        #expect(UTF16Text.utf32Label(of: [0x3C, 0x00, 0x00, 0x00]) == "UTF-32LE")
        #expect(UTF16Text.utf32Label(of: [0xFF, 0xFE, 0x3C, 0x00]) == nil)
    }

    /// Any text, in either byte order, with or without a BOM, cut into chunks anywhere (inside a code unit or a
    /// surrogate pair), converts to exactly its UTF-8 bytes.
    @Test func anyTextCutAnywhereConvertsToItsUTF8() throws {
        let alphabet: [Character] = ["a", "Z", "0", " ", "\n", "\r\n", "<", "&", "é", "ß", "€", "ø", "中", "\u{0}",
                                     "😀", "𝄞", "\u{FFFD}", "\u{FEFF}", "\u{10FFFF}", "\u{D7FF}", "\u{E000}"]
        for seed in UInt64(1)...400 {
            var random = SplitMix64(seed: seed)
            let text = String((0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let form: UTF16Text.Form = Bool.random(using: &random) ? .littleEndian : .bigEndian
            let bom = Bool.random(using: &random)
            let sizes = (0..<4).map { _ in Int.random(in: 1...9, using: &random) }
            let converted = try Self.convert(Self.encode(text, form, bom: bom), form, sizes: sizes)
            // A leading U+FEFF is a byte order mark, dropped; any after it is text.
            let expected = !bom && text.unicodeScalars.first == "\u{FEFF}" ? Array(text.utf8.dropFirst(3)) : Array(text.utf8)
            #expect(converted == expected, "seed \(seed): \(text.debugDescription) \(form) bom \(bom) chunks \(sizes)")
        }
    }

    @Test func textThatIsNotUTF16IsRefusedWithItsLineAndByte() throws {
        // A lone high surrogate on line 2, followed by a letter.
        var bytes = Self.encode("ab\ncd", .littleEndian, bom: true) + [0x3D, 0xD8] + Self.encode("x", .littleEndian, bom: false)
        var error = try #require(Self.failure(bytes, .littleEndian))
        #expect(error.location?.line == 2)
        #expect(error.description.contains("expected UTF-16LE text"), "\(error)")
        #expect(error.description.contains("a high surrogate 0xD83D not followed by a low one at byte 12"), "\(error)")
        // A low surrogate alone.
        bytes = Self.encode("ab", .bigEndian, bom: false) + [0xDC, 0x00]
        error = try #require(Self.failure(bytes, .bigEndian))
        #expect(error.description.contains("a low surrogate 0xDC00 without a high one before it at byte 4"), "\(error)")
        // Cut short: half a code unit, or a pair's first half.
        error = try #require(Self.failure(Self.encode("abc", .littleEndian, bom: true).dropLast(), .littleEndian))
        #expect(error.description.contains("an odd number of bytes"), "\(error)")
        error = try #require(Self.failure(Self.encode("ab😀", .bigEndian, bom: true).dropLast(2), .bigEndian))
        #expect(error.description.contains("a lone high surrogate 0xD83D at the end of the file"), "\(error)")
        #expect(error.location?.file == "t.txt")
    }

    /// Every camt sample read as UTF-16 in either order, with or without a BOM, in chunks of any size, gives the
    /// same events as the UTF-8 file, line numbers included.
    @Test func everyCamtSampleReadsTheSameAsUTF16() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: CamtTestSupport.feeds.path).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(names.count >= 8)
        for name in names {
            let url = CamtTestSupport.feeds.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            let expected = CamtTestSupport.dump(try CamtTestSupport.sample(name))
            for form in [UTF16Text.Form.littleEndian, .bigEndian] {
                for bom in [true, false] {
                    for chunkSize in [1 << 20, 7] {
                        let input = StatementInput.bytes(Self.encode(text, form, bom: bom), name: name)
                        var events: [StatementEvent] = []
                        try UTF16StatementParser(form: form, inner: CamtParser(chunkSize: chunkSize)).parse(input) { events.append($0) }
                        #expect(CamtTestSupport.dump(events) == expected, "\(name) \(form) bom \(bom) chunks \(chunkSize)")
                    }
                }
            }
        }
    }

    /// The declaration may name the file's encoding any way (or not at all), and even wrongly: the byte order mark
    /// decided how the bytes were read, as XML 1.0 appendix F has it. Text outside the Basic Multilingual Plane survives.
    @Test func aUTF16CamtReadsWhateverItsDeclarationSays() throws {
        for declaration in [#"<?xml version="1.0" encoding="UTF-16"?>"#, #"<?xml version="1.0" encoding="utf-16le"?>"#,
                            #"<?xml version='1.0'?>"#, "", #"<?xml version="1.0" encoding="ISO-8859-1"?>"#] {
            let text = declaration + "\n" + CamtSampleText.statement(remittance: "Café ☕ 𝄞 Grüße")
            let input = StatementInput.bytes(Self.encode(text, .littleEndian, bom: true), name: "u.xml")
            var events: [StatementEvent] = []
            try UTF16StatementParser(form: .littleEndian, inner: CamtParser()).parse(input) { events.append($0) }
            let transactions = CamtTestSupport.transactions(events)
            #expect(transactions.count == 1, "\(declaration)")
            let read = transactions.map { [$0.name, $0.memo].compactMap { $0 }.joined(separator: " ") }.joined()
            #expect(read.contains("Café ☕ 𝄞 Grüße"), "\(declaration): \(read)")
        }
    }

    /// A UTF-16 camt file cut short or broken is still a located error, and libxml2 never sees an encoding it
    /// would convert itself.
    @Test func aBrokenUTF16CamtIsALocatedError() throws {
        let text = #"<?xml version="1.0" encoding="UTF-16"?>"# + "\n" + CamtSampleText.statement(remittance: "x")
        let whole = Self.encode(text, .bigEndian, bom: true)
        func failure(_ bytes: [UInt8]) -> String {
            do {
                try UTF16StatementParser(form: .bigEndian, inner: CamtParser()).parse(.bytes(bytes, name: "cut.xml")) { _ in }
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        let cutInHalf = failure(Array(whole.prefix(whole.count / 2)))
        #expect(cutInHalf.contains("cut.xml"), "\(cutInHalf)")
        #expect(cutInHalf.contains("truncated") || cutInHalf.contains("expected"), "\(cutInHalf)")
        let oddByte = failure(Array(whole.dropLast()))
        #expect(oddByte.contains("expected UTF-16BE text") && oddByte.contains("an odd number of bytes"), "\(oddByte)")
        var surrogate = whole
        let at = whole.count / 2 & ~1
        surrogate[at] = 0xDB
        surrogate[at + 1] = 0x00
        let broken = failure(surrogate)
        #expect(broken.contains("expected UTF-16BE text") && broken.contains("surrogate"), "\(broken)")
        #expect(broken.contains("cut.xml:"), "\(broken)")
    }
}

/// A one-entry camt.053 document for the encoding tests.
enum CamtSampleText {
    static func statement(remittance: String) -> String {
        """
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
        <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-03-31T18:00:00</CreDtTm></GrpHdr>
        <Stmt><Id>S1</Id><CreDtTm>2026-03-31T18:00:00</CreDtTm>
        <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
        <Ntry><Amt Ccy="EUR">12.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-03-02</Dt></BookgDt><ValDt><Dt>2026-03-02</Dt></ValDt><AcctSvcrRef>R1</AcctSvcrRef>
        <NtryDtls><TxDtls><RmtInf><Ustrd>\(remittance)</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
        </Stmt></BkToCstmrStmt></Document>
        """
    }
}
