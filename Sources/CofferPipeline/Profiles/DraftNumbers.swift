import CofferFormats
import Foundation

/// How a file writes numbers: its decimal mark and thousands separator, decided by the amount cells of the whole
/// file (`1.234,56` and `-84,00` say comma, `1,234.56` and `12.5` say point; `1,234` alone says nothing).
struct DraftNumberFormat {
    var decimalMark: Character
    var thousands: Character?
    var comment: String
    var note: String?

    /// The cell's amount under this format, as the parser reads it; nil when empty or not an amount.
    func value(_ cell: String) -> Decimal? {
        cell.isEmpty ? nil : AmountText.parse(cell, decimalMark: decimalMark, thousandsSeparator: thousands)
    }

    /// Digits after the decimal mark (0 when there is none).
    func fractionDigits(_ cell: String) -> Int {
        guard let mark = cell.lastIndex(of: decimalMark) else { return 0 }
        return cell[cell.index(after: mark)...].prefix(while: \.isNumber).count
    }
}

enum DraftNumbers {
    /// Whether a cell reads as an amount under either convention.
    static func looksLikeAmount(_ cell: String) -> Bool {
        // Cheap first: short, a digit, and no lower-case letter (text, dates with month names).
        guard !cell.isEmpty, cell.utf8.count <= 40, cell.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }),
              !cell.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else { return false }
        return AmountText.parse(cell, decimalMark: ".", thousandsSeparator: ",") != nil
            || AmountText.parse(cell, decimalMark: ",", thousandsSeparator: ".") != nil
            || AmountText.parse(cell, decimalMark: ",", thousandsSeparator: " ") != nil
    }

    /// The decimal mark one cell shows, nil when it shows none.
    static func evidence(_ cell: String) -> Character? {
        guard looksLikeAmount(cell) else { return nil }
        let marks = cell.filter { $0 == "." || $0 == "," }
        guard let last = marks.last else { return nil }
        let other: Character = last == "." ? "," : "."
        if marks.contains(other) { return last }          // 1.234,56 / 1,234.56: the last one is decimal
        if marks.count > 1 { return other }               // 1,234,567: grouping, so the other is decimal
        let after = cell[cell.index(after: cell.lastIndex(of: last)!)...].prefix(while: \.isNumber).count
        return after == 3 ? nil : last                    // 1,234 alone could be either
    }

    /// Decides the format from `cells` (every cell of the columns that are not dates); `delimiter` breaks a tie.
    static func format(_ cells: [String], delimiter: UInt8) -> DraftNumberFormat {
        var votes: [Character: Int] = [:]
        var example: [Character: String] = [:]
        for cell in cells {
            guard let mark = evidence(cell) else { continue }
            votes[mark, default: 0] += 1
            if example[mark] == nil || cell.count > example[mark]!.count { example[mark] = cell }
        }
        let comma = votes[",", default: 0], point = votes[".", default: 0]
        var format: DraftNumberFormat
        if comma == 0 && point == 0 {
            let mark: Character = delimiter == UInt8(ascii: ";") ? "," : "."
            format = DraftNumberFormat(decimalMark: mark, thousands: mark == "," ? "." : ",",
                                       comment: "GUESS: no amount shows a decimal mark",
                                       note: "no amount cell shows its decimal mark (no cents, or only 1,234-like cells); "
                                           + "assumed '\(mark)'\(mark == "," ? " as ';' files usually do" : "")")
        } else {
            let mark: Character = comma > point ? "," : "."
            format = DraftNumberFormat(decimalMark: mark, thousands: mark == "," ? "." : ",",
                                       comment: "amounts like \(example[mark] ?? "")", note: nil)
            if comma > 0 && point > 0 {
                format.note = "amount cells disagree on the decimal mark (\(comma) like '\(example[","]!)', "
                    + "\(point) like '\(example["."]!)'); chose '\(mark)'"
                format.comment = "GUESS: " + format.comment
            }
        }
        // Groups by spaces (1 234,56) instead of the usual other mark?
        let mark = format.decimalMark
        let spaced = cells.contains { cell in
            cell.contains(where: { $0 == " " || $0 == "\u{A0}" || $0 == "\u{202F}" }) && looksLikeAmount(cell)
                && AmountText.parse(cell, decimalMark: mark, thousandsSeparator: format.thousands) == nil
                && AmountText.parse(cell, decimalMark: mark, thousandsSeparator: " ") != nil
        }
        if spaced { format.thousands = " " }
        return format
    }
}
