import CofferModel

/// Reads a line-based statement file (MT940, QIF) a line at a time, streaming: LF, CRLF or a lone CR ends a
/// line, a UTF-8 byte order mark before the first line is dropped, and lines count from 1.
///
/// For example:
/// ```swift
/// var lines = try StatementLineReader(.string(":20:STARTUMS\r\n:25:DE02120300000000202051\r\n"))
/// while let line = try lines.next() { print(lines.lineNumber, lines.text(line)) }
/// ```
/// Only the current line and the chunk it came in are held. A line longer than `maxLineBytes` fails the file
/// (a statement line is short; a megabyte without a line break is not a statement).
package struct StatementLineReader {
    private let reader: ByteReader
    private var buffer: [UInt8] = []
    private var position = 0
    /// Where the search for the next line end resumes (bytes before it hold none).
    private var scanned = 0
    private var atEnd = false
    private var first = true
    /// The number of the line `next()` returned last.
    package private(set) var lineNumber = 0
    package let file: String
    let maxLineBytes: Int
    /// The single-byte encoding a person named for the file (`coffer import --encoding cp1250`): lines that are not
    /// valid UTF-8 are read in it instead of Windows-1252.
    let table: SingleByteTable?

    package init(_ input: StatementInput, maxLineBytes: Int = 1 << 20, table: SingleByteTable? = nil,
                 chunkSize: Int = 1 << 20) throws {
        reader = try input.makeReader(chunkSize: chunkSize)
        file = input.name
        self.maxLineBytes = maxLineBytes
        self.table = table
    }

    /// The next line's bytes without its line end, or nil after the last line.
    package mutating func next() throws -> ArraySlice<UInt8>? {
        while true {
            var index = scanned
            while index < buffer.count, buffer[index] != 10, buffer[index] != 13 { index += 1 }
            if index < buffer.count {
                if buffer[index] == 13, index + 1 == buffer.count, !atEnd {
                    // A CR at the end of the chunk: the next chunk says whether an LF follows.
                    scanned = index
                    try fill()
                    continue
                }
                var line = buffer[position..<index]
                position = index + 1
                if buffer[index] == 13, position < buffer.count, buffer[position] == 10 { position += 1 }
                scanned = position
                return take(&line)
            }
            scanned = index
            if buffer.count - position > maxLineBytes {
                throw CofferError(.badInput, "expected lines of a statement, found a line over \(maxLineBytes / 1024) KB "
                                  + "without a line break (not a statement file?)",
                                  location: SourceLocation(file: file, line: lineNumber + 1))
            }
            if atEnd {
                guard position < buffer.count else { return nil }
                var line = buffer[position...]
                position = buffer.count
                scanned = position
                return take(&line)
            }
            try fill()
        }
    }

    /// The line decoded: UTF-8 when it is valid UTF-8, else the named single-byte encoding, else Windows-1252 (what
    /// German and US bank files are).
    package func text(_ line: ArraySlice<UInt8>) -> String { table?.decode(line) ?? TextEncoding.windows1252.decode(line) }

    private mutating func take(_ line: inout ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        lineNumber += 1
        if first {
            first = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        }
        return line
    }

    private mutating func fill() throws {
        if position > 0 {
            buffer.removeFirst(position)
            scanned -= position
            position = 0
        }
        if let chunk = try reader.next() { buffer.append(contentsOf: chunk) } else { atEnd = true }
    }
}
