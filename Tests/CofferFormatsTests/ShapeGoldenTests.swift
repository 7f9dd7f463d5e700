import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Every fixture in `Tests/Golden/ofx-shapes/` and `Tests/Golden/camt-shapes/` (the shapes real institutions
/// write: empty optional elements, unclosed aggregates, no account currency, batches, …) parses to the events in
/// `<fixture>.events` beside it, or fails with the located error written there.
///
/// After a deliberate change, rewrite them with `SHAPES_UPDATE_GOLDEN=1 swift test --filter ShapeGoldenTests`
/// and review the diff. What each fixture is and why it is there: the README.md in each folder.
@Suite struct ShapeGoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static func fixtures(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { name in
            ![".md", ".tsv", ".events"].contains { name.hasSuffix($0) }
        }.sorted().map { folder + "/" + $0 }
    }

    static let ofx = fixtures("ofx-shapes")
    static let camt = fixtures("camt-shapes")

    @Test func everyClassHasFixtures() {
        for prefix in ["empty-balance", "empty-text", "empty-curdef", "unclosed", "no-account", "wrapper", "garbage"] {
            #expect(Self.ofx.contains { $0.hasPrefix("ofx-shapes/" + prefix) }, "no OFX fixture for \(prefix)")
        }
        for prefix in ["no-acct-ccy", "multi-ccy", "no-dates", "batch", "v01", "empty-optional"] {
            #expect(Self.camt.contains { $0.hasPrefix("camt-shapes/" + prefix) }, "no camt fixture for \(prefix)")
        }
    }

    @Test(arguments: ofx + camt) func matchesExpected(_ fixture: String) throws {
        let url = Self.root.appendingPathComponent(fixture)
        let input = StatementInput.file(url.path)
        let rendered: String
        do {
            let parser: any StatementParser = fixture.hasPrefix("camt") ? CamtParser() : OFXParser()
            var events: [StatementEvent] = []
            try parser.parse(input) { events.append($0) }
            rendered = events.map(OFXGoldenTests.render).joined(separator: "\n") + "\n"
        } catch let error as CofferError {
            let at = error.location.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.element ?? "-")" } ?? "-"
            rendered = "error \(error.code) \(error.message) at=\(at)\n"
        }
        let expectedURL = URL(fileURLWithPath: url.path + ".events")
        if ProcessInfo.processInfo.environment["SHAPES_UPDATE_GOLDEN"] == "1" {
            try rendered.write(to: expectedURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(rendered == expected)
    }
}
