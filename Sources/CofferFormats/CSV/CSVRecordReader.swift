import CofferModel
import Foundation

/// Reads RFC 4180 records from a statement's bytes, one record at a time, in chunks.
///
/// For example:
/// ```swift
/// let records = try CSVRecordReader(input: .string("a,\"b \"\"c\"\"\"\r\n1,2\n"), delimiter: UInt8(ascii: ","))
/// while try records.next() { print(records.line, records.fieldCount) }   // 1 2, then 2 2
/// ```
/// Handles quoted fields with doubled quotes, delimiters and line breaks inside them; CRLF, LF and lone CR line
/// ends (also inside quotes, for line counting); a UTF-8 byte order mark. A quote inside an unquoted field, or
/// after a closing quote, is kept as text (real exports have `5" screen`). A quote left open at the end of the
/// input, a NUL byte (binary data), or a record over `maxRecordBytes` or `maxFields`, throws `.badInput` with the line.
///
/// Why hand-written: SwiftCSV reads the whole file into one `String` first (unbounded memory on a 1M-row file);
/// yaslab/CSV.swift 2.5.2 streams, but decodes the whole input through one `UnicodeCodec` (UTF-8/16/32 only, so no
/// Windows-1252 or Latin-1, and it stops silently at the first invalid byte), steps through `AnyIterator` per
/// Unicode scalar and builds a `String` per cell, and reports no line numbers. Here the bytes stay bytes: each
/// field is a slice of one reused buffer, decoded only when the profile uses that column, in its own encoding.
final class CSVRecordReader {
    private enum State { case fieldStart, unquoted, quoted, quoteSeen }
    private enum ByteClass: UInt8 { case plain = 0, delimiter, quote, cr, lf, nul, high }

    private let source: ByteReader
    private let name: String
    private var chunk: [UInt8] = []
    private var position = 0
    private var atStart = true
    private var skipLF = false
    private var nextLine = 1
    private let classes: [ByteClass]

    /// The current record's field bytes back to back; field `i` ends at `fieldEnds[i]`.
    private(set) var storage: [UInt8] = []
    private(set) var fieldEnds: [Int] = []
    /// The line the current record starts on (1-based).
    private(set) var line = 0
    /// Whether the current record has a byte ≥ 0x80 (so decoding needs more than ASCII).
    private(set) var hasHighBytes = false

    init(input: StatementInput, delimiter: UInt8, chunkSize: Int = 1 << 20) throws {
        source = try input.makeReader(chunkSize: chunkSize)
        name = input.name
        var table = [ByteClass](repeating: .plain, count: 256)
        for b in 0x80...0xFF { table[b] = .high }
        table[0] = .nul
        table[0x0D] = .cr
        table[0x0A] = .lf
        table[0x22] = .quote
        table[Int(delimiter)] = .delimiter
        classes = table
        storage.reserveCapacity(4096)
        fieldEnds.reserveCapacity(64)
    }

    var fieldCount: Int { fieldEnds.count }

    /// The bytes of field `index` (empty when the record has fewer fields).
    func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard index >= 0, index < fieldEnds.count else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let start = index == 0 ? 0 : fieldEnds[index - 1]
        return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<fieldEnds[index]])) }
    }

    /// Whether every field of the record is empty or spaces (a blank line, `;;;;`).
    var isBlank: Bool {
        storage.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// How many bytes of padding (NUL bytes, a Ctrl-Z end-of-file mark, blanks) ended the file where a record would
    /// start, when they did: they end the input instead of failing it as binary data. `nulPadding` counts the NULs.
    private(set) var paddingAtEnd: Int?
    private(set) var nulPadding = 0

    /// Whether everything from `position` to the end of the input is padding; counts it into `paddingAtEnd`.
    private func restIsPadding() throws -> Bool {
        var count = 0
        var nuls = 0
        while true {
            while position < chunk.count {
                let b = chunk[position]
                guard StatementInput.isPadding(b) else { return false }
                if b == 0 { nuls += 1 }
                position += 1
                count += 1
            }
            guard let next = try source.next() else { break }
            chunk = next
            position = 0
        }
        paddingAtEnd = count
        nulPadding = nuls
        return true
    }

    /// Reads the next record; false at the end of the input.
    func next() throws -> Bool {
        var out = storage
        var ends = fieldEnds
        storage = []
        fieldEnds = []
        out.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        defer { storage = out; fieldEnds = ends }
        var high = false
        var state = State.fieldStart
        var consumed = false
        var quoteLine = 0
        var lineNo = nextLine
        line = nextLine
        var crInQuote = false
        while true {
            if position >= chunk.count {
                guard let next = try source.next() else { break }
                chunk = next
                position = 0
                if atStart {
                    // A byte order mark may straddle chunks: gather three bytes first.
                    while chunk.count < 3, let more = try source.next() { chunk += more }
                    atStart = false
                    if chunk.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
                }
                continue
            }
            if skipLF {
                skipLF = false
                if chunk[position] == 0x0A { position += 1; continue }
            }
            // Scan this chunk; `done` is set when a record ends inside it.
            var done = false
            var failure: CofferError?
            var nulAtRecordStart = false
            chunk.withUnsafeBufferPointer { buf in
                var i = position
                let n = buf.count
                scan: while i < n {
                    // Bounded memory: checked per token (runs are copied whole), so at most one chunk over.
                    if out.count > Self.maxRecordBytes || ends.count >= Self.maxFields {
                        failure = Self.tooLarge(name: name, line: line, fields: ends.count, bytes: out.count)
                        break scan
                    }
                    let b = buf[i]
                    let cls = classes[Int(b)]
                    consumed = true
                    switch state {
                    case .fieldStart, .unquoted:
                        switch cls {
                        case .plain, .high, .quote:
                            if b == 0x1A, state == .fieldStart, out.isEmpty, ends.isEmpty {
                                nulAtRecordStart = true  // a DOS end-of-file mark (Ctrl-Z) where a record would start
                                break scan
                            }
                            if cls == .quote, state == .fieldStart {
                                state = .quoted
                                quoteLine = lineNo
                                i += 1
                                continue scan
                            }
                            // A run of ordinary bytes: copy it in one go.
                            var j = i + 1
                            if cls == .high { high = true }
                            while j < n {
                                let c = classes[Int(buf[j])]
                                if c == .plain || c == .quote { j += 1 } else if c == .high { high = true; j += 1 } else { break }
                            }
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<j]))
                            state = .unquoted
                            i = j
                        case .delimiter:
                            ends.append(out.count)
                            state = .fieldStart
                            i += 1
                        case .cr, .lf:
                            lineNo += 1
                            skipLF = cls == .cr
                            i += 1
                            done = true
                            break scan
                        case .nul:
                            if state == .fieldStart, out.isEmpty, ends.isEmpty {
                                nulAtRecordStart = true  // padding to the end of the file, or binary data
                            } else {
                                failure = Self.nulError(name: name, line: lineNo, field: ends.count)
                            }
                            break scan
                        }
                    case .quoted:
                        switch cls {
                        case .quote:
                            state = .quoteSeen
                            crInQuote = false
                            i += 1
                        case .nul:
                            failure = Self.nulError(name: name, line: lineNo, field: ends.count)
                            break scan
                        case .cr:
                            lineNo += 1
                            crInQuote = true
                            out.append(b)
                            i += 1
                        case .lf:
                            if !crInQuote { lineNo += 1 }
                            crInQuote = false
                            out.append(b)
                            i += 1
                        default:
                            crInQuote = false
                            var j = i + 1
                            if cls == .high { high = true }
                            while j < n {
                                let c = classes[Int(buf[j])]
                                if c == .plain || c == .delimiter { j += 1 } else if c == .high { high = true; j += 1 } else { break }
                            }
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<j]))
                            i = j
                        }
                    case .quoteSeen:
                        switch cls {
                        case .quote:
                            out.append(b)
                            state = .quoted
                            i += 1
                        case .delimiter:
                            ends.append(out.count)
                            state = .fieldStart
                            i += 1
                        case .cr, .lf:
                            lineNo += 1
                            skipLF = cls == .cr
                            i += 1
                            done = true
                            break scan
                        case .nul:
                            failure = Self.nulError(name: name, line: lineNo, field: ends.count)
                            break scan
                        default:
                            // Text after a closing quote: keep it, as spreadsheet programs do.
                            if cls == .high { high = true }
                            out.append(b)
                            state = .unquoted
                            i += 1
                        }
                    }
                }
                position = i
            }
            if let failure { throw failure }
            if nulAtRecordStart {
                guard try restIsPadding() else {
                    throw CofferError(.badInput, "found a NUL byte or an end-of-file mark (Ctrl-Z) with more data after it: "
                                      + "binary data, or two files joined, not a CSV text file",
                                      location: SourceLocation(file: name, line: lineNo, column: 1))
                }
                consumed = false
                break
            }
            if done {
                ends.append(out.count)
                nextLine = lineNo
                hasHighBytes = high
                return true
            }
        }
        // End of input.
        nextLine = lineNo
        if state == .quoted {
            throw CofferError(.badInput,
                "a quoted field opened on line \(quoteLine) is never closed: the file ends inside it (truncated file?)",
                location: SourceLocation(file: name, line: quoteLine, column: ends.count + 1))
        }
        guard consumed else { return false }
        ends.append(out.count)
        hasHighBytes = high
        return true
    }

    /// A record longer than this, or with more fields, is refused: no bank export comes near either.
    static let maxRecordBytes = 4 << 20
    static let maxFields = 10_000

    private static func tooLarge(name: String, line: Int, fields: Int, bytes: Int) -> CofferError {
        let what = fields >= maxFields ? "more than \(maxFields) fields" : "more than \(maxRecordBytes >> 20) MB"
        return CofferError(.badInput, "expected a CSV row of at most \(maxFields) fields and \(maxRecordBytes >> 20) MB, "
                           + "found a row with \(what) (not a CSV statement, or a quote left open?)",
                           location: SourceLocation(file: name, line: line, column: fields + 1))
    }

    private static func nulError(name: String, line: Int, field: Int) -> CofferError {
        CofferError(.badInput, "found a NUL byte: this is binary data, not a CSV text file",
                    location: SourceLocation(file: name, line: line, column: field + 1))
    }
}
