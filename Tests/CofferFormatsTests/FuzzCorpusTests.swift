import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// The corpora `scripts/fuzz.sh` saved for the MT940 and QIF parsers (`FUZZ_SAVE_CORPUS=1`, minimized with
/// libFuzzer's `-merge=1`), replayed: every input must parse or throw a `CofferError` that names its file and a line.
/// A QIF input's first byte picks the date order (none, `dmy`, `mdy`), as in `Fuzz/QIFFuzz`.
@Suite struct FuzzCorpusTests {
    static let directory = FuzzRegressionTests.directory.deletingLastPathComponent().appendingPathComponent("fuzz-corpus")

    static func inputs(_ target: String) -> [String] {
        let folder = directory.appendingPathComponent(target).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    @Test func corporaWereSaved() {
        #expect(Self.inputs("mt940").count > 10)
        #expect(Self.inputs("qif").count > 10)
    }

    @Test func mt940CorpusParsesOrFailsLocated() throws {
        for path in Self.inputs("mt940") {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            _ = MT940Parser.sniff(Array(bytes.prefix(4096)))
            FuzzRegressionTests.outcome(.bytes(bytes, name: path), MT940Parser())
        }
    }

    @Test func qifCorpusParsesOrFailsLocated() throws {
        for path in Self.inputs("qif") {
            let all = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            guard let first = all.first else { continue }
            let order: QIFDateOrder? = [nil, .dmy, .mdy][Int(first) % 3]
            let bytes = Array(all.dropFirst())
            _ = QIFParser.sniff(Array(bytes.prefix(4096)))
            FuzzRegressionTests.outcome(.bytes(bytes, name: path), QIFParser(dateOrder: order))
        }
    }
}
