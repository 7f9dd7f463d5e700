import CofferModel

/// One field of a QIF record: its code letter (`D`, `T`, `P`, `S`, `$`…), its value, its line.
struct QIFField: Sendable {
    var code: Character
    var value: String
    var line: Int
}

/// What the record reader hands out: a `!` header line (`!Type:Bank`, `!Account`, `!Option:AutoSwitch`), or a
/// record's fields up to its `^`.
enum QIFItem: Sendable {
    case header(String, line: Int)
    case record([QIFField], line: Int)
}

/// Groups a QIF file's lines into headers and records.
///
/// A record is the field lines up to a `^` line; a header or the end of the file ends one too (a missing final `^`
/// is usual). Blank lines are skipped; each field is its first character and the rest of the line, with trailing
/// blanks dropped (leading ones are kept: Quicken pads dates, `D1/ 2'26`).
struct QIFRecordReader {
    private var lines: StatementLineReader
    private var fields: [QIFField] = []
    private var start = 0
    private var queued: QIFItem?

    init(_ lines: StatementLineReader) { self.lines = lines }

    var file: String { lines.file }

    mutating func next() throws -> QIFItem? {
        if let item = queued { queued = nil; return item }
        while let bytes = try lines.next() {
            var text = Substring(lines.text(bytes))
            while let last = text.last, last == " " || last == "\t" || (last.asciiValue ?? 32) < 32 { text.removeLast() }
            guard let code = text.first else { continue }
            let line = lines.lineNumber
            if code == "^" {
                if let record = flush() { return record }
                continue
            }
            if code == "!" {
                let header = QIFItem.header(String(text), line: line)
                if let record = flush() {
                    queued = header
                    return record
                }
                return header
            }
            if fields.isEmpty { start = line }
            fields.append(QIFField(code: code, value: String(text.dropFirst()), line: line))
        }
        return flush()
    }

    private mutating func flush() -> QIFItem? {
        guard !fields.isEmpty else { return nil }
        defer { fields = [] }
        return .record(fields, line: start)
    }
}
