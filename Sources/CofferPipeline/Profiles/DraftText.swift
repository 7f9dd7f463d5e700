import CofferFormats
import CofferModel
import Foundation

/// A statement file's bytes as the drafter reads them: the encoding it guessed and why, and the bytes to split into
/// rows (UTF-16 converted to UTF-8, which is what the user must convert the file to before importing).
struct DraftText {
    var bytes: [UInt8]
    var encoding: TextEncoding
    /// Why this encoding, for the YAML comment.
    var reason: String
    /// Set when the file cannot be imported as it is (UTF-16).
    var conversionNote: String?

    /// Guesses the encoding from the whole file; throws for an empty or binary file.
    static func read(_ bytes: [UInt8], fileName: String) throws -> DraftText {
        let location = SourceLocation(file: fileName, line: 1)
        if let form = UTF16Text.form(of: bytes) {  // with a byte order mark or without
            let utf8 = UTF16Text.utf8Prefix(of: bytes, form)
            let note = "the file is UTF-16 text, which Coffer does not read: convert it to UTF-8 before importing "
                + "(iconv -f UTF-16 -t UTF-8 '\(fileName)' > converted.csv); this draft describes the converted file"
            return try checked(DraftText(bytes: utf8, encoding: .utf8, reason: "the file is UTF-16: convert it to UTF-8 first",
                                         conversionNote: note), location: location)
        }
        var body = bytes
        var bom = false
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3); bom = true }
        if let nul = body.firstIndex(of: 0) {
            let line = body[..<nul].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw CofferError(.badInput, "found a NUL byte: this is binary data, not a CSV text file",
                              location: SourceLocation(file: fileName, line: line))
        }
        if !body.contains(where: { $0 >= 0x80 }) {
            return try checked(DraftText(bytes: body, encoding: .utf8,
                                         reason: bom ? "UTF-8 with a byte order mark" : "plain ASCII, read as UTF-8",
                                         conversionNote: nil), location: location)
        }
        if String(validating: body, as: UTF8.self) != nil {
            return try checked(DraftText(bytes: body, encoding: .utf8,
                                         reason: bom ? "UTF-8 with a byte order mark" : "every byte is valid UTF-8",
                                         conversionNote: nil), location: location)
        }
        let c1 = body.contains { (0x80...0x9F).contains($0) }
        let reason = c1
            ? "not valid UTF-8; bytes 0x80-0x9F appear, which Windows-1252 uses for € „ “ – and the like"
            : "not valid UTF-8 (umlauts and accents as single bytes); Windows-1252 and Latin-1 read this file alike"
        return try checked(DraftText(bytes: body, encoding: .windows1252, reason: reason, conversionNote: nil),
                           location: location)
    }

    private static func checked(_ text: DraftText, location: SourceLocation) throws -> DraftText {
        if text.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw CofferError(.badInput, "the file is empty: there is nothing to draft a profile from", location: location)
        }
        return text
    }
}

/// One record of the file under a delimiter: the line it starts on and its cells, decoded as the parser decodes
/// them (each cell UTF-8 when valid, else in the file's encoding) and trimmed of spaces and tabs as the parser
/// trims data cells.
struct DraftRow {
    var line: Int
    var cells: [String]
    /// Where the record is in the bytes, line end excluded: for quoting a preamble line as written.
    var range: Range<Int>

    /// Every cell empty or spaces (a blank line, `;;;;`): the parser skips such rows.
    var isBlank: Bool { cells.allSatisfy(\.isEmpty) }

    /// The cell, empty past the row's end.
    func cell(_ index: Int) -> String { index < cells.count ? cells[index] : "" }
}

/// Splits text into RFC 4180 records the way Coffer's CSV reader does: quoted cells with doubled quotes, line
/// breaks inside quotes, CRLF / LF / CR line ends, a quote inside an unquoted cell kept as text.
enum DraftCSV {
    /// The delimiters a profile can name, in the order ties are broken.
    static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]

    static func rows(_ bytes: ArraySlice<UInt8>, delimiter: UInt8, encoding: TextEncoding, trim: Bool = true) -> [DraftRow] {
        enum State { case fieldStart, unquoted, quoted, quoteSeen }
        let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var rows: [DraftRow] = []
        var cells: [String] = []
        var field: [UInt8] = []
        var state = State.fieldStart
        var line = 1, rowLine = 1
        var consumed = false
        var i = bytes.startIndex, rowStart = i, rowEnd = i
        func endField() {
            var start = 0, end = field.count
            if trim {
                while start < end, field[start] == 0x20 || field[start] == 0x09 { start += 1 }
                while end > start, field[end - 1] == 0x20 || field[end - 1] == 0x09 { end -= 1 }
            }
            cells.append(start == end ? "" : encoding.decode(field[start..<end]))
            field.removeAll(keepingCapacity: true)
        }
        func endRow() {
            endField()
            rows.append(DraftRow(line: rowLine, cells: cells, range: rowStart..<max(rowStart, rowEnd)))
            cells = []
            consumed = false
            state = .fieldStart
            rowLine = line
            rowStart = i
        }
        while i < bytes.endIndex {
            let b = bytes[i]
            i += 1
            consumed = true
            if state == .quoted {
                if b == quote { state = .quoteSeen; continue }
                if b == cr || (b == lf && (i - 2 < bytes.startIndex || bytes[i - 2] != cr)) { line += 1 }
                field.append(b)
                continue
            }
            switch b {
            case quote where state == .fieldStart: state = .quoted
            case quote where state == .quoteSeen: field.append(b); state = .quoted
            case delimiter: endField(); state = .fieldStart
            case cr, lf:
                rowEnd = i - 1
                if b == cr, i < bytes.endIndex, bytes[i] == lf { i += 1 }
                line += 1
                endRow()
            default:
                field.append(b)
                state = .unquoted
            }
        }
        if consumed { rowEnd = bytes.endIndex; endRow() }
        return rows
    }

    /// The delimiters worth trying, best first: the one under which most rows share one field count (of at least
    /// two) comes first; ties go to the wider rows, then to the order `, ; tab |`. Only counts fields: rows are
    /// decoded for the candidates when they are tried.
    static func ranked(_ text: DraftText) -> [(delimiter: UInt8, agreeing: Int, width: Int)] {
        var results: [(delimiter: UInt8, agreeing: Int, total: Int, width: Int, order: Int)] = []
        for (order, delimiter) in delimiters.enumerated() {
            var counts: [Int: Int] = [:]
            var total = 0
            for (fields, blank) in fieldCounts(text.bytes, delimiter: delimiter) where !blank {
                total += 1
                if fields >= 2 { counts[fields, default: 0] += 1 }
            }
            guard let best = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            results.append((delimiter, best.value, total, best.key, order))
        }
        results.sort { a, b in
            if a.agreeing != b.agreeing { return a.agreeing > b.agreeing }
            if a.width != b.width { return a.width > b.width }
            return a.order < b.order
        }
        return results.map { ($0.delimiter, $0.agreeing, $0.width) }
    }

    /// Each record's field count and whether all its fields are empty or blank, by the same rules as `rows`.
    static func fieldCounts(_ bytes: [UInt8], delimiter: UInt8) -> [(fields: Int, blank: Bool)] {
        let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var out: [(fields: Int, blank: Bool)] = []
        var fields = 1, blank = true, quoted = false, consumed = false, fieldStart = true
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            consumed = true
            if quoted {
                if b == quote {
                    if i < bytes.count, bytes[i] == quote { i += 1; blank = false } else { quoted = false }
                } else {
                    blank = false
                }
                continue
            }
            switch b {
            case quote where fieldStart: quoted = true; fieldStart = false
            case delimiter: fields += 1; fieldStart = true
            case cr, lf:
                if b == cr, i < bytes.count, bytes[i] == lf { i += 1 }
                out.append((fields, blank))
                fields = 1; blank = true; consumed = false; fieldStart = true
            case 0x20, 0x09: fieldStart = false
            default: blank = false; fieldStart = false
            }
        }
        if consumed { out.append((fields, blank)) }
        return out
    }

    /// How a delimiter is spelled in YAML and in messages.
    static func label(_ delimiter: UInt8) -> String {
        switch delimiter {
        case 0x09: "tab"
        default: String(UnicodeScalar(delimiter))
        }
    }
}
