import CofferModel
import Foundation

/// Receives the tokens of an OFX file in source order, each with the line and column where it starts.
protocol OFXTokenSink {
    /// True once the sink needs no more input (after `</OFX>`); the tokenizer then stops.
    var isFinished: Bool { get }
    mutating func startTag(_ name: UnsafeBufferPointer<UInt8>, selfClosing: Bool, line: Int, column: Int) throws
    mutating func endTag(_ name: UnsafeBufferPointer<UInt8>, line: Int, column: Int) throws
    /// Character data; long text may arrive in several pieces. CDATA content arrives raw, with `isCDATA` set.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>, isCDATA: Bool, line: Int, column: Int) throws
    mutating func comment(_ bytes: UnsafeBufferPointer<UInt8>) throws
    /// A processing instruction's content, between `<?` and `?>` (`xml version="1.0"`, `OFX OFXHEADER="200"`).
    mutating func instruction(_ bytes: UnsafeBufferPointer<UInt8>) throws
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
/// An unfinished construct is kept for the next chunk; one token may not exceed `maxTokenBytes`. Tokens are
/// handed out as unsafe buffers into the tokenizer's own storage, valid only during the call (no copies, no
/// reference counting on the hot path).
final class OFXTokenizer {
    static let maxTokenBytes = 16 << 20
    static let maxTagBytes = 64 << 10

    let file: String
    /// Unconsumed bytes: `storage[0..<count]`.
    ///
    /// `@exclusivity(unchecked)`, as in `CamtHandler`: the tokenizer is used from one thread and never hands these
    /// out `inout` to code that could reach them again, and the runtime's check (a thread-local access set) on every
    /// `find` and every byte run cost more than the scanning itself.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var count = 0
    /// Absolute offset of `storage[0]` in the input.
    @exclusivity(unchecked) private var base = 0
    @exclusivity(unchecked) private var line = 1
    @exclusivity(unchecked) private var lineStart = 0
    @exclusivity(unchecked) private var previousWasCR = false

    init(file: String) {
        self.file = file
        self.storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        self.capacity = 1
    }

    deinit { storage.deallocate() }

    /// Appends `chunk` after the unconsumed bytes, growing the storage when needed.
    private func append(_ chunk: [UInt8]) {
        let needed = count &+ chunk.count
        OFXText.reserve(&storage, capacity: &capacity, keeping: count, needed: needed)
        chunk.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { (storage + count).update(from: base, count: source.count) }
        }
        count = needed
    }

    private func slice(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage + from, count: to &- from)
    }

    /// The position just after the last consumed byte.
    var position: (line: Int, column: Int) { (line, base - lineStart + 1) }

    func feed<Sink: OFXTokenSink>(_ chunk: [UInt8], eof: Bool, into sink: inout Sink) throws {
        append(chunk)
        let buffer = storage
        var p = 0
        let n = count
        scan: while p < n, !sink.isFinished {
            let (tokenLine, tokenColumn) = (line, base &+ p &- lineStart &+ 1)
            guard buffer[p] == 0x3C else {  // text up to the next '<'
                let q = find(0x3C, from: p &+ 1, to: n) ?? n
                try sink.text(slice(p, q), isCDATA: false, line: tokenLine, column: tokenColumn)
                consume(from: p, to: q)
                p = q
                continue
            }
            guard p &+ 1 < n else {
                if eof { try sink.text(slice(p, n), isCDATA: false, line: tokenLine, column: tokenColumn); p = n }
                break
            }
            let next = buffer[p &+ 1]
            if next == 0x21 {  // '!'
                if hasPrefix("<!--", at: p) {
                    guard let end = find(sequence: "-->", from: p &+ 4, to: n) else {
                        try incomplete("a comment", start: p, eof: eof, line: tokenLine, column: tokenColumn)
                        break scan
                    }
                    try sink.comment(slice((p &+ 4), end))
                    consume(from: p, to: end &+ 3)
                    p = end &+ 3
                } else if n &- p < 9, !eof {
                    break scan  // too few bytes to tell a CDATA section from a declaration
                } else if hasPrefix("<![CDATA[", at: p) {
                    guard let end = find(sequence: "]]>", from: p &+ 9, to: n) else {
                        try incomplete("a CDATA section", start: p, eof: eof, line: tokenLine, column: tokenColumn)
                        break scan
                    }
                    try sink.text(slice((p &+ 9), end), isCDATA: true, line: tokenLine, column: tokenColumn)
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
                let close = find(sequence: "?>", from: p &+ 2, to: n)
                if let open = find(0x3C, from: p &+ 2, to: close ?? n) {
                    // A `<` before `?>`: the instruction lost its end (`<?OFX ... ?<OFX>`, seen in real
                    // downloads); it ends where the next tag starts. OFX instructions never hold a `<`.
                    let end = open > p &+ 2 && buffer[open &- 1] == 0x3F ? open &- 1 : open
                    try sink.instruction(slice((p &+ 2), end))
                    consume(from: p, to: open)
                    p = open
                    continue
                }
                guard let end = close else {
                    try incomplete("a processing instruction", start: p, eof: eof, line: tokenLine, column: tokenColumn)
                    break scan
                }
                try sink.instruction(slice((p &+ 2), end))
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
                    try sink.endTag(slice(nameStart, nameEnd), line: tokenLine, column: tokenColumn)
                } else {
                    let selfClosing = end > nameStart && buffer[end &- 1] == 0x2F
                    try sink.startTag(slice(nameStart, nameEnd), selfClosing: selfClosing, line: tokenLine,
                                      column: tokenColumn)
                }
                consume(from: p, to: end &+ 1)
                p = end &+ 1
            } else {  // a lone '<' in text
                let q = find(0x3C, from: p &+ 1, to: n) ?? n
                try sink.text(slice(p, q), isCDATA: false, line: tokenLine, column: tokenColumn)
                consume(from: p, to: q)
                p = q
            }
        }
        if sink.isFinished || p >= n {
            base &+= n
            count = 0
        } else {
            storage.update(from: storage + p, count: n &- p)  // overlapping move to the front
            count = n &- p
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
        if count &- start > OFXTokenizer.maxTokenBytes {
            throw error("\(what) that starts here runs past 16 MB without ending", line: line, column: column)
        }
    }

    private func error(_ message: String, line: Int, column: Int) -> CofferError {
        CofferError(.badInput, message, location: SourceLocation(file: file, line: line, column: column))
    }

    /// Counts the line ends in `storage[from..<to]` and moves the position past them.
    private func consume(from start: Int, to end: Int) {
        // Locals, not properties, inside the loop: this runs over every byte of the file.
        var newLine = line, newLineStart = lineStart, wasCR = previousWasCR
        let bytes = storage
        var i = start
        while i < end {
            let b = bytes[i]
            if b > 0x0D {
                wasCR = false
            } else if b == 0x0A {
                if !wasCR { newLine &+= 1 }
                newLineStart = base &+ i &+ 1
                wasCR = false
            } else if b == 0x0D {
                newLine &+= 1
                newLineStart = base &+ i &+ 1
                wasCR = true
            } else {
                wasCR = false
            }
            i &+= 1
        }
        line = newLine
        lineStart = newLineStart
        previousWasCR = wasCR
    }

    private func find(_ byte: UInt8, from start: Int, to end: Int) -> Int? {
        guard start < end, let hit = memchr(storage + start, Int32(byte), end &- start) else { return nil }
        return storage.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    private func find(sequence: StaticString, from start: Int, to end: Int) -> Int? {
        let length = sequence.utf8CodeUnitCount
        let first = sequence.utf8Start.pointee
        var from = start
        while let hit = find(first, from: from, to: end) {
            guard hit &+ length <= end else { return nil }
            var matches = true
            for k in 1..<length where storage[hit &+ k] != sequence.utf8Start[k] { matches = false; break }
            if matches { return hit }
            from = hit &+ 1
        }
        return nil
    }

    private func hasPrefix(_ text: StaticString, at index: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard index &+ length <= count else { return false }
        for k in 0..<length where storage[index &+ k] != text.utf8Start[k] { return false }
        return true
    }

    static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x2D || b == 0x3A
    }
}
