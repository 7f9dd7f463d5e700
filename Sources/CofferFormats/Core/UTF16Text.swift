import CofferModel

/// Statements saved as UTF-16 text: what Windows calls "Unicode" (Notepad's "Save as Unicode", PowerShell 5's
/// `>` and `Out-File`, Excel's "Unicode Text"), and what XML allows every document to be.
///
/// OFX, camt, MT940 and QIF files are read as UTF-8 bytes; a UTF-16 one is recognised by its byte order mark, or,
/// without one, by its first two characters being ASCII with a zero byte beside each (XML 1.0 appendix F: `<?`
/// reads `3C 00 3F 00` in UTF-16LE). Its bytes are then converted to UTF-8 as they are read (`UTF16Transcoder`),
/// so every parser, its limits and its error positions stay as they are: lines are the same lines. CSV files take
/// the same conversion (`CSVInputDecoding`), with or without a BOM.
///
/// For example:
/// ```swift
/// UTF16Text.form(of: [0xFF, 0xFE, 0x3C, 0x00])  // .littleEndian
/// UTF16Text.form(of: Array("<?xml".utf8))        // nil: UTF-8
/// ```
package enum UTF16Text {
    package enum Form: Sendable, Hashable {
        case littleEndian, bigEndian

        /// The encoding's name, as iconv and error messages spell it.
        package var label: String { self == .littleEndian ? "UTF-16LE" : "UTF-16BE" }

        /// The form a label names (a CSV profile's `encoding`): `UTF-16LE`, `UTF-16BE`, or `UTF-16`, big-endian as
        /// iconv reads it without a byte order mark (a file with one is recognised by `form(of:)` first).
        package init?(label: String) {
            switch label.uppercased().replacingOccurrences(of: "_", with: "-") {
            case "UTF-16LE", "UTF16LE": self = .littleEndian
            case "UTF-16BE", "UTF16BE", "UTF-16", "UTF16": self = .bigEndian
            default: return nil
            }
        }
    }

    /// The form of UTF-16 the bytes start in, or nil when they do not look like UTF-16 (UTF-8, 8-bit text, UTF-32).
    package static func form(of prefix: some Collection<UInt8>) -> Form? {
        let b = Array(prefix.prefix(4))
        guard b.count >= 2 else { return nil }
        if b[0] == 0xFF, b[1] == 0xFE { return b.count >= 4 && b[2] == 0 && b[3] == 0 ? nil : .littleEndian }  // FF FE 00 00: UTF-32LE
        if b[0] == 0xFE, b[1] == 0xFF { return .bigEndian }
        guard b.count == 4 else { return nil }
        func ascii(_ c: UInt8) -> Bool { c >= 0x09 && c < 0x80 }
        if ascii(b[0]), b[1] == 0, ascii(b[2]), b[3] == 0 { return .littleEndian }
        if b[0] == 0, ascii(b[1]), b[2] == 0, ascii(b[3]) { return .bigEndian }
        return nil
    }

    /// The first bytes of a file in `form`, as UTF-8, for identifying its format: a byte order mark is dropped, a
    /// half character at the end (where the prefix was cut) is left out, and broken text reads as U+FFFD, so that a
    /// broken file is still identified and its parser reports where it breaks.
    package static func utf8Prefix(of prefix: [UInt8], _ form: Form) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(prefix.count / 2)
        var i = 0
        while i + 1 < prefix.count {
            let (a, b) = (UInt16(prefix[i]), UInt16(prefix[i + 1]))
            units.append(form == .littleEndian ? a | b << 8 : a << 8 | b)
            i += 2
        }
        if units.first == 0xFEFF { units.removeFirst() }
        if let last = units.last, (0xD800...0xDBFF).contains(last) { units.removeLast() }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// `UTF-32LE` or `UTF-32BE` when the bytes start as UTF-32 text (a BOM, or `<` as four bytes), which Coffer
    /// names in its refusal rather than calling the file binary.
    package static func utf32Label(of prefix: some Collection<UInt8>) -> String? {
        let b = Array(prefix.prefix(4))
        guard b.count == 4 else { return nil }
        if b == [0xFF, 0xFE, 0, 0] || (b[0] != 0 && b[0] < 0x80 && b[1] == 0 && b[2] == 0 && b[3] == 0) { return "UTF-32LE" }
        if b == [0, 0, 0xFE, 0xFF] || (b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] != 0 && b[3] < 0x80) { return "UTF-32BE" }
        return nil
    }
}

/// Converts UTF-16 bytes to UTF-8 a chunk at a time: a code unit or surrogate pair cut between chunks is carried
/// over, a leading byte order mark is dropped, and text that is not UTF-16 (an unpaired surrogate, an odd number
/// of bytes) is an error naming the line and byte where it was found, never replacement characters in the data.
package struct UTF16Transcoder {
    let form: UTF16Text.Form
    let file: String
    /// A byte of a code unit whose other byte is in the next chunk.
    private var pendingByte: UInt8?
    /// A high surrogate waiting for its low half.
    private var pendingHigh: UInt16?
    /// Bytes read so far, and the line being read (counting from 1), for errors.
    private var offset = 0
    private var line = 1
    private var atStart = true

    /// Why the bytes are read as UTF-16, for errors: the file starts as UTF-16, or a CSV profile's encoding says so.
    let reason: String

    package init(form: UTF16Text.Form, file: String, reason: String = "the file starts as UTF-16") {
        self.form = form
        self.file = file
        self.reason = reason
    }

    private func failure(_ message: String, at byte: Int) -> CofferError {
        CofferError(.badInput, "expected \(form.label) text (\(reason)), found \(message) at byte \(byte)",
                    location: SourceLocation(file: file, line: line))
    }

    /// The UTF-8 bytes of `chunk`, after whatever earlier chunks left over.
    ///
    /// Written into the array's storage, with a path of its own for ASCII (two bytes in, one out): converting each
    /// code unit through `UTF8.encode` and `append` took a 1M-row UTF-16 CSV import 15% more CPU than iconv did.
    package mutating func transcode(_ chunk: [UInt8]) throws -> [UInt8] {
        let little = form == .littleEndian
        let base = offset
        offset &+= chunk.count
        // Each 2-byte code unit gives at most 3 bytes; a unit completed from the previous chunk (its other byte, or
        // the low half of a surrogate pair) at most 4.
        return try Array(unsafeUninitializedCapacity: chunk.count &+ chunk.count / 2 &+ 8) { out, written in
            written = 0
            var n = 0
            try chunk.withUnsafeBufferPointer { c in
                let count = c.count
                var i = 0
                if let first = pendingByte, count > 0 {
                    pendingByte = nil
                    let unit = little ? UInt16(first) | UInt16(c[0]) << 8 : UInt16(first) << 8 | UInt16(c[0])
                    i = 1
                    try take(unit, at: base &- 1, out, &n)
                }
                while i &+ 1 < count {
                    let unit = little ? UInt16(c[i]) | UInt16(c[i &+ 1]) << 8 : UInt16(c[i]) << 8 | UInt16(c[i &+ 1])
                    if unit < 0x80, pendingHigh == nil, !atStart {
                        out[n] = UInt8(truncatingIfNeeded: unit)
                        n &+= 1
                        if unit == 0x0A { line &+= 1 }
                    } else {
                        try take(unit, at: base &+ i, out, &n)
                    }
                    i &+= 2
                }
                if i < count { pendingByte = c[i] }
            }
            written = n
        }
    }

    /// Checks that the text ended whole: no half code unit, no high surrogate without its low half.
    package func finish() throws {
        if pendingByte != nil {
            throw failure("an odd number of bytes (the last character is cut in half: a truncated file?)", at: offset - 1)
        }
        if let high = pendingHigh {
            throw failure("a lone high surrogate \(hex(high)) at the end of the file", at: offset - 2)
        }
    }

    private func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// One code unit that is not plain ASCII, or comes first or after a high surrogate: the byte order mark is
    /// dropped, surrogates are paired, and the scalar is written as UTF-8 at `out[n]`.
    private mutating func take(_ unit: UInt16, at unitOffset: Int, _ out: UnsafeMutableBufferPointer<UInt8>, _ n: inout Int) throws {
        if atStart {
            atStart = false
            if unit == 0xFEFF { return }
        }
        let scalar: UInt32
        if let high = pendingHigh {
            guard (0xDC00...0xDFFF).contains(unit) else {
                throw failure("a high surrogate \(hex(high)) not followed by a low one", at: unitOffset - 2)
            }
            pendingHigh = nil
            scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
        } else if (0xD800...0xDBFF).contains(unit) {
            pendingHigh = unit
            return
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw failure("a low surrogate \(hex(unit)) without a high one before it", at: unitOffset)
        } else {
            scalar = UInt32(unit)
        }
        if scalar < 0x80 {
            if scalar == 0x0A { line += 1 }
            out[n] = UInt8(truncatingIfNeeded: scalar)
            n &+= 1
        } else if scalar < 0x800 {
            out[n] = 0xC0 | UInt8(truncatingIfNeeded: scalar >> 6)
            out[n &+ 1] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
            n &+= 2
        } else if scalar < 0x10000 {
            out[n] = 0xE0 | UInt8(truncatingIfNeeded: scalar >> 12)
            out[n &+ 1] = 0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F)
            out[n &+ 2] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
            n &+= 3
        } else {
            out[n] = 0xF0 | UInt8(truncatingIfNeeded: scalar >> 18)
            out[n &+ 1] = 0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F)
            out[n &+ 2] = 0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F)
            out[n &+ 3] = 0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F)
            n &+= 4
        }
    }
}

/// A parser of UTF-8 statements reading a UTF-16 file: the same parser over the file's bytes converted as read.
package struct UTF16StatementParser: StatementParser {
    package let form: UTF16Text.Form
    package let inner: any StatementParser

    package init(form: UTF16Text.Form, inner: any StatementParser) {
        self.form = form
        self.inner = inner
    }

    package func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        try inner.parse(input.decodingUTF16(form), emit: emit)
    }
}
