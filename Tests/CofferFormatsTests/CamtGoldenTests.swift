import Foundation
import Testing
@testable import CofferFormats

/// Every sample in `feeds/camt` parses to exactly the events in `Tests/Golden/camt-events/<file>.events`
/// (kept out of feeds/ so that importing the folder finds only statements).
///
/// Run with `COFFER_UPDATE_GOLDEN=1` to rewrite the expected files after a deliberate change (then review the diff).
@Suite struct CamtGoldenTests {
    static let samples = [
        "de-musterbank-053-v02.xml", "nl-053-v08.xml", "intraday-052-v08.xml", "debit-notification-054-v02.xml",
        "two-accounts-053-v04.xml", "batch-053-v02.xml", "card-foreign-053-v06.xml", "not-reconciling-053-v02.xml",
    ]

    @Test(arguments: samples)
    func sampleMatchesExpected(_ name: String) throws {
        let dump = CamtTestSupport.dump(try CamtTestSupport.sample(name))
            .replacingOccurrences(of: CamtTestSupport.feeds.path + "/", with: "")
        let expectedURL = CamtTestSupport.feeds.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Golden/camt-events").appendingPathComponent(name + ".events")
        if ProcessInfo.processInfo.environment["COFFER_UPDATE_GOLDEN"] == "1" {
            try dump.write(to: expectedURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(dump == expected)
    }

    @Test func everySampleIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: CamtTestSupport.feeds.path)
            .filter { $0.hasSuffix(".xml") }.sorted()
        #expect(files == Self.samples.sorted())
    }
}
