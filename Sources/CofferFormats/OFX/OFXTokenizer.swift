import CofferModel
import Foundation

/// Receives the tokens of an OFX file in source order, each with the line and column where it starts.
protocol OFXTokenSink {
    /// True once the sink needs no more input (after `</OFX>`); the tokenizer then stops.
    var isFinished: Bool { get }
    mutating func startTag(_ name: ArraySlice<UInt8>, selfClosing: Bool, line: Int, column: Int) throws
    mutating func endTag(_ name: ArraySlice<UInt8>, line: Int, column: Int) throws
    /// Character data; long text may arrive in several pieces. CDATA content arrives raw, with `isCDATA` set.
    mutating func text(_ bytes: ArraySlice<UInt8>, isCDATA: Bool, line: Int, column: Int) throws
    mutating func comment(_ bytes: ArraySlice<UInt8>) throws
    /// A processing instruction's content, between `<?` and `?>` (`xml version="1.0"`, `OFX OFXHEADER="200"`).
    mutating func instruction(_ bytes: ArraySlice<UInt8>) throws
}

/// Splits OFX bytes, fed chunk by chunk, into tags, text, comments, CDATA and processing instructions.
///
/// For example:
/// ```swift
/// var tokenizer = OFXTokenizer(file: "bank.ofx")
/// try tokenizer.feed(chunk, eof: false, into: &sink)   // as many times as there are chunks
/// try tokenizer.feed([], eof: true, into: &sink)
/// ```
/// It knows nothing of OFX's structure: SGML and XML bodies read alike. Lines end at LF, CR or CRLF; columns
/// count bytes from 1. A `<` not followed by a name, `/`, `!` or `?` is text, so a stray `<` in a memo survives.
/// An unfinished construct is kept for the next chunk; one token may not exceed `maxTokenBytes`.
struct OFXTokenizer {
    static let maxTokenBytes = 16 << 20
    static let maxTagBytes = 64 << 10

    let file: String
    private var buffer: [UInt8] = []
    /// Absolute offset of `buffer[0]` in the input.
    private var base = 0
    private var line = 1
    private var lineStart = 0
    private var previousWasCR = false

    init(file: String) { self.file = file }

    /// The position just after the last consumed byte.
    var position: (line: Int, column: Int) { (line, base - lineStart + 1) }

    mutating func feed<Sink: OFXTokenSink>(_ chunk: [UInt8], eof: Bool, into sink: inout Sink) throws {
        if buffer.isEmpty { buffer = chunk } else { buffer.append(contentsOf: chunk) }
        var p = 0
        let n = buffer.count
        scan: while p < n, !sink.isFinished {
            let (tokenLine, tokenColumn) = (line, base &+ p &- lineStart &+ 1)
            guard buffer[p] == 0x3C else {  // text up to the next '<'
                let q = find(0x3C, from: p &+ 1, to: n) ?? n
                try sink.text(buffer[p..<q], isCDATA: false, line: tokenLine, column: tokenColumn)
                consume(from: p, to: q)
                p = q
                continue
            }
            guard p &+ 1 < n else {
                if eof { try sink.text(buffer[p..<n], isCDATA: false, line: tokenLine, column: tokenColumn); p = n }
                break
            }
            let next = buffer[p &+ 1]
            if next == 0x21 {  // '!'
                if hasPrefix("<!--", at: p) {
                    guard let end = find(sequence: "-->", from: p &+ 4, to: n) else {
                        try incomplete("a comment", start: p, eof: eof, line: tokenLine, column: tokenColumn)
                        break scan
                    }
                    try sink.comment(buffer[(p &+ 4)..<end])
                    consume(from: p, to: end &+ 3)
                    p = end &+ 3
                } else if n &- p < 9, !eof {
                    break scan  // too few bytes to tell a CDATA section from a declaration
                } else if hasPrefix("<![CDATA[", at: p) {
                    guard let end = find(sequence: "]]>", from: p &+ 9, to: n) else {
                        try incomplete("a CDATA section", start: p, eof: eof, line: tokenLine, column: tokenColumn)
                        break scan
                    }
                    try sink.text(buffer[(p &+ 9)..<end], isCDATA: true, line: tokenLine, column: tokenColumn)
                    consume(from: p, to: end &+ 3)
                    p = end &+ 3
                } else {
                    guard let end = try tagEnd(from: p, to: n, eof: eof, line: tokenLine, column: tokenColumn) else {
                        break scan
                    }
                    consume(from: p, to: end &+ 1)  // <!DOCTYPE ...> and other declarations: ignored
                    p = end &+ 1
                }
            } else if next == 0x3F {  // '?'
                guard let end = find(sequence: "?>", from: p &+ 2, to: n) else {
                    try incomplete("a processing instruction", start: p, eof: eof, line: tokenLine, column: tokenColumn)
                    break scan
                }
                try sink.instruction(buffer[(p &+ 2)..<end])
                consume(from: p, to: end &+ 2)
                p = end &+ 2
            } else if next == 0x2F || OFXTokenizer.isNameStart(next) {
                guard let end = try tagEnd(from: p, to: n, eof: eof, line: tokenLine, column: tokenColumn) else {
                    break scan
                }
                let isEnd = next == 0x2F
                var nameEnd = isEnd ? p &+ 2 : p &+ 1
                let nameStart = nameEnd
                while nameEnd < end, OFXTokenizer.isNameByte(buffer[nameEnd]) { nameEnd &+= 1 }
                if isEnd {
                    try sink.endTag(buffer[nameStart..<nameEnd], line: tokenLine, column: tokenColumn)
                } else {
                    let selfClosing = end > nameStart && buffer[end &- 1] == 0x2F
                    try sink.startTag(buffer[nameStart..<nameEnd], selfClosing: selfClosing, line: tokenLine,
                                      column: tokenColumn)
                }
                consume(from: p, to: end &+ 1)
                p = end &+ 1
            } else {  // a lone '<' in text
                let q = find(0x3C, from: p &+ 1, to: n) ?? n
                try sink.text(buffer[p..<q], isCDATA: false, line: tokenLine, column: tokenColumn)
                consume(from: p, to: q)
                p = q
            }
        }
        if sink.isFinished || p >= n {
            base &+= n
            buffer.removeAll(keepingCapacity: false)
        } else {
            buffer.removeSubrange(0..<p)
            base &+= p
        }
    }

    /// The index of the `>` closing the tag at `start`; nil when more input is needed.
    private func tagEnd(from start: Int, to n: Int, eof: Bool, line: Int, column: Int) throws -> Int? {
        let limit = min(n, start &+ OFXTokenizer.maxTagBytes)
        if let end = find(0x3E, from: start &+ 1, to: limit) {
            if let inner = find(0x3C, from: start &+ 1, to: end) {
                throw error("expected '>' to end the tag that starts at column \(column), found '<' first", line: line,
                            column: column &+ (inner &- start))
            }
            return end
        }
        if limit < n || eof {
            let what = eof ? "the file ends" : "64 KB pass"
            throw error("expected '>' to end the tag that starts here, but \(what) without one", line: line, column: column)
        }
        if let inner = find(0x3C, from: start &+ 1, to: n) {
            throw error("expected '>' to end the tag that starts at column \(column), found '<' first", line: line,
                        column: column &+ (inner &- start))
        }
        return nil
    }

    private func incomplete(_ what: String, start: Int, eof: Bool, line: Int, column: Int) throws {
        if eof { throw error("the file ends inside \(what) that starts here", line: line, column: column) }
        if buffer.count &- start > OFXTokenizer.maxTokenBytes {
            throw error("\(what) that starts here runs past 16 MB without ending", line: line, column: column)
        }
    }

    private func error(_ message: String, line: Int, column: Int) -> CofferError {
        CofferError(.badInput, message, location: SourceLocation(file: file, line: line, column: column))
    }

    /// Counts the line ends in `buffer[from..<to]` and moves the position past them.
    private mutating func consume(from start: Int, to end: Int) {
        var i = start
        while i < end {
            let b = buffer[i]
            if b <= 0x0D {
                if b == 0x0A {
                    if !previousWasCR { line &+= 1 }
                    lineStart = base &+ i &+ 1
                } else if b == 0x0D {
                    line &+= 1
                    lineStart = base &+ i &+ 1
                    previousWasCR = true
                    i &+= 1
                    continue
                }
            }
            previousWasCR = false
            i &+= 1
        }
    }

    private func find(_ byte: UInt8, from start: Int, to end: Int) -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBufferPointer { raw -> Int? in
            guard let basePointer = raw.baseAddress,
                  let hit = memchr(basePointer + start, Int32(byte), end &- start) else { return nil }
            return basePointer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func find(sequence: StaticString, from start: Int, to end: Int) -> Int? {
        let count = sequence.utf8CodeUnitCount
        let first = sequence.utf8Start.pointee
        var from = start
        while let hit = find(first, from: from, to: end) {
            guard hit &+ count <= end else { return nil }
            var matches = true
            for k in 1..<count where buffer[hit &+ k] != sequence.utf8Start[k] { matches = false; break }
            if matches { return hit }
            from = hit &+ 1
        }
        return nil
    }

    private func hasPrefix(_ text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index &+ count <= buffer.count else { return false }
        for k in 0..<count where buffer[index &+ k] != text.utf8Start[k] { return false }
        return true
    }

    static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x2D || b == 0x3A
    }
}
