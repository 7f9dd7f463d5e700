import Foundation

/// Rows as an aligned text table (the CLI's default `--format table`) or as CSV (`--format csv`).
///
/// Both are written byte by byte. The first versions went through `Character`s: `cell.count` and the CSV check for
/// characters to quote walked each cell's grapheme clusters, and each table line was trimmed by Foundation. For
/// 1,000 transactions that was 11–17 ms of a 27 ms `coffer transactions` (docs/benchmarks.md, "the one-shot CLI's
/// output formats"). The output is unchanged: `TextTableTests` compares it with the first versions on random cells.
package struct TextTable: Sendable {
    package var headers: [String]
    package var rows: [[String]]
    /// Columns aligned right (amounts).
    package var rightAligned: Set<Int>

    package init(headers: [String], rows: [[String]], rightAligned: Set<Int> = []) {
        self.headers = headers
        self.rows = rows
        self.rightAligned = rightAligned
    }

    /// Columns as wide as their widest cell (in characters), two spaces apart, each line trimmed of the blanks at
    /// its ends (`CharacterSet.whitespaces`); lines joined by newlines, none after the last.
    package func render() -> String {
        var widths = headers.map(Self.width)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], Self.width(cell)) }
        }
        var out: [UInt8] = []
        out.reserveCapacity((widths.reduce(0, +) + 2 * widths.count + 1) * (rows.count + 1))
        var line: [UInt8] = []
        func append(_ cells: [String]) {
            line.removeAll(keepingCapacity: true)
            for (i, cell) in cells.enumerated() {
                if i > 0 { line.append(contentsOf: [0x20, 0x20]) }
                // A cell of a row longer than the header has no column width: it is written as it is.
                let pad = i < widths.count ? max(0, widths[i] - Self.width(cell)) : 0
                if rightAligned.contains(i) {
                    line.append(contentsOf: repeatElement(0x20, count: pad))
                    line.append(contentsOf: cell.utf8)
                } else {
                    line.append(contentsOf: cell.utf8)
                    line.append(contentsOf: repeatElement(0x20, count: pad))
                }
            }
            Self.appendTrimmed(line, to: &out)
        }
        append(headers)
        for row in rows {
            out.append(0x0A)
            append(row)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 4180 CSV: a cell holding a comma, a double quote, a line feed or a carriage return is quoted, its quotes
    /// doubled; rows end with a line feed, except the last.
    package func csv() -> String {
        var out: [UInt8] = []
        func append(_ cells: [String]) {
            for (i, cell) in cells.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                // The four are ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII: a byte scan finds them.
                guard cell.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
                    out.append(contentsOf: cell.utf8)
                    continue
                }
                out.append(0x22)
                for byte in cell.utf8 {
                    out.append(byte)
                    if byte == 0x22 { out.append(0x22) }
                }
                out.append(0x22)
            }
        }
        append(headers)
        for row in rows {
            out.append(0x0A)
            append(row)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A cell's width in characters: its byte count when it is ASCII (one byte, one character, except the CR LF
    /// pair, one character of two bytes), else its count of grapheme clusters.
    static func width(_ cell: String) -> Int {
        var ascii = true
        var crlf = 0
        var previous: UInt8 = 0
        for byte in cell.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if byte == 0x0A, previous == 0x0D { crlf += 1 }
            previous = byte
        }
        return ascii ? cell.utf8.count - crlf : cell.count
    }

    /// `line` without the blanks at either end (`CharacterSet.whitespaces`: tab and Unicode's space separators),
    /// appended to `out`. ASCII blanks are dropped here; the others all start with a byte of 0x80 or more, and a line
    /// that has one at an end after that goes through Foundation's trim.
    static func appendTrimmed(_ line: [UInt8], to out: inout [UInt8]) {
        var start = line.startIndex
        var end = line.endIndex
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        if start < end, line[start] >= 0x80 || line[end - 1] >= 0x80 {
            let text = String(decoding: line[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            out.append(contentsOf: text.utf8)
            return
        }
        out.append(contentsOf: line[start..<end])
    }
}
