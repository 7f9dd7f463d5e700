@testable import CofferExport
import CofferTestSupport
import Foundation
import Testing

/// `coffer export --format csv` writes lines any RFC 4180 reader splits back into the fields it was given, whatever
/// the text holds; a failure prints its seed.
@Suite struct CSVExportLineTests {
    /// Pieces a field is made of: plain text, the characters CSV quotes, and the same followed by combining marks
    /// (one grapheme cluster with the mark: the shape the old `Character` test missed).
    static let pieces: [String] = [
        "a", "Zürich", "Café", "7.50", " ", "€", "🧾", "\u{301}", "\u{308}",
        ",", "\"", "\r", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
        "\"\u{301}", ",\u{308}", "e\u{301}\"", "\"\"", ";", "'",
    ]

    @Test func everyLineReadsBackAsItsFields() {
        for seed in UInt64(1)...2_000 {
            var rng = SplitMix64(state: seed)
            let fields = (0..<Int.random(in: 1...6, using: &rng)).map { _ in
                (0..<Int.random(in: 0...5, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            }
            let line = CSVExportWriter.line(fields)
            #expect(line.hasSuffix("\r\n"), "seed \(seed)")
            let read = Self.read(String(line.unicodeScalars.dropLast(2)))
            #expect(read == fields, "seed \(seed): \(fields.map(\.debugDescription)) → \(line.debugDescription)")
        }
    }

    @Test func aQuoteOrCommaCarryingACombiningMarkIsQuoted() {
        #expect(CSVExportWriter.line(["say \"\u{301}hi", "x"]) == "\"say \"\"\u{301}hi\",x\r\n")
        #expect(CSVExportWriter.line([",\u{308}"]) == "\",\u{308}\"\r\n")
        #expect(CSVExportWriter.line(["a\r\nb"]) == "\"a\r\nb\"\r\n")
        #expect(CSVExportWriter.line(["plain", "Zürich"]) == "plain,Zürich\r\n")
    }

    /// A strict RFC 4180 reader of one record, over Unicode scalars: a quoted field ends at a lone quote, which
    /// must be followed by a comma or the end; a bare field must not hold a quote, CR or LF.
    static func read(_ line: String) -> [String]? {
        let s = Array(line.unicodeScalars)
        var fields: [String] = []
        var i = 0
        while true {
            var field = String.UnicodeScalarView()
            if i < s.count, s[i] == "\"" {
                i += 1
                while true {
                    guard i < s.count else { return nil }  // unterminated
                    if s[i] == "\"" {
                        if i + 1 < s.count, s[i + 1] == "\"" { field.append("\""); i += 2; continue }
                        i += 1
                        break
                    }
                    field.append(s[i])
                    i += 1
                }
                guard i == s.count || s[i] == "," else { return nil }
            } else {
                while i < s.count, s[i] != "," {
                    if s[i] == "\"" || s[i] == "\r" || s[i] == "\n" { return nil }
                    field.append(s[i])
                    i += 1
                }
            }
            fields.append(String(field))
            if i == s.count { return fields }
            i += 1  // the comma
        }
    }
}
