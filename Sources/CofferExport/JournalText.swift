import CofferModel
import Foundation

/// Text made acceptable to each journal tool: account names, commodities, descriptions, metadata values, amounts.
enum JournalText {
    /// An account name each tool accepts, component by component.
    ///
    /// - beancount: each component capitalized, ASCII letters, digits and dashes (`Musterbank Köln eG` →
    ///   `Musterbank-Koln-eG`); accents are dropped and other characters become dashes.
    /// - hledger and ledger: letters of any script, digits, single spaces and `-._&'/`; anything else (the `;` that
    ///   starts a comment, brackets, `••••`, tabs, two spaces that end a name) becomes a space.
    static func account(_ name: String, for format: ExportFormat) -> String {
        name.split(separator: ":", omittingEmptySubsequences: false).map { component in
            let cleaned = format == .beancount ? beancountComponent(String(component)) : plainComponent(String(component))
            return cleaned.isEmpty ? "Unnamed" : cleaned
        }.joined(separator: ":")
    }

    private static func plainComponent(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            let c = Character(scalar)
            return (c.isLetter || c.isNumber || "-._&'/".contains(c)) ? c : " "
        }
        return String(kept).split(separator: " ").joined(separator: " ")
    }

    private static func beancountComponent(_ text: String) -> String {
        var folded = text.folding(options: .diacriticInsensitive, locale: nil)
        for (from, to) in [("ß", "ss"), ("æ", "ae"), ("Æ", "AE"), ("œ", "oe"), ("Œ", "OE"), ("ø", "o"), ("Ø", "O"),
                           ("ł", "l"), ("Ł", "L"), ("đ", "d"), ("Đ", "D"), ("þ", "th"), ("Þ", "Th"), ("ı", "i")] {
            folded = folded.replacingOccurrences(of: from, with: to)
        }
        var out = ""
        var dash = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if dash, !out.isEmpty { out.append("-") }
                dash = false
                out.unicodeScalars.append(scalar)
            } else {
                dash = true
            }
        }
        guard let first = out.first else { return "" }
        return first.uppercased() + out.dropFirst()
    }

    /// A commodity each tool accepts. ISO 4217 codes are commodities as they are; anything else is, for beancount,
    /// uppercased to its characters (`[A-Z][A-Z0-9'._-]*[A-Z0-9]`), and for hledger and ledger quoted when it is
    /// not letters alone.
    static func commodity(_ code: String, for format: ExportFormat) -> String {
        let code = code.trimmingCharacters(in: .whitespaces)
        if code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }) { return code }
        if format == .beancount {
            var text = String(code.uppercased().unicodeScalars.filter {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "'._-".unicodeScalars.contains($0))
            }.map(Character.init))
            while let first = text.first, !first.isLetter { text.removeFirst() }
            while let last = text.last, !(last.isLetter || last.isNumber) { text.removeLast() }
            if text.count < 2 { text = "X" + text + "X" }
            return text
        }
        if !code.isEmpty, code.allSatisfy({ $0.isLetter }) { return code }
        return "\"" + code.replacingOccurrences(of: "\"", with: "") + "\""
    }

    /// An exact amount with at least two decimals, never `-0`.
    static func amount(_ value: Decimal) -> String {
        ExactDecimal.text(value == 0 ? 0 : value, minimumFractionDigits: 2)
    }

    /// One line of text: line breaks and tabs become spaces, runs of spaces one.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == "\t" || $0 == " " }).joined(separator: " ")
    }

    /// A hledger description: `;` starts a comment there and `|` splits payee from note, so they become `,` and `/`.
    static func hledgerDescription(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: ";", with: ",").replacingOccurrences(of: "|", with: "/")
    }

    /// A ledger payee: `;` would start a note, so it becomes `,`.
    static func ledgerPayee(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: ";", with: ",")
    }

    /// A hledger tag value, which ends at a comma: commas become `;` (harmless inside a comment).
    static func hledgerTagValue(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: ",", with: ";")
    }

    /// A beancount string: `"` and `\` escaped, on one line.
    static func beancountString(_ text: String) -> String {
        "\"" + oneLine(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A date as each tool writes it: `2026-03-14` (ledger: `2026/03/14`).
    static func date(day: Int, for format: ExportFormat) -> String {
        let text = CalendarDay.string(day: day)
        return format == .ledger ? text.replacingOccurrences(of: "-", with: "/") : text
    }
}
