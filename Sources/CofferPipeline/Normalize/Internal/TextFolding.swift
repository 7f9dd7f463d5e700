/// Receives folded symbols one at a time.
protocol SymbolSink {
    mutating func emit(_ symbol: UInt8)
}

/// Folds text into the small alphabet the phrase automaton runs on.
///
/// For example, `"McDonald's  #1234, SAN-JOSÉ"` folds to the symbols of `mcdonalds 1234 san jose`:
/// ASCII letters are lowercased, Latin-1 letters lose their accents (`ß` → `ss`), apostrophes vanish, and every
/// run of other punctuation or white space becomes one space. Any other non-ASCII scalar becomes one
/// `other` symbol, so it can never match an ASCII pattern by accident.
///
/// Hand-written over UTF-8 bytes (not `lowercased()` + `Regex`) because it runs several times per transaction.
enum TextFolding {
    /// Symbols 0–9 are digits, 10–35 letters, then these three.
    static let space: UInt8 = 36
    static let other: UInt8 = 37
    /// Marks the start of the text, so a pattern can be anchored as a prefix.
    static let start: UInt8 = 38
    static let alphabetSize = 39

    /// Calls `emit` with the start marker, a space, the folded text, and a closing space.
    static func forEachSymbol(in text: String, _ emit: (UInt8) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureSink(body: emit)
            fold(text, into: &sink)
        }
    }

    private struct ClosureSink: SymbolSink {
        let body: (UInt8) -> Void
        mutating func emit(_ symbol: UInt8) { body(symbol) }
    }

    /// Feeds the start marker, a space, the folded text and a closing space to `sink` (statically dispatched, so
    /// the automaton's step inlines into this loop).
    @inline(__always)
    static func fold<Sink: SymbolSink>(_ text: String, into sink: inout Sink) {
        var text = text
        text.withUTF8 { bytes in
            func emit(_ symbol: UInt8) { sink.emit(symbol) }
            emit(start)
            emit(space)
            var lastWasSpace = true
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                index &+= 1
                if byte < 0x80 {
                    if byte >= 0x61 && byte <= 0x7A { emit(byte &- 0x61 &+ 10); lastWasSpace = false }
                    else if byte >= 0x41 && byte <= 0x5A { emit(byte &- 0x41 &+ 10); lastWasSpace = false }
                    else if byte >= 0x30 && byte <= 0x39 { emit(byte &- 0x30); lastWasSpace = false }
                    else if byte == 0x27 || byte == 0x60 { continue }
                    else if !lastWasSpace { emit(space); lastWasSpace = true }
                } else if byte == 0xC3, index < count {
                    let folded = latin1Fold(bytes[index])
                    index &+= 1
                    if folded.0 == 0 {
                        if !lastWasSpace { emit(space); lastWasSpace = true }
                    } else {
                        emit(folded.0)
                        if folded.1 != 0 { emit(folded.1) }
                        lastWasSpace = false
                    }
                } else if byte == 0xE2, index &+ 1 < count, bytes[index] == 0x80, bytes[index &+ 1] == 0x99 {
                    index &+= 2  // ’ (right single quotation mark) is an apostrophe
                } else if byte == 0xC2 {
                    index &+= 1  // U+0080–U+00BF: no-break space and Latin-1 punctuation
                    if !lastWasSpace { emit(space); lastWasSpace = true }
                } else if byte >= 0xC0 {
                    emit(other)
                    lastWasSpace = false
                }  // continuation bytes of other scalars are skipped
            }
            if !lastWasSpace { emit(space) }
        }
    }

    /// The folded symbols of a pattern, trimmed (no start marker, no surrounding spaces).
    static func symbols(of text: String) -> [UInt8] {
        var result: [UInt8] = []
        forEachSymbol(in: text) { result.append($0) }
        // Drop the start marker and the spaces around the text.
        let trimmed = result.dropFirst(2)
        return trimmed.last == space ? Array(trimmed.dropLast()) : Array(trimmed)
    }

    /// The folded text as a plain lowercase ASCII string (for keys and messages).
    static func key(of text: String) -> String {
        String(decoding: symbols(of: text).map(character), as: UTF8.self)
    }

    private static func character(_ symbol: UInt8) -> UInt8 {
        switch symbol {
        case 0...9: return symbol &+ 0x30
        case 10...35: return symbol &- 10 &+ 0x61
        case space: return 0x20
        default: return 0x3F
        }
    }

    private static func letter(_ ascii: Character) -> UInt8 {
        (ascii.asciiValue ?? 0x61) &- 0x61 &+ 10
    }

    /// The second byte of a `C3 xx` sequence (U+00C0–U+00FF) → up to two letter symbols; `(0, 0)` for × and ÷.
    @inline(__always)
    private static func latin1Fold(_ byte: UInt8) -> (UInt8, UInt8) {
        let base = byte & 0xDF  // fold lowercase (E0–FF) onto uppercase (C0–DF), except ß/ÿ handled below
        if byte == 0x9F { return (letter("s"), letter("s")) }
        if byte == 0xBF { return (letter("y"), 0) }
        switch base {
        case 0x80...0x85: return (letter("a"), 0)
        case 0x86: return (letter("a"), letter("e"))
        case 0x87: return (letter("c"), 0)
        case 0x88...0x8B: return (letter("e"), 0)
        case 0x8C...0x8F: return (letter("i"), 0)
        case 0x90: return (letter("d"), 0)
        case 0x91: return (letter("n"), 0)
        case 0x92...0x96, 0x98: return (letter("o"), 0)
        case 0x99...0x9C: return (letter("u"), 0)
        case 0x9D: return (letter("y"), 0)
        case 0x9E: return (letter("t"), letter("h"))
        case 0x97: return (0, 0)
        default: return (other, 0)
        }
    }
}
