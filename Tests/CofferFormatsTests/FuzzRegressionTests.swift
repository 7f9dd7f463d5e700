import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Inputs the fuzzers (`scripts/fuzz.sh`, docs/fuzzing.md) found crashing or hanging a parser, kept so they never
/// come back: each must parse normally or throw a `CofferError` located in its file.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/fuzz-regressions")

    /// Runs `parse`; a thrown error must be a `CofferError` naming `input`'s file and a line or element.
    @discardableResult
    static func outcome(_ input: StatementInput, _ parser: some StatementParser) -> CofferError? {
        do {
            try parser.parse(input) { _ in }
            return nil
        } catch let error as CofferError {
            #expect(error.location?.file == input.name, "\(error)")
            #expect(error.location?.line != nil || error.location?.element != nil, "\(error)")
            return error
        } catch {
            Issue.record("expected a CofferError, got \(error)")
            return nil
        }
    }

    static func camt(_ prolog: String, body: [UInt8] = Array("A".utf8)) -> [UInt8] {
        Array(prolog.utf8) + Array(#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">"#.utf8)
            + Array("<BkToCstmrStmt><GrpHdr><MsgId>".utf8) + body
            + Array("</MsgId></GrpHdr></BkToCstmrStmt></Document>".utf8)
    }

    // MARK: camt — libxml2 2.9 crashes (NULL dereference in xmlSwitchToEncoding) when an iconv conversion fails.

    /// Found by CamtFuzz: a sample whose declaration says UTF-7 over UTF-8 bytes (`ä`) — a SEGV inside libxml2.
    @Test func camtUTF7DeclarationIsRefused() throws {
        let path = Self.directory.appendingPathComponent("camt-utf7-declaration.xml").path
        let error = try #require(Self.outcome(.file(path), CamtParser()))
        #expect(error.code == .badInput)
        #expect(error.message.contains("UTF-7"))
        #expect(error.location?.line == 1)
    }

    /// The same crash from labels iconv handles but the bytes do not fit. libxml2 is now only ever given UTF-8
    /// (`CamtProlog.conversion`): windows-1252 (whose 0x81 Coffer reads as U+0081, as browsers do) is converted by
    /// Coffer, and a UTF-32 label over ASCII bytes is a mislabelled UTF-8 file.
    @Test(arguments: [("windows-1252", [0x81] as [UInt8]), ("UTF-32", [])])
    func camtLabelsLibxml2CouldNotConvertAreRead(label: String, body: [UInt8]) throws {
        let input = StatementInput.bytes(Self.camt(#"<?xml version="1.0" encoding="\#(label)"?>"#, body: body),
                                         name: "enc.xml")
        #expect(Self.outcome(input, CamtParser()) == nil)
    }

    /// Encodings that do not extend ASCII stay refused, naming the label, before libxml2 sees a byte.
    @Test(arguments: [("EBCDIC-US", [] as [UInt8]), ("UTF-7", [0xC3, 0xA4]), ("X-NO-SUCH-ENCODING", [])])
    func camtEncodingsThatAreNotASCIISupersetsAreRefused(label: String, body: [UInt8]) throws {
        let input = StatementInput.bytes(Self.camt(#"<?xml version="1.0" encoding="\#(label)"?>"#, body: body),
                                         name: "enc.xml")
        let error = try #require(Self.outcome(input, CamtParser()))
        #expect(error.message.contains("expected UTF-8 or a single-byte encoding"), "\(error)")
        #expect(error.message.contains(label))
        #expect(error.location?.line == 1)
    }

    /// Found by CamtFuzz after NUL padding was let through: `3C 00 00 00 00 09` is "<" and padding to the byte
    /// counter, but libxml2 reads UCS-4 from its first four bytes and crashed switching to it. A NUL in the first
    /// four bytes is refused whatever follows; padding after them still parses (`CamtTrailingBytesTests`).
    @Test(arguments: [[0x3C, 0, 0, 0, 0, 0x09], [0x3C, 0x3F, 0, 0], [0x3C, 0, 0x3F, 0], [0, 0, 0, 0x3C]] as [[UInt8]])
    func camtZeroBytesWhereLibxml2GuessesAnEncodingAreRefused(bytes: [UInt8]) throws {
        let error = try #require(Self.outcome(.bytes(bytes, name: "nul.xml"), CamtParser()))
        #expect(error.message.contains("NUL"), "\(error)")
        let path = Self.directory.appendingPathComponent("camt-nul-after-first-byte.xml").path
        #expect(Self.outcome(.file(path), CamtParser())?.message.contains("NUL") == true)
    }

    /// UTF-16 text (a NUL in every ASCII character) is refused before libxml2 guesses its encoding.
    @Test func camtUTF16TextIsRefused() throws {
        let utf16 = Array(#"<?xml version="1.0"?><Document/>"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let error = try #require(Self.outcome(.bytes(utf16, name: "u16.xml"), CamtParser()))
        #expect(error.message.contains("NUL"))
    }

    /// Labels libxml2 decodes itself still parse.
    @Test(arguments: ["UTF-8", "utf-8", "ISO-8859-1", "US-ASCII"])
    func camtSafeEncodingLabelsParse(label: String) throws {
        let input = StatementInput.bytes(Self.camt(#"<?xml version='1.0' encoding = '\#(label)'?>"#), name: "ok.xml")
        #expect(Self.outcome(input, CamtParser()) == nil)
    }
}

/// A crash inside swift-corelibs-foundation's `XMLParser` (camt's parser until issue 16), kept as a regression for
/// the libxml2 SAX2 reader that replaced it.
@Suite struct CamtStreamRegressionTests {
    /// Found by CamtFuzz: `<?xr?>` (a processing instruction without data) made XMLParser call strlen(NULL).
    @Test func emptyProcessingInstructionDoesNotCrash() throws {
        let path = FuzzRegressionTests.directory.appendingPathComponent("camt-empty-processing-instruction.xml").path
        let error = try #require(FuzzRegressionTests.outcome(.file(path), CamtParser()))
        #expect(error.code == .badInput)
    }

    /// The same instruction inside a camt document, in the prolog and between elements: the file still parses.
    @Test func emptyProcessingInstructionsInsideADocumentParse() throws {
        let bytes = Array("<?xml version=\"1.0\"?><?pi?>".utf8)
            + FuzzRegressionTests.camt("<?a?>", body: Array("A<?b?>B".utf8))
        #expect(FuzzRegressionTests.outcome(.bytes(bytes, name: "pi.xml"), CamtParser()) == nil)
    }
}
