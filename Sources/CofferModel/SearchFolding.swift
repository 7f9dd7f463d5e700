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
/// ASCII text (most bank text) takes a fast path that lowercases byte by byte.
public enum SearchFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        var ascii = true
        for byte in text.utf8 where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii { return foldASCII(text) }
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
    public static func contains(_ text: String, _ query: String) -> Bool {
        let needle = fold(query)
        return needle.isEmpty || fold(text).utf8.firstRange(of: needle.utf8) != nil
    }

    /// Letters Foundation's folding keeps (lowercase, as they are after case folding).
    private static let letters: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i",
        "ħ": "h", "ŧ": "t", "ĳ": "ij", "ŀ": "l",
    ]

    /// Lowercases ASCII letters and collapses runs of spaces and control characters to one space.
    private static func foldASCII(_ text: String) -> String {
        let count = text.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            var lastWasSpace = false
            for byte in text.utf8 {
                if byte <= 0x20 || byte == 0x7F {
                    if !lastWasSpace { buffer[written] = 0x20; written += 1 }
                    lastWasSpace = true
                    continue
                }
                lastWasSpace = false
                buffer[written] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                written += 1
            }
            return written
        }
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
