/// Byte → text decoding for statement fields, with the rule real files need: valid UTF-8 wins, whatever the
/// file declares (UTF-8 bytes under a `CHARSET:1252` label still read right); otherwise the declared 8-bit
/// charset.
package enum TextEncoding: String, Sendable, Hashable, Codable, CaseIterable {
    case utf8 = "utf-8"
    case windows1252 = "cp1252"
    case latin1 = "latin-1"

    /// Reads a charset name as statements and profiles spell it: `UTF-8`, `utf8`, `1252`, `CP1252`,
    /// `windows-1252`, `ISO-8859-1`, `8859-1`, `latin1`, `NONE` (treated as Windows-1252, a superset of ASCII and
    /// what such files usually are).
    ///
    /// `.latin1` is kept apart so that a profile says what it was given, but it decodes as Windows-1252 does: the
    /// WHATWG Encoding Standard maps every ISO-8859-1 label to windows-1252, because files so labelled hold
    /// Windows' `€ ‚ „ … ‘ ’ “ ” – —` at 0x80–0x9F, never the C1 control characters Latin-1 puts there (camt's
    /// `encoding="ISO-8859-1"` reads the same way, `SingleByteTable`).
    package init?(label: String) {
        let l = label.lowercased().replacingOccurrences(of: "_", with: "-").trimmingCharacters(in: .whitespaces)
        switch l {
        case "utf-8", "utf8", "utf-8-bom", "utf-8-sig", "csunicode", "unicode": self = .utf8
        case "1252", "cp1252", "windows-1252", "win-1252", "none", "us-ascii", "ascii", "ansi": self = .windows1252
        case "iso-8859-1", "8859-1", "iso8859-1", "latin1", "latin-1", "l1": self = .latin1
        default: return nil
        }
    }

    /// Decodes `bytes`: as UTF-8 when they are valid UTF-8, else with this encoding.
    package func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var ascii = true
        for b in bytes where b >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // Invalid UTF-8 under a UTF-8 label: Windows-1252 is what such bytes almost always are. Under a Latin-1
        // label too (see `init(label:)`).
        return String(String.UnicodeScalarView(bytes.map { TextEncoding.cp1252Scalar($0) }))
    }

    static func cp1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        let table: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
            0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
            0x0153, 0x9D, 0x017E, 0x0178,
        ]
        return Unicode.Scalar(table[Int(byte) - 0x80])!
    }
}
