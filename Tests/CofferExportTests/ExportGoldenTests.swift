@testable import CofferExport
import CofferModel
import Foundation
import Testing

/// Each format's text for the hand-made store, against `Tests/Golden/export/`. After a deliberate change,
/// `COFFER_UPDATE_GOLDEN=1 swift test --filter ExportGoldenTests` rewrites them: review the diff.
/// (`scripts/check-export.sh` runs hledger, ledger and bean-check on these files and on whole stores.)
@Suite struct ExportGoldenTests {
    static let cases: [(file: String, format: ExportFormat, pending: Bool)] = [
        ("small.hledger", .hledger, false), ("small.ledger", .ledger, false), ("small.beancount", .beancount, false),
        ("small.csv", .csv, false), ("small.ofx", .ofx, false), ("small-pending.hledger", .hledger, true),
        ("small-pending.beancount", .beancount, true),
    ]

    @Test(arguments: cases.indices)
    func formatText(_ index: Int) throws {
        let (file, format, pending) = Self.cases[index]
        let output = ExportFixture.render(format, includePending: pending)
        let path = ExportFixture.golden + "/" + file
        if ProcessInfo.processInfo.environment["COFFER_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: ExportFixture.golden, withIntermediateDirectories: true)
            try output.text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(output.text == expected, "\(file) differs from the golden; COFFER_UPDATE_GOLDEN=1 rewrites it")
    }
}
