import CofferModel
import Foundation

/// Finds a CSV file's header row by its names, past any preamble, within the first lines of the file.
///
/// For example: a DKB export starts with `"Kontonummer:";"DE…";`, `"Von:";"01.01.2026";` … and a blank line
/// before `"Buchungstag";"Wertstellung";…`; the header is the first row whose cells include every name of the
/// profile's signature, whatever the number of lines before it.
enum CSVHeaderLocator {
    /// The first bytes of a file without NUL padding at their end (a block-sized copy), when the padding starts a
    /// line and runs to the end of what was read (Ctrl-Z and line ends may be among it); NUL bytes anywhere else
    /// stay, as the binary data they are.
    static func withoutPadding(_ prefix: [UInt8]) -> [UInt8] {
        guard let nul = prefix.firstIndex(of: 0) else { return prefix }
        var start = nul
        while start > 0, prefix[start - 1] == 0x1A { start -= 1 }
        guard start == 0 || prefix[start - 1] == 0x0A || prefix[start - 1] == 0x0D,
              prefix[nul...].allSatisfy({ $0 == 0 || $0 == 0x1A || $0 == 0x0A || $0 == 0x0D }) else { return prefix }
        return Array(prefix[..<start])
    }

    /// How far into a file the header may be.
    static let maxHeaderLine = 50
    /// How much of a file identification reads.
    static let prefixSize = 64 * 1024
    static let candidateDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]

    /// The rows (cells decoded and normalized) of the first `maxHeaderLine` lines of `prefix`, read with `delimiter`.
    /// Stops quietly at malformed input: identification never throws for what parsing will report properly.
    static func candidateRows(prefix: [UInt8], delimiter: UInt8, encoding: TextEncoding) -> [(line: Int, cells: [String])] {
        guard let reader = try? CSVRecordReader(input: .bytes(prefix), delimiter: delimiter) else { return [] }
        var rows: [(line: Int, cells: [String])] = []
        while (try? reader.next()) == true, reader.line <= maxHeaderLine {
            rows.append((reader.line, normalizedCells(reader, encoding: encoding)))
        }
        return rows
    }

    /// Every cell of the reader's current record, decoded and normalized for comparing with header names.
    static func normalizedCells(_ reader: CSVRecordReader, encoding: TextEncoding) -> [String] {
        (0..<reader.fieldCount).map { index in
            reader.withField(index) { CSVProfile.normalizedName(encoding.decode($0)) }
        }
    }

    /// Whether a row's cells hold every name in `signature` (normalized).
    static func matches(_ cells: [String], signature: Set<String>) -> Bool {
        guard cells.count >= signature.count else { return false }
        return signature.isSubset(of: Set(cells))
    }

    /// The delimiter under which `prefix` has a row holding the profile's header signature, or nil.
    static func detectDelimiter(prefix: [UInt8], profile: CSVProfile) -> UInt8? {
        let signature = profile.headerSignature
        let delimiters = profile.delimiter.byte.map { [$0] } ?? candidateDelimiters
        for delimiter in delimiters {
            let rows = candidateRows(prefix: prefix, delimiter: delimiter, encoding: profile.encoding)
            if rows.contains(where: { matches($0.cells, signature: signature) }) { return delimiter }
        }
        return nil
    }
}

extension CSVProfile {
    /// The normalized names a header row must hold: `match.header`, else every column the profile reads.
    package var headerSignature: Set<String> {
        guard header == .names else { return [] }
        return Set((match.header ?? columns.referenced.map(\.name)).map(CSVProfile.normalizedName))
    }
}
