import CofferFormats
import CofferModel
import Foundation

/// Everything a drafted profile says, with the reason for each decision: what `DraftYAML` writes.
struct DraftPlan {
    var id: String
    var fileName: String
    var institution: String
    /// The header names as written; nil for a file without a header (columns by position, `header: none`).
    var headerNames: [String]?
    var encoding: TextEncoding
    var delimiter: UInt8
    var decimalMark: Character
    var thousands: Character?
    var dateFormat: String
    var sign: CSVProfile.SignConvention
    /// Profile key → column index, in YAML order.
    var columns: [(key: String, index: Int)] = []
    var indicatorValues: (debit: [String], credit: [String])?
    var statusValues: [(value: String, status: String)] = []
    var typeValues: [(value: String, type: String)] = []
    var unmappedTypes: [String] = []
    var footerMarkers: [String] = []
    var kind: AccountKind = .asset
    var currency = "USD"
    /// Where the file says its account number: a sentence, and the `number_from` value that reads it.
    var numberHints: [(text: String, numberFrom: String?)] = []
    /// Key (`encoding`, `columns.amount`, `account.kind` …) → the comment written beside it.
    var comments: [String: String] = [:]
    var summary: String = ""
    var notes: [String] = []
}

/// Writes a `DraftPlan` as profile YAML: every string double-quoted (header names hold `:`, `#`, quotes and
/// leading spaces), a comment beside each decision, the notes on top.
enum DraftYAML {
    static func render(_ plan: DraftPlan) -> String {
        var out: [String] = []
        func line(_ text: String, _ comment: String? = nil) {
            guard let comment, !comment.isEmpty else { return out.append(text) }
            out.append(text.padding(toLength: max(text.count, 34), withPad: " ", startingAt: 0) + "  # " + comment)
        }
        out.append("# Drafted by `coffer profile draft` from \(plan.fileName): \(plan.summary).")
        out.append("# Lines marked GUESS are guesses: check them. Try it: coffer parse --profile THIS.yaml FILE; then keep it")
        out.append("# as config/profiles/\(plan.id).yaml (or ~/.config/coffer/profiles/) for coffer import to find it.")
        if !plan.notes.isEmpty {
            out.append("# To check:")
            for note in plan.notes { out.append(contentsOf: wrap("- " + note, indent: "#   ", first: "# ")) }
        }
        line("id: \(quoted(plan.id))", plan.comments["id"])
        line("institution: \(quoted(plan.institution))", "GUESS: from the file name; the bank's display name")
        out.append("match:")
        if let names = plan.headerNames {
            // Blank names (a trailing delimiter) only when a column is read by one.
            let used = Set(plan.columns.map(\.index))
            let listed = names.indices.filter { !CSVProfile.normalizedName(names[$0]).isEmpty || used.contains($0) }
            out.append(contentsOf: flowList("  header: ", listed.map { quoted(names[$0]) }))
        } else {
            line("  file_name: \(quoted(DraftNames.fileGlob(plan.fileName)))", "no header row: files are recognised by name")
            line("header: none", plan.comments["header"])
        }
        line("encoding: \(plan.encoding.rawValue)", plan.comments["encoding"])
        line("delimiter: " + (plan.delimiter == 0x09 ? "tab" : quoted(DraftCSV.label(plan.delimiter))), plan.comments["delimiter"])
        line("decimal_mark: \(quoted(String(plan.decimalMark)))", plan.comments["decimal_mark"])
        line("thousands_separator: \(quoted(plan.thousands.map { String($0) } ?? ""))",
             plan.thousands == " " ? "amounts group thousands with spaces (1 234,56)" : nil)
        line("date_format: \(quoted(plan.dateFormat))", plan.comments["date_format"])
        line("sign: \(plan.sign.rawValue)", plan.comments["sign"])
        out.append("columns:")
        for (key, index) in plan.columns {
            let value = plan.headerNames.map { quoted($0[index]) } ?? String(index + 1)
            line("  \(key): \(value)", plan.comments["columns." + key])
        }
        if let values = plan.indicatorValues {
            out.append("indicator_values:")
            line("  debit: [" + values.debit.map(quoted).joined(separator: ", ") + "]")
            line("  credit: [" + values.credit.map(quoted).joined(separator: ", ") + "]")
        }
        if !plan.statusValues.isEmpty {
            out.append("status_values:")
            for (value, status) in plan.statusValues { line("  \(quoted(value)): \(status)") }
        }
        if !plan.typeValues.isEmpty || !plan.unmappedTypes.isEmpty {
            if !plan.typeValues.isEmpty {
                line("type_values:", "GUESS: from Coffer's type keywords")
                for (value, type) in plan.typeValues { line("  \(quoted(value)): \(type)") }
            }
            if !plan.unmappedTypes.isEmpty {
                out.append(contentsOf: wrap("# Type values left to Coffer's own reading of the text (add them to type_values "
                    + "to say more): " + plan.unmappedTypes.map(quoted).joined(separator: ", "), indent: "#   ", first: ""))
            }
        }
        if !plan.footerMarkers.isEmpty {
            line("footer_markers: [" + plan.footerMarkers.map(quoted).joined(separator: ", ") + "]", plan.comments["footer_markers"])
        }
        out.append("account:")
        out.append("  # Set the account's number or IBAN (number: \"...\") so that the same account in OFX or camt files")
        out.append("  # is this one; until then the name below keeps this account apart from every other.")
        let readable = plan.numberHints.filter { $0.numberFrom != nil }.count
        for hint in plan.numberHints {
            let ask = hint.numberFrom == nil ? "" : readable > 1 ? " To read it from each file, uncomment one:" : " To read it from each file, uncomment:"
            out.append(contentsOf: wrap(hint.text + ask, indent: "  #   ", first: "  # "))
            if let numberFrom = hint.numberFrom { out.append("  # number_from: " + numberFrom) }
        }
        line("  name: \(quoted(plan.id))")
        line("  kind: \(plan.kind.rawValue)", plan.comments["kind"])
        line("  currency: \(quoted(plan.currency))", plan.comments["currency"])
        return out.joined(separator: "\n") + "\n"
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0xFEFF {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `key: [a, b, …]`, continued on further lines (indented past the bracket) when long.
    static func flowList(_ key: String, _ items: [String]) -> [String] {
        var lines: [String] = []
        var current = key + "["
        let indent = String(repeating: " ", count: current.count)
        for (i, item) in items.enumerated() {
            let piece = item + (i < items.count - 1 ? "," : "]")
            if current.count + piece.count + 1 > 110, current != key + "[" {
                lines.append(current)
                current = indent
            } else if current != key + "[" {
                current += " "
            }
            current += piece
        }
        if items.isEmpty { current += "]" }
        lines.append(current)
        return lines
    }

    /// `text` in lines of at most about 110 characters, broken after `at`; the first line starts with `first`.
    static func wrap(_ text: String, indent: String, first: String, at separator: String = " ") -> [String] {
        var lines: [String] = []
        var current = first
        let parts = text.components(separatedBy: separator)
        for (i, part) in parts.enumerated() {
            let piece = part + (i < parts.count - 1 ? separator : "")
            if current.count + piece.count > 110, current.count > indent.count, current != first {
                lines.append(String(current.reversed().drop { $0 == " " }.reversed()))
                current = indent
            }
            current += piece
        }
        lines.append(current)
        return lines
    }
}
