import CofferModel

/// Reads the first bytes of a file: whether it is a camt document, which version, and whether its prolog is safe.
///
/// For example:
/// ```swift
/// CamtProlog.namespaceVersion(Array(#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">"#.utf8))
/// // "camt.053.001.08"
/// ```
enum CamtProlog {
    /// How many leading bytes are read: the root element must start within them.
    static let prefixLength = 64 * 1024

    static let namespaceStem = "urn:iso:std:iso:20022:tech:xsd:"
    private static let camtStem = Array((namespaceStem + "camt.05").utf8)

    /// The message version (`camt.053.001.08`) of the first camt.052/053/054 namespace declared in the bytes, when
    /// they look like XML (optional BOM and whitespace, then `<`).
    static func namespaceVersion(_ prefix: [UInt8]) -> String? {
        var start = 0
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < prefix.count, isSpace(prefix[start]) { start += 1 }
        guard start < prefix.count, prefix[start] == UInt8(ascii: "<") else { return nil }
        let stem = camtStem
        var i = start
        while i + stem.count + 9 <= prefix.count {
            if prefix[i] == stem[0], prefix[i..<(i + stem.count)].elementsEqual(stem) {
                // After the stem: [234] ".001." NN and the closing quote.
                let tail = prefix[(i + stem.count)..<(i + stem.count + 9)]
                let t = Array(tail)
                if (0x32...0x34).contains(t[0]), t[1...5].elementsEqual(Array(".001.".utf8)),
                   isDigit(t[6]), isDigit(t[7]), t[8] == UInt8(ascii: "\"") || t[8] == UInt8(ascii: "'") {
                    return "camt.05" + String(decoding: t[0..<8], as: UTF8.self)
                }
            }
            i += 1
        }
        return nil
    }

    /// Checks the prolog before XMLParser sees it: the root element starts within the prefix, after only an XML
    /// declaration, comments, processing instructions and a DOCTYPE without an internal subset. An internal subset
    /// is where entity declarations live (the "billion laughs" bomb), and camt never needs one.
    ///
    /// The text must be UTF-8 (ISO 20022 says so) or declare an encoding libxml2 decodes itself (`safeEncodings`):
    /// libxml2 2.9 dereferences NULL when an iconv conversion of the first chunk fails (`encoding="UTF-7"`, or
    /// `windows-1252` over an undefined byte such as 0x81), so other labels and UTF-16/32 text never reach it.
    ///
    /// `convertedFrom` names the encoding the bytes were converted from (UTF-16, by its BOM or first characters):
    /// the declaration's label then describes the file, and is not checked against the UTF-8 bytes.
    static func check(_ prefix: [UInt8], file: String, convertedFrom: String? = nil) throws {
        var i = 0
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func fail(_ message: String) -> CofferError {
            let (line, column) = position(prefix, upTo: i)
            return CofferError(.badInput, message, location: SourceLocation(file: file, line: line, column: column))
        }
        // NUL padding after the text (a block-sized copy) is left to the parse, which reads the document before it.
        // Never in the first four bytes: libxml2 guesses UTF-16 or UCS-4 from a zero byte there and switches to an
        // iconv conversion that crashes libxml2 2.9 when it fails (`3C 00 00 00`, found by CamtFuzz).
        if let nul = prefix.firstIndex(of: 0), nul < 4 || !prefix[nul...].allSatisfy(StatementInput.isPadding) {
            i = nul
            throw fail("expected UTF-8 XML text, found a NUL byte (UTF-16 or UTF-32 text, or binary data)")
        }
        if convertedFrom == nil, has(prefix, at: i, "<?xml"), let label = declaredEncoding(prefix, from: i &+ 5),
           !safeEncodings.contains(label.uppercased()) {
            throw fail("expected a camt file in UTF-8, found encoding=\"\(label)\" in the XML declaration "
                + "(ISO 20022 messages are UTF-8; convert the file first)")
        }
        while true {
            while i < prefix.count, isSpace(prefix[i]) { i += 1 }
            guard i < prefix.count else {
                throw fail(prefix.count >= prefixLength
                    ? "expected the camt Document element within the first \(prefixLength / 1024) KiB, found none"
                    : "expected an XML document with a camt Document element, found \(prefix.isEmpty ? "an empty file" : "no element")")
            }
            guard prefix[i] == UInt8(ascii: "<") else {
                throw fail("expected an XML document starting with '<', found '\(String(decoding: prefix[i..<min(i + 20, prefix.count)], as: UTF8.self))'")
            }
            if has(prefix, at: i, "<?") {
                i = skip(prefix, from: i + 2, past: "?>")
            } else if has(prefix, at: i, "<!--") {
                i = skip(prefix, from: i + 4, past: "-->")
            } else if has(prefix, at: i, "<!DOCTYPE") {
                var j = i + 9
                while j < prefix.count, prefix[j] != UInt8(ascii: ">") {
                    if prefix[j] == UInt8(ascii: "[") {
                        i = j
                        throw fail("expected no DTD: a DOCTYPE with an internal subset (entity declarations) is refused "
                            + "as unsafe, and camt files never need one")
                    }
                    j += 1
                }
                i = j + 1
            } else {
                return
            }
        }
    }

    /// How a file's bytes must be converted before libxml2 reads them (`TextConversion`), or nil when they are
    /// UTF-8 as they stand. libxml2 is only ever given UTF-8:
    /// - a declared encoding other than UTF-8 is converted by Coffer (`SingleByteDecoder`), unless a UTF-8 byte
    ///   order mark says otherwise;
    /// - a `UTF-16` or `UTF-32` label on bytes that are not (UTF-16 files are converted before this is asked) is a
    ///   mislabelled UTF-8 file, read as one;
    /// - bytes that are not valid UTF-8 in the first 64 KiB (a bank writing ISO-8859-15 or Windows-1252 without
    ///   saying so) are read with each invalid byte as Windows-1252, as every other format's text is.
    static func conversion(_ prefix: [UInt8]) -> TextConversion? {
        var i = 0
        let bom = prefix.starts(with: [0xEF, 0xBB, 0xBF])
        if bom { i = 3 }
        if !bom, has(prefix, at: i, "<?xml"), let label = declaredEncoding(prefix, from: i &+ 5) {
            let upper = label.uppercased()
            if upper.hasPrefix("UTF-16") || upper.hasPrefix("UTF16") || upper.hasPrefix("UTF-32") || upper.hasPrefix("UCS") {
                return .utf8Repairing
            }
            if upper != "UTF-8", upper != "UTF8" { return .singleByte(label) }
        }
        return isValidUTF8Prefix(prefix) ? nil : .utf8Repairing
    }

    /// Encoding labels libxml2 decodes without iconv, where no byte sequence makes the conversion fail.
    static let safeEncodings: Set<String> = ["UTF-8", "UTF8", "US-ASCII", "ASCII", "ISO-8859-1", "ISO-LATIN-1", "LATIN1"]

    /// The `encoding` value of the XML declaration whose content starts at `start`, if it has one.
    private static func declaredEncoding(_ b: [UInt8], from start: Int) -> String? {
        let end = min(skip(b, from: start, past: "?>"), b.count)
        guard start < end else { return nil }
        let declaration = String(decoding: b[start..<end], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote && $0 != "?" })
    }

    private static func has(_ b: [UInt8], at i: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        return text.withUTF8Buffer { b[i..<(i + count)].elementsEqual($0) }
    }

    /// The index after `end`, or the end of the bytes.
    private static func skip(_ b: [UInt8], from start: Int, past end: StaticString) -> Int {
        var i = start
        while i < b.count {
            if has(b, at: i, end) { return i + end.utf8CodeUnitCount }
            i += 1
        }
        return b.count
    }

    private static func position(_ b: [UInt8], upTo end: Int) -> (Int, Int) {
        var line = 1
        var column = 1
        for byte in b.prefix(end) {
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
