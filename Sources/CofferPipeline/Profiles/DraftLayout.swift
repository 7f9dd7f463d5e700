import CofferFormats
import CofferModel
import Foundation

/// Where a file's header, data rows, preamble and footer are, under one delimiter.
///
/// The header is the first row (within the first 50 lines, where Coffer looks for it) whose following rows have at
/// least its number of cells (more only when the extra cells are empty) and one column of dates in every row. When
/// that row itself already holds a date in that column and an amount, the file has no header and the row is data.
/// After a blank line, rows that still look like data (same width, a date, no summary word, no fewer filled cells)
/// continue the data; every other non-blank row after the data is footer.
struct DraftLayout {
    var rows: [DraftRow]
    var delimiter: UInt8
    /// Index into `rows`; nil when the file has no header.
    var header: Int?
    var width: Int
    var data: [Int]
    var preamble: [Int]
    var footer: [Int]

    static let maxHeaderLine = 50

    /// The data cells of column `index`, one per data row, trimmed.
    func column(_ index: Int) -> [String] { data.map { rows[$0].cell(index) } }

    /// The header names, trimmed (a blank name keeps its spaces, as Volksbank's `" "`); empty without a header.
    let names: [String]

    static func find(_ rows: [DraftRow], delimiter: UInt8, text: DraftText) -> DraftLayout? {
        for h in rows.indices where rows[h].line <= maxHeaderLine && !rows[h].isBlank && rows[h].cells.count >= 2 {
            let width = rows[h].cells.count
            var j = h + 1
            while j < rows.count, rows[j].isBlank { j += 1 }
            var block: [Int] = []
            while j < rows.count, !rows[j].isBlank, compatible(rows[j], width) {
                block.append(j)
                j += 1
            }
            guard !block.isEmpty else { continue }
            guard let dateColumn = (0..<width).first(where: { c in DraftDates.isFullDateColumn(block.map { rows[$0].cell(c) }) })
            else { continue }
            let patterns = DraftDates.patterns(reading: block.map { rows[$0].cell(dateColumn) })
            let first = rows[h]
            let headerless = patterns.contains { $0.format.parse(first.cell(dateColumn)) != nil }
                && (0..<width).contains { $0 != dateColumn && DraftNumbers.looksLikeAmount(first.cell($0)) }
            var data = headerless ? [h] + block : block
            // Past blank lines: more rows of data, or the footer.
            let minFilled = data.map { index in rows[index].cells.prefix(width).filter { !$0.isEmpty }.count }.min() ?? 0
            while j < rows.count {
                if rows[j].isBlank { j += 1; continue }
                let row = rows[j]
                let filled = row.cells.prefix(width).filter { !$0.isEmpty }.count
                guard compatible(row, width), patterns.contains(where: { $0.format.parse(row.cell(dateColumn)) != nil }),
                      filled >= minFilled, !isSummary(row) else { break }
                data.append(j)
                j += 1
            }
            let start = data[0]
            var names: [String] = []
            if !headerless {
                let raw = DraftCSV.rows(text.bytes[rows[h].range], delimiter: delimiter, encoding: text.encoding, trim: false)
                names = zip(rows[h].cells, raw.first?.cells ?? []).map { $0.isEmpty && !$1.isEmpty ? $1 : $0 }
                names += Array(repeating: "", count: max(0, width - names.count))
            }
            return DraftLayout(rows: rows, delimiter: delimiter, header: headerless ? nil : h, width: width, data: data,
                               preamble: rows.indices.filter { $0 < (headerless ? start : h) && !rows[$0].isBlank },
                               footer: rows.indices.filter { $0 >= j && !rows[$0].isBlank }, names: names)
        }
        return nil
    }

    /// At least `width` cells, any beyond it empty (Chase's rows end with one more, empty, cell than the header).
    static func compatible(_ row: DraftRow, _ width: Int) -> Bool {
        row.cells.count >= width && row.cells[width...].allSatisfy(\.isEmpty)
    }

    /// A row with a word of a summary line: `Anfangssaldo`, `Closing balance`, `Total`.
    static func isSummary(_ row: DraftRow) -> Bool {
        row.cells.contains { cell in
            let folded = DraftVocabulary.fold(cell)
            return DraftVocabulary.summary.contains { folded.contains($0) }
        }
    }

    /// The layout under the best delimiter that has one; throws, naming what was missing, when none has.
    static func best(_ text: DraftText, fileName: String) throws -> DraftLayout {
        let ranked = DraftCSV.ranked(text)
        for candidate in ranked {
            let rows = DraftCSV.rows(text.bytes[...], delimiter: candidate.delimiter, encoding: text.encoding)
            if let layout = find(rows, delimiter: candidate.delimiter, text: text) { return layout }
        }
        let tried = DraftDates.patterns.prefix(8).map(\.pattern).joined(separator: ", ")
        let location = SourceLocation(file: fileName, line: 1)
        guard let top = ranked.first, top.agreeing >= 2 else {
            throw CofferError(.badInput, "cannot draft a profile: no delimiter (',', ';', tab or '|') splits the rows into "
                              + "a table of at least two columns", location: location)
        }
        throw CofferError(.badInput, "cannot draft a profile: no column holds a date in every data row (the rows split "
                          + "on '\(DraftCSV.label(top.delimiter))' into \(top.width) columns; "
                          + "tried dates like \(tried), …, d MMM yyyy, yyyy-MM-dd, with and without a time)", location: location)
    }
}
