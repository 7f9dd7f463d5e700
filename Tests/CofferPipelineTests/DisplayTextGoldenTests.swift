import CofferPipeline
import Foundation
import Testing

/// The display text and merchant `DescriptionCleaner` makes of raw bank texts from many banks and countries
/// (Tests/Golden/display-text/display-text.tsv, written for this project): processor prefixes, store numbers, card
/// numbers, terminal ids and reference noise go; counters ("(5 of 12)", "5/12"), contract, invoice, policy and
/// mandate numbers stay. Every mismatch is listed at once.
///
/// The file: one case a line, `raw<TAB>display<TAB>merchant` (`-` for no merchant); `#` starts a comment line.
/// `DISPLAY_TEXT_PRINT=1` prints what the cleaner makes of every raw text in the same form.
@Suite struct DisplayTextGoldenTests {
    static let path = repositoryRoot + "/Tests/Golden/display-text/display-text.tsv"

    struct Case {
        let line: Int
        let raw: String
        let display: String
        let merchant: String?
    }

    static func cases() throws -> [Case] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var cases: [Case] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else {
                Issue.record("display-text.tsv:\(index + 1): expected raw<TAB>display<TAB>merchant, found \(fields.count) fields")
                continue
            }
            cases.append(Case(line: index + 1, raw: fields[0], display: fields[1], merchant: fields[2] == "-" ? nil : fields[2]))
        }
        return cases
    }

    @Test func everyRawTextGetsItsExpectedDisplayTextAndMerchant() throws {
        let cleaner = DescriptionCleaner()
        let cases = try Self.cases()
        #expect(cases.count >= 60)
        if ProcessInfo.processInfo.environment["DISPLAY_TEXT_PRINT"] != nil {
            for c in cases {
                let got = cleaner.clean(c.raw)
                print("\(c.raw)\t\(got.display)\t\(got.merchant ?? "-")")
            }
        }
        var mismatches: [String] = []
        for c in cases {
            let got = cleaner.clean(c.raw)
            if got.display != c.display || got.merchant != c.merchant {
                mismatches.append("line \(c.line): \(c.raw)\n  expected: \(c.display) | \(c.merchant ?? "-")\n  got:      \(got.display) | \(got.merchant ?? "-")")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) differ:\n\(mismatches.joined(separator: "\n"))")
    }
}
