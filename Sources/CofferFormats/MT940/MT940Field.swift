import CofferModel

/// One tagged field of an MT940/MT942 message (`:61:…` with its continuation lines), or the end of a message.
struct MT940Field: Sendable {
    /// The tag without colons: `20`, `25`, `28C`, `60F`, `61`, `86`, `62F`, `13D`, `NS`.
    var tag: String
    /// The value's lines: the rest of the tag's line, then each continuation line, as written.
    var lines: [String]
    /// The line the tag stands on.
    var line: Int

    /// The value as one text: lines joined without a separator (SWIFT breaks lines at a fixed width, inside words).
    var joined: String { lines.joined() }
    /// The first line, without surrounding spaces.
    var first: String { (lines.first ?? "").trimmingCharacters(in: .whitespaces) }
}

/// What the field reader hands out: a field, or the end of a message (a `-` line, `-}` closing a `{4:` block).
enum MT940Token: Sendable {
    case field(MT940Field)
    case messageEnd(line: Int)
}

/// Groups an MT940/MT942 file's lines into tagged fields, as banks really write them.
///
/// - A line starting `:TAG:` (two letters or digits, an optional letter: `:61:`, `:60F:`, `:NS:`) starts a field;
///   any other line continues the open field (a `:86:` runs over several lines; lines over SWIFT's 65 characters
///   are read whole).
/// - SWIFT envelopes are unwrapped: `{1:…}{2:…}{3:…}` blocks are skipped, the text after `{4:` is read, and `-}`
///   (optionally followed by `{5:…}`) ends the message. A line holding only `-` ends a message too.
/// - Lines outside any field (a bank's file header such as `ABNANL2A` / `940`, blank lines) are skipped.
struct MT940FieldReader {
    private var lines: StatementLineReader
    private var open: MT940Field?
    private var queued: [MT940Token] = []
    /// The message type the envelope names (`940`, `942`), when there is one.
    private(set) var messageType: String?

    init(_ lines: StatementLineReader) { self.lines = lines }

    var file: String { lines.file }
    var lineNumber: Int { lines.lineNumber }

    mutating func next() throws -> MT940Token? {
        while queued.isEmpty {
            guard let bytes = try lines.next() else {
                if let field = open { open = nil; return .field(field) }
                return nil
            }
            read(lines.text(bytes), line: lines.lineNumber)
        }
        return queued.removeFirst()
    }

    private mutating func read(_ raw: String, line: Int) {
        var text = Substring(raw)
        // Trailing blanks and control characters (padding, a stray ETX) are not part of a value.
        while let last = text.last, last == " " || last == "\t" || (last.asciiValue ?? 32) < 32 { text.removeLast() }
        if text.hasPrefix("{") {
            if let block4 = text.range(of: "{4:") {
                header(text[..<block4.lowerBound])
                text = text[block4.upperBound...]
                close()
                if text.isEmpty { return }
            } else if !text.hasPrefix("{4") {
                header(text)
                return
            }
        }
        if text.hasPrefix("-") && (text.count == 1 || text.dropFirst().hasPrefix("}")) {
            close()
            queued.append(.messageEnd(line: line))
            return
        }
        if let (tag, rest) = Self.tag(text) {
            close()
            open = MT940Field(tag: tag, lines: [String(rest)], line: line)
            return
        }
        guard !text.isEmpty, open != nil else { return }
        open?.lines.append(String(text))
    }

    private mutating func close() {
        if let field = open { queued.append(.field(field)) }
        open = nil
    }

    /// Notes the message type from an application header block `{2:I940…}` or `{2:O942…}`.
    private mutating func header(_ text: Substring) {
        guard let block2 = text.range(of: "{2:") else { return }
        let body = text[block2.upperBound...].prefix(4)
        if body.count == 4, body.first == "I" || body.first == "O" { messageType = String(body.dropFirst()) }
    }

    /// `:61:rest` → ("61", "rest"); nil when the line does not start with a tag.
    static func tag(_ text: Substring) -> (String, Substring)? {
        guard text.first == ":" else { return nil }
        let body = text.dropFirst()
        guard let colon = body.prefix(4).firstIndex(of: ":") else { return nil }
        let tag = body[..<colon]
        guard tag.count == 2 || tag.count == 3,
              tag.prefix(2).allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) }),
              tag.count == 2 || (tag.last!.isASCII && tag.last!.isUppercase) else { return nil }
        return (String(tag), body[body.index(after: colon)...])
    }
}
