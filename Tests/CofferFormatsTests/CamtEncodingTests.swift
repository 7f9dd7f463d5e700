import CofferModel
import CofferTestSupport
import Foundation
import Testing
@testable import CofferFormats

/// camt files in the encodings banks really write them in: ISO 20022 says UTF-8, but ABN AMRO and ING have sent
/// ISO-8859-15, some German banks ISO-8859-1 or Windows-1252, declared or not. libxml2 is only ever given UTF-8:
/// Coffer converts a declared 8-bit encoding itself, and reads undeclared 8-bit bytes as Windows-1252 with a warning.
@Suite struct CamtEncodingTests {
    /// `text` in ISO-8859-15, or nil when a character has no byte there.
    static func latin9(_ text: String) -> [UInt8]? {
        let special: [Unicode.Scalar: UInt8] = ["€": 0xA4, "Š": 0xA6, "š": 0xA8, "Ž": 0xB4, "ž": 0xB8, "Œ": 0xBC, "œ": 0xBD, "Ÿ": 0xBE]
        let replaced: Set<UInt32> = [0xA4, 0xA6, 0xA8, 0xB4, 0xB8, 0xBC, 0xBD, 0xBE]
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            if let byte = special[scalar] { out.append(byte); continue }
            guard scalar.value < 0x100, !replaced.contains(scalar.value) else { return nil }
            out.append(UInt8(scalar.value))
        }
        return out
    }

    static func events(_ bytes: [UInt8], chunkSize: Int = 1 << 20) throws -> [StatementEvent] {
        var out: [StatementEvent] = []
        try CamtParser(chunkSize: chunkSize).parse(.bytes(bytes, name: "enc.xml")) { out.append($0) }
        return out
    }

    static func samples() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: CamtTestSupport.feeds.path).filter { $0.hasSuffix(".xml") }.sorted()
            .map { ($0, try String(contentsOf: CamtTestSupport.feeds.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The same text re-declared: each sample with its declaration naming the encoding its bytes are in reads to
    /// exactly the UTF-8 sample's events, at any chunk size.
    @Test func everySampleReadsTheSameInADeclaredEightBitEncoding() throws {
        var compared = 0
        for (name, text) in try Self.samples() {
            let expected = CamtTestSupport.dump(try CamtTestSupport.sample(name))
            let body = text.replacingOccurrences(of: #"<?xml version="1.0" encoding="UTF-8"?>"#, with: "")
            let encodings: [(String, [UInt8]?)] = [
                ("ISO-8859-15", Self.latin9(body)),
                ("windows-1252", body.data(using: .windowsCP1252).map { [UInt8]($0) }),
                ("ISO-8859-1", body.data(using: .isoLatin1).map { [UInt8]($0) }),
                ("latin1", body.data(using: .isoLatin1).map { [UInt8]($0) }),
            ]
            for (label, encoded) in encodings {
                guard let encoded else { continue }
                let declared = Array("<?xml version=\"1.0\" encoding=\"\(label)\"?>".utf8) + encoded
                for chunkSize in [1 << 20, 5] {
                    let events = try Self.events(declared, chunkSize: chunkSize)
                    #expect(CamtTestSupport.dump(events) == expected, "\(name) in \(label), chunks of \(chunkSize)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 40)
    }

    /// Undeclared Windows-1252 or ISO-8859-15 bytes (the declaration says UTF-8, or there is none): read, each
    /// invalid byte as Windows-1252, with one warning naming the first one's line.
    @Test func undeclaredEightBitBytesAreReadAsWindows1252WithAWarning() throws {
        let name = "de-musterbank-053-v02.xml"
        let text = try String(contentsOf: CamtTestSupport.feeds.appendingPathComponent(name), encoding: .utf8)
        let expected = CamtTestSupport.transactions(try CamtTestSupport.sample(name))
        let bytes = [UInt8](try #require(text.data(using: .windowsCP1252)))
        let firstLine = text.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.unicodeScalars.contains { $0.value >= 0x80 } }.map { $0 + 1 }
        for chunkSize in [1 << 20, 3] {
            let events = try Self.events(bytes, chunkSize: chunkSize)
            let read = CamtTestSupport.transactions(events)
            #expect(read.map(\.name) == expected.map(\.name))
            #expect(read.map(\.memo) == expected.map(\.memo))
            let warnings = CamtTestSupport.warnings(events).filter { $0.message.contains("not valid UTF-8") }
            #expect(warnings.count == 1)
            #expect(warnings.first?.location.line == firstLine)
            #expect(warnings.first?.message.contains("read as Windows-1252") == true)
        }
        // A UTF-8 file has no such warning.
        #expect(CamtTestSupport.warnings(try CamtTestSupport.sample(name)).allSatisfy { !$0.message.contains("UTF-8") })
    }

    /// A declaration saying UTF-16 over bytes that are not UTF-16 (an editor re-saved the file as UTF-8 and kept
    /// the declaration) is a UTF-8 file.
    @Test func aUTF16LabelOnUTF8BytesReadsAsUTF8() throws {
        for (name, text) in try Self.samples() where text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#) {
            let relabelled = text.replacingOccurrences(of: #"encoding="UTF-8""#, with: #"encoding="UTF-16""#)
            #expect(CamtTestSupport.dump(try Self.events(Array(relabelled.utf8))) == CamtTestSupport.dump(try CamtTestSupport.sample(name)),
                    "\(name)")
        }
    }

    /// A byte the declared encoding does not define fails the file with its line; so does an undeclared 8-bit
    /// byte that first appears after the 64 KiB the encoding is judged by, with a message saying what to do.
    @Test func bytesTheEncodingCannotReadAreLocatedErrors() throws {
        // ISO-8859-3 leaves 0xA5 undefined.
        let undefined = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-3\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">\n<X>".utf8)
            + [0xA5] + Array("</X></Document>".utf8)
        let error = try #require(throws: CofferError.self) { try Self.events(undefined) }
        #expect(error.message.contains("found byte 0xA5, which ISO-8859-3 does not define"), "\(error)")
        #expect(error.location?.line == 3)
        // Valid UTF-8 for 70 KB (a long comment), then a Windows-1252 'ü'.
        let text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><!--"#
            + String(repeating: "x", count: 70_000) + "-->\n<GrpHdr><MsgId>M"
        let late = Array(text.utf8) + [0xFC] + Array("</MsgId></GrpHdr></BkToCstmrStmt></Document>".utf8)
        let lateError = try #require(throws: CofferError.self) { try Self.events(late) }
        #expect(lateError.message.contains("expected UTF-8 text, found a byte that is not part of a UTF-8 character"), "\(lateError)")
        #expect(lateError.location?.line == 3)
        #expect(lateError.location?.element?.hasSuffix("MsgId") == true)
    }

    /// The repairing reader: valid UTF-8 passes unchanged and uncopied in meaning, any input comes out valid UTF-8,
    /// and where chunks are cut never changes the result.
    @Test func theRepairingReaderIsIndependentOfChunkCuts() throws {
        let pieces: [[UInt8]] = [Array("a".utf8), Array("\n".utf8), Array("ü".utf8), Array("€".utf8), Array("😀".utf8),
                                 [0xFC], [0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xFF], [0xC0, 0xAF]]
        for seed in UInt64(1)...400 {
            var random = SplitMix64(seed: seed)
            let bytes = (0..<Int.random(in: 0...40, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            var whole = UTF8Repairer()
            let once = whole.convert(bytes, atEnd: true)
            var chunked = UTF8Repairer()
            var out: [UInt8] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...5, using: &random))
                out += chunked.convert(Array(bytes[start..<end]))
                start = end
            }
            out += chunked.convert([], atEnd: true)
            #expect(out == once, "seed \(seed): \(bytes)")
            #expect(String(validating: once, as: UTF8.self) != nil, "seed \(seed)")
            #expect((whole.firstRepair == nil) == (String(validating: bytes, as: UTF8.self) != nil), "seed \(seed)")
            if String(validating: bytes, as: UTF8.self) != nil { #expect(once == bytes, "seed \(seed)") }
            #expect(chunked.firstRepair?.offset == whole.firstRepair?.offset, "seed \(seed)")
            #expect(chunked.firstRepair?.line == whole.firstRepair?.line, "seed \(seed)")
        }
    }
}
