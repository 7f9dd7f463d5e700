import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Every MT940 sample in `feeds/mt940` and every fixture in `Tests/Golden/mt940-shapes` (the shapes banks really
/// write: envelopes, MT942, year ends, free-text `:86:`, CR line ends, pages, bad fields) parses to the events in
/// `<file>.events` beside the fixture (for samples: in `Tests/Golden/mt940-events`), or fails with the located error
/// written there. `COFFER_UPDATE_GOLDEN=1 swift test --filter MT940GoldenTests` rewrites them; review the diff.
@Suite struct MT940GoldenTests {
    static let shapes = LineFormatTestSupport.fixtures("Tests/Golden/mt940-shapes")
    static let samples = LineFormatTestSupport.fixtures("feeds/mt940")

    @Test(arguments: shapes) func shapeMatchesExpected(_ fixture: String) throws {
        let path = LineFormatTestSupport.root.appendingPathComponent(fixture).path
        let rendered = LineFormatTestSupport.render(MT940Parser(), .file(path))
            .replacingOccurrences(of: LineFormatTestSupport.root.path + "/", with: "")
        try LineFormatTestSupport.expectGolden(rendered, path: path)
    }

    @Test(arguments: samples) func sampleMatchesExpected(_ sample: String) throws {
        let path = LineFormatTestSupport.root.appendingPathComponent(sample).path
        let rendered = LineFormatTestSupport.render(MT940Parser(), .file(path))
            .replacingOccurrences(of: LineFormatTestSupport.root.path + "/", with: "")
        let golden = LineFormatTestSupport.root.appendingPathComponent("Tests/Golden/mt940-events")
            .appendingPathComponent((sample as NSString).lastPathComponent).path
        try LineFormatTestSupport.expectGolden(rendered, path: golden)
    }

    @Test func thereAreFixturesOfEveryShape() {
        #expect(!Self.samples.isEmpty)
        for prefix in ["envelope-942", "envelope-940", "year-end", "free-text", "cr-only", "not-reconciling", "pages", "bad-"] {
            #expect(Self.shapes.contains { $0.contains("/" + prefix) }, "no MT940 fixture for \(prefix)")
        }
    }
}

@Suite struct QIFGoldenTests {
    static let shapes = LineFormatTestSupport.fixtures("Tests/Golden/qif-shapes")
    static let samples = LineFormatTestSupport.fixtures("feeds/qif")

    @Test(arguments: shapes) func shapeMatchesExpected(_ fixture: String) throws {
        let path = LineFormatTestSupport.root.appendingPathComponent(fixture).path
        let rendered = LineFormatTestSupport.render(QIFParser(), .file(path))
            .replacingOccurrences(of: LineFormatTestSupport.root.path + "/", with: "")
        try LineFormatTestSupport.expectGolden(rendered, path: path)
    }

    @Test(arguments: samples) func sampleMatchesExpected(_ sample: String) throws {
        let path = LineFormatTestSupport.root.appendingPathComponent(sample).path
        let rendered = LineFormatTestSupport.render(QIFParser(), .file(path))
            .replacingOccurrences(of: LineFormatTestSupport.root.path + "/", with: "")
        let golden = LineFormatTestSupport.root.appendingPathComponent("Tests/Golden/qif-events")
            .appendingPathComponent((sample as NSString).lastPathComponent).path
        try LineFormatTestSupport.expectGolden(rendered, path: golden)
    }
}
