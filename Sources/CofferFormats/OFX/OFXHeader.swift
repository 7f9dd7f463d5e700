import CofferModel

/// What comes before `<OFX>`: the SGML header lines (`CHARSET:1252`), the XML declaration's `encoding`, and the
/// `<?OFX ...?>` instruction. Only the character set matters to the parser.
///
/// For example:
/// ```swift
/// var header = OFXHeader()
/// try Array("OFXHEADER:100 DATA:OFXSGML CHARSET:8859-1".utf8).withUnsafeBufferPointer {
///     try header.append($0, file: "a.ofx", line: 1, column: 1)
/// }
/// header.encoding   // .latin1
/// ```
/// Header fields are read as `KEY:VALUE` words separated by any whitespace, so a header written on one line, or
/// inside a comment, reads the same. The XML `encoding` wins over `CHARSET`, which wins over `ENCODING`; with
/// none, Windows-1252 (`TextEncoding` decodes valid UTF-8 as UTF-8 whatever the label says).
struct OFXHeader {
    private var bytes: [UInt8] = []
    private var xmlEncoding: String?

    /// True when nothing but whitespace came before the end of the input.
    var isEmpty: Bool { !bytes.contains { !OFXText.isSpace($0) } && xmlEncoding == nil }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>, file: String, line: Int, column: Int) throws {
        guard bytes.count &+ text.count <= OFXElementReader.maxHeaderBytes else {
            throw CofferError(.badInput, "not an OFX file: no <OFX> element in the first 64 KB",
                              location: SourceLocation(file: file, line: line, column: column))
        }
        bytes.append(contentsOf: text)
        bytes.append(0x20)
    }

    /// Reads `encoding="..."` from `<?xml ...?>`.
    mutating func readInstruction(_ content: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: content, as: UTF8.self)
        guard text.lowercased().hasPrefix("xml"), let range = text.range(of: "encoding") else { return }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
        xmlEncoding = String(rest.dropFirst().prefix { $0 != quote })
        if bytes.count < OFXElementReader.maxHeaderBytes { bytes.append(0x20) }
    }

    private var fields: [String: String] {
        var fields: [String: String] = [:]
        let words = String(decoding: bytes, as: UTF8.self).split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        for word in words {
            guard let colon = word.firstIndex(of: ":") else { continue }
            fields[word[..<colon].uppercased()] = String(word[word.index(after: colon)...])
        }
        return fields
    }

    /// The declared character set, read with `TextEncoding(label:)`.
    var encoding: TextEncoding {
        let fields = fields
        for label in [xmlEncoding, fields["CHARSET"], fields["ENCODING"]] {
            if let label, let encoding = TextEncoding(label: label) { return encoding }
        }
        return .windows1252
    }

    /// The declared character set when it is another single-byte one (`CHARSET:1251`, `CHARSET:8859-2`,
    /// `encoding="ISO-8859-15"`): the table text fields that are not valid UTF-8 are read with. Nil for UTF-8,
    /// Windows-1252 and Latin-1 (`encoding`), and for a label iconv does not know or that is not single-byte.
    var singleByteTable: SingleByteTable? {
        let fields = fields
        guard let label = [xmlEncoding, fields["CHARSET"]].compactMap({ $0 }).first(where: { $0.uppercased() != "NONE" }),
              TextEncoding(label: label) == nil else { return nil }
        return try? SingleByteTable(label: label)
    }

    /// Whether the first bytes of a file look like OFX: a BOM, blank lines, `<?xml ...?>`, `<?OFX ...?>`,
    /// `<!DOCTYPE>` and comments may come first; then `OFXHEADER:` or an `<OFX>` element. A comment holding
    /// `OFXHEADER` also counts.
    static func sniff(_ prefix: [UInt8]) -> Bool {
        strictSniff(prefix) || wrappedSniff(prefix)
    }

    /// Text lines before the header (a saved HTTP response's `Content-Type:` lines, a bank's banner line) are
    /// skipped when the body is unmistakably OFX: an `OFXHEADER:` field at the start of a line followed by an
    /// `<OFX>` element, or an `<OFX>` element whose first child is a sign-on or message-set response.
    static func wrappedSniff(_ prefix: [UInt8]) -> Bool {
        guard !prefix.contains(0) else { return false }
        let upper = prefix.map(upper)
        guard let ofx = find(Array("<OFX>".utf8), in: upper, from: 0) else { return false }
        if let header = find(Array("OFXHEADER:".utf8), in: upper, from: 0), header < ofx,
           header == 0 || upper[header &- 1] == 0x0A || upper[header &- 1] == 0x0D {
            return true
        }
        var i = ofx &+ 5
        while i < upper.count, OFXText.isSpace(upper[i]) { i &+= 1 }
        return matches(upper, at: i, "<SIGNONMSGSRSV1>")
    }

    private static func strictSniff(_ prefix: [UInt8]) -> Bool {
        var i = 0
        let n = prefix.count
        if n >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { i = 3 }
        while i < n {
            while i < n, OFXText.isSpace(prefix[i]) { i &+= 1 }
            guard i < n else { return false }
            if matches(prefix, at: i, "OFXHEADER") { return true }
            guard prefix[i] == 0x3C, i &+ 1 < n else { return false }
            let next = prefix[i &+ 1]
            if next == 0x3F || next == 0x21 {  // <?...?>, <!-- -->, <!DOCTYPE>
                let isComment = matches(prefix, at: i, "<!--")
                let terminator: [UInt8] = isComment ? [0x2D, 0x2D, 0x3E] : (next == 0x3F ? [0x3F, 0x3E] : [0x3E])
                guard let end = find(terminator, in: prefix, from: i &+ 2) else { return false }
                if isComment, find(Array("OFXHEADER".utf8), in: prefix[..<end].map { upper($0) }, from: i) != nil {
                    return true
                }
                i = end &+ terminator.count
                continue
            }
            return matches(prefix, at: i, "<OFX>") || matches(prefix, at: i, "<OFX ")
        }
        return false
    }

    private static func upper(_ b: UInt8) -> UInt8 { (b >= 0x61 && b <= 0x7A) ? b &- 0x20 : b }

    private static func matches(_ bytes: [UInt8], at index: Int, _ text: String) -> Bool {
        let wanted = Array(text.utf8)
        guard index &+ wanted.count <= bytes.count else { return false }
        for k in 0..<wanted.count where upper(bytes[index &+ k]) != wanted[k] { return false }
        return true
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count &- needle.count else { return nil }
        for i in start...(bytes.count &- needle.count) where bytes[i] == needle[0] {
            if bytes[i..<(i &+ needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }
}
