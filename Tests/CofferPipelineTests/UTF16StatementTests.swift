import CofferPipeline
import Foundation
import Testing

/// Statements saved as UTF-16 ("Unicode" text on Windows: Notepad, PowerShell 5's `>`, Excel's Unicode Text)
/// import exactly as the UTF-8 files they were saved from.
@Suite struct UTF16StatementTests {
    /// Every sample: OFX, camt, MT940 and QIF through the conversion in front of their parsers, CSV through its
    /// profile's decoding.
    static let samples = GoldenFeedTests.samples

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> Data {
        var out = Data()
        for unit in ((bom ? "\u{FEFF}" : "") + text).utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            out.append(contentsOf: bigEndian ? [high, low] : [low, high])
        }
        return out
    }

    /// The sample's text: UTF-8, or the Windows-1252 an OFX 1 header may declare.
    static func text(of sample: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/" + sample))
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .windowsCP1252) else {
            throw CocoaError(.fileReadInapplicableStringEncoding)
        }
        return text
    }

    @Test func thereAreSamplesOfEachTextFormat() {
        for suffix in [".ofx", ".qfx", ".xml", ".sta", ".qif", ".csv"] {
            #expect(Self.samples.contains { $0.lowercased().hasSuffix(suffix) }, "\(suffix)")
        }
    }

    /// The invariant: a sample saved as UTF-16, in either byte order, with or without a byte order mark, imports
    /// to the same report, accounts, balances and transactions as the sample itself.
    ///
    /// The reference is the sample's text written as UTF-8 without a byte order mark: columns in messages count
    /// bytes of the line as read, and a UTF-8 file's BOM counts three there, where a UTF-16 one is no text at all.
    @Test(arguments: samples)
    func aSampleSavedAsUTF16ImportsTheSame(_ sample: String) async throws {
        let text = try Self.text(of: sample)
        func write(_ data: Data) throws -> String {
            let root = NSTemporaryDirectory() + "coffer-utf16-tests/" + UUID().uuidString
            let path = root + "/" + sample
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
            return root
        }
        let utf8 = try write(Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: utf8) }
        let expected = try await GoldenFeedTests.snapshot(of: sample, root: utf8)
        #expect(expected.status == "imported")
        for (bigEndian, bom) in [(false, true), (true, true), (false, false), (true, false)] {
            let root = try write(Self.utf16(text, bigEndian: bigEndian, bom: bom))
            defer { try? FileManager.default.removeItem(atPath: root) }
            let actual = try await GoldenFeedTests.snapshot(of: sample, root: root)
            #expect(actual == expected, "\(sample) as UTF-16\(bigEndian ? "BE" : "LE")\(bom ? " with a BOM" : ""): \(actual.warnings)")
        }
    }

    /// A statement and its UTF-16 copy are two files holding the same transactions: the copy imports with nothing
    /// new, changed or deleted.
    @Test(arguments: ["feeds/camt/de-musterbank-053-v02.xml", "feeds/ofx/bank-ofx1-sgml.ofx", "feeds/ofx/creditcard-ofx2.qfx",
                      "feeds/mt940/sparkasse-giro-2026-03.sta"])
    func theUTF16CopyOfAnImportedStatementChangesNothing(_ sample: String) async throws {
        let bench = try Workbench()
        let first = try await bench.importer.importFile(repositoryRoot + "/" + sample)
        #expect(first.status == .imported && first.inserted > 0)
        let copy = bench.folder + "/copy-" + (sample as NSString).lastPathComponent
        try Self.utf16(try Self.text(of: sample), bigEndian: false, bom: true).write(to: URL(fileURLWithPath: copy))
        let second = try await bench.importer.importFile(copy)
        #expect(second.status == .imported, "\(second.warnings)")
        #expect((second.inserted, second.updated, second.deleted) == (0, 0, 0), "\(sample)")
        #expect(second.unchanged == first.inserted)
    }

    func failure(_ bytes: [UInt8], name: String) throws -> String {
        let identifier = FormatIdentifier(profiles: try CSVProfileSet.load(directory: repositoryRoot + "/config/profiles"))
        do {
            let format = try identifier.identify(.bytes(bytes, name: name))
            return "identified as \(format.name)"
        } catch {
            return "\(error)"
        }
    }

    @Test func otherUnicodeTextIsNamedForWhatItIs() throws {
        // UTF-32 is named, with the conversion to make, rather than called binary data.
        let utf32: [UInt8] = [0xFF, 0xFE, 0, 0] + "<?xml".unicodeScalars.flatMap { [UInt8($0.value), 0, 0, 0] as [UInt8] }
        let refusal = try failure(utf32, name: "statement.xml")
        #expect(refusal.contains("UTF-32LE text, which Coffer does not read"), "\(refusal)")
        #expect(refusal.contains("iconv -f UTF-32LE -t UTF-8 'statement.xml'"), "\(refusal)")
        // UTF-16 that is no statement and no profile's CSV, with a BOM or without, asks for a profile.
        for bom in [true, false] {
            let csv = [UInt8](Self.utf16("Foo,Bar\n1,2\n", bigEndian: !bom, bom: bom))
            let named = try failure(csv, name: "export.csv")
            #expect(named.contains("UTF-16\(bom ? "LE" : "BE") text (an Excel 'Unicode text' export?) whose header no CSV profile"),
                    "\(named)")
        }
        // A UTF-16 statement is identified as what it is.
        let camt = #"<?xml version="1.0" encoding="UTF-16"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"></Document>"#
        #expect(try failure([UInt8](Self.utf16(camt, bigEndian: true, bom: true)), name: "s.xml") == "identified as camt.053.001.08")
        #expect(try failure([UInt8](Self.utf16(camt, bigEndian: false, bom: false)), name: "s.xml") == "identified as camt.053.001.08")
    }

    /// A folder import finds a UTF-16 MT940 statement saved as `.txt`, as it finds a UTF-8 one.
    @Test func aUTF16LineStatementInAFolderIsFound() throws {
        let root = NSTemporaryDirectory() + "coffer-utf16-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let mt940 = try Self.text(of: "feeds/mt940/sparkasse-giro-2026-03.sta")
        try Self.utf16(mt940, bigEndian: false, bom: true).write(to: URL(fileURLWithPath: root + "/umsaetze.txt"))
        try Self.utf16("just a note\n", bigEndian: false, bom: true).write(to: URL(fileURLWithPath: root + "/note.txt"))
        #expect(try Importer.expand([root]) == [root + "/umsaetze.txt"])
    }
}
