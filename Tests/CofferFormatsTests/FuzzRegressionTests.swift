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

    /// The same crash from labels iconv handles but the bytes do not fit: windows-1252 has no 0x81, EBCDIC-US and
    /// UTF-32 do not fit ASCII text.
    @Test(arguments: [("windows-1252", [0x81] as [UInt8]), ("EBCDIC-US", []), ("UTF-32", []), ("UTF-7", [0xC3, 0xA4])])
    func camtUnsafeEncodingLabelsAreRefused(label: String, body: [UInt8]) throws {
        let input = StatementInput.bytes(Self.camt(#"<?xml version="1.0" encoding="\#(label)"?>"#, body: body),
                                         name: "enc.xml")
        let error = try #require(Self.outcome(input, CamtParser()))
        #expect(error.message.contains("expected a camt file in UTF-8"))
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
