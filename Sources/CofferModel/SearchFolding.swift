import Foundation

/// Text the way people type it into a search box: lowercase, without diacritics, one space between words.
///
/// For example:
/// ```swift
/// SearchFolding.fold("Café  MÜLLER")   // "cafe muller"
/// SearchFolding.fold("Ålesund Øst")    // "alesund ost"
/// SearchFolding.fold("İSTANBUL ıspanak Straße")  // "istanbul ispanak strasse"
/// ```
/// Coffer's text search (`TransactionQuery.searchText`, `coffer transactions --text`) and account selection
/// (`coffer … --account NAME`) compare folded text with folded text, so `"muller"` finds "Café Müller", `"koln"`
/// finds "Köln" and `"CAFE"` finds "café".
///
/// Folding is Foundation's case and diacritic folding (`folding(options: [.caseInsensitive, .diacriticInsensitive],
/// locale: nil)`, the same on Linux and Apple platforms), then letters that are not a base letter with a mark and
/// so keep their own form there: `ß` → `ss`, `æ` → `ae`, `œ` → `oe`, `ø` → `o`, `đ`/`ð` → `d`, `ł` → `l`,
/// `þ` → `th`, `ı` (dotless i) → `i`, `ħ` → `h`, `ŧ` → `t`, `ĳ` → `ij`. Both Turkish i's fold to `i` (`İ` loses
/// its dot as a diacritic). Letters are folded one to one, not spelled out: `ü` is `u` (not `ue`) and `å` is `a`
/// (not `aa`), so `"mueller"` does not find "Müller" and `"aarhus"` does not find "Århus". Runs of white space and
/// control characters become one space; punctuation and digits stay.
///
/// Text of ASCII and Latin-1 letters (most bank text: English, German, French, Nordic, Spanish) is folded by a
/// table in one pass; other text goes through Foundation.
public enum SearchFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        // Read through a pointer, once: iterating `text.utf8` cost about 17 instructions a byte, and a first pass
        // only to choose the path read it twice (callgrind).
        var contiguous = text
        return contiguous.withUTF8 { foldLatin1($0) } ?? foldWithFoundation(text)
    }

    /// Foundation's folding and the letters it keeps: the reference `fold` agrees with on every text.
    static func foldWithFoundation(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var out = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in folded.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.isWhitespace {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            if let replacement = letters[scalar] {
                out.append(contentsOf: replacement.unicodeScalars)
            } else if scalar.properties.generalCategory != .nonspacingMark {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `text`, folded, contains `query`, folded. An empty query is found everywhere.
    ///
    /// For example, `SearchFolding.contains("Café Müller", "MULLER")` is true.
    package static func contains(_ text: String, _ query: String) -> Bool {
        let needle = fold(query)
        return needle.isEmpty || fold(text).utf8.firstRange(of: needle.utf8) != nil
    }

    /// Letters Foundation's folding keeps (lowercase, as they are after case folding).
    private static let letters: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i",
        "ħ": "h", "ŧ": "t", "ĳ": "ij", "ŀ": "l",
    ]

    /// What U+00C0–U+00FF fold to (the second byte of their UTF-8 `C3 xx` less 0x80); × and ÷ stay.
    private static let latin1: [String] = {
        let table: [(ClosedRange<UInt8>, String)] = [
            (0x00...0x05, "a"), (0x06...0x06, "ae"), (0x07...0x07, "c"), (0x08...0x0B, "e"), (0x0C...0x0F, "i"),
            (0x10...0x10, "d"), (0x11...0x11, "n"), (0x12...0x16, "o"), (0x17...0x17, "×"), (0x18...0x18, "o"),
            (0x19...0x1C, "u"), (0x1D...0x1D, "y"), (0x1E...0x1E, "th"), (0x1F...0x1F, "ss"),
        ]
        var out = [String](repeating: "", count: 64)
        for (range, text) in table {
            for i in range { out[Int(i)] = text; out[Int(i) + 32] = text }
        }
        out[0x37] = "÷"
        out[0x3F] = "y"  // ÿ
        return out
    }()

    /// `latin1` as UTF-8 bytes packed into an integer, the first in the low byte (each is one or two bytes).
    private static let latin1Bytes: [UInt16] = latin1.map { folded in
        folded.utf8.reversed().reduce(UInt16(0)) { $0 << 8 | UInt16($1) }
    }

    /// ASCII and Latin-1 letters (`C3 80`–`C3 BF`) and the no-break space, folded by table; nil for anything else.
    ///
    /// Written straight into the string's storage: appending each letter's folded `String` to an array cost about
    /// 100 instructions a byte (callgrind). ASCII letters are lowercased and runs of spaces and control characters
    /// become one space. No text grows: two bytes fold to at most two, one to at most one.
    private static func foldLatin1(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        let table = latin1Bytes
        var refused = false
        let folded = String(unsafeUninitializedCapacity: text.count) { buffer in
            var written = 0
            var lastWasSpace = false
            var lead: UInt8 = 0
            for byte in text {
                if lead == 0xC2 {
                    lead = 0
                    guard byte == 0xA0 else {
                        refused = true
                        return 0
                    }
                    if !lastWasSpace { buffer[written] = 0x20; written &+= 1 }
                    lastWasSpace = true
                    continue
                }
                if lead == 0xC3 {
                    lead = 0
                    var pair = table[Int(byte & 0x3F)]
                    while pair != 0 {
                        buffer[written] = UInt8(truncatingIfNeeded: pair)
                        written &+= 1
                        pair >>= 8
                    }
                    lastWasSpace = false
                    continue
                }
                if byte == 0xC2 || byte == 0xC3 { lead = byte; continue }
                if byte >= 0x80 {
                    refused = true
                    return 0
                }
                if byte <= 0x20 || byte == 0x7F {
                    if !lastWasSpace { buffer[written] = 0x20; written &+= 1 }
                    lastWasSpace = true
                    continue
                }
                lastWasSpace = false
                buffer[written] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                written &+= 1
            }
            return written
        }
        return refused ? nil : folded
    }
}

extension Transaction {
    /// Whether the description, original description or merchant name contains `text`, both folded
    /// (`SearchFolding`): what `TransactionQuery.searchText` selects, evaluated in Swift.
    ///
    /// For example, a transaction described "CAFÉ MÜLLER KÖLN" matches `"muller"` and `"Koln"`.
    public func matchesSearchText(_ text: String) -> Bool {
        let query = SearchFolding.fold(text)
        if query.isEmpty { return true }
        // Byte for byte, as SQLite's `LIKE` compares the stored folded text.
        func found(_ text: String) -> Bool { SearchFolding.fold(text).utf8.firstRange(of: query.utf8) != nil }
        return found(transactionDescription) || found(originalTransactionDescription) || merchantName.map(found) ?? false
    }
}
