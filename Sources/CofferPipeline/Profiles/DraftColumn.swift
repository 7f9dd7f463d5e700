import CofferFormats
import Foundation

/// What one column holds over every data row of the file: the facts the drafter decides roles from.
struct DraftColumn {
    let index: Int
    /// The header name as written (`""` without a header).
    let name: String
    /// The name folded for matching hints (` amount usd `).
    let folded: String
    /// One trimmed cell per data row.
    let cells: [String]
    let nonEmpty: Int
    /// Distinct non-empty values in order of first appearance.
    let distinct: [String]
    /// The date patterns that read every non-empty cell (none when one is not a date, or all are empty).
    let datePatterns: [DraftDatePattern]
    var isDate: Bool { !datePatterns.isEmpty }
    /// Every non-empty cell's amount, when every non-empty cell is one (and one is not empty).
    let amounts: [Decimal?]?
    /// An amount column that looks like money: cents, or a name that says amount, debit, credit or balance.
    let moneyLike: Bool
    /// Some cell has words (letters and a space), as a description or a name does.
    let freeText: Bool
    let hasLetters: Bool
    let averageLength: Double
    /// The header name finds this column (the parser takes the first column of a name): false for a later
    /// column of a repeated name.
    let referenceable: Bool

    var isFull: Bool { nonEmpty == cells.count }
    var isEmpty: Bool { nonEmpty == 0 }
    /// The same value in every row (the account holder's name, a card number): not a description.
    var isConstant: Bool { cells.count >= 2 && isFull && distinct.count == 1 }
    func named(_ hints: [String]) -> Bool { DraftVocabulary.matches(folded, hints) }
    /// How it is named in comments and notes: `'Betrag (EUR)'`, or `column 3` without a header.
    var label: String { name.isEmpty || folded == "  " ? "column \(index + 1)" : "'\(name)'" }

    static func make(_ layout: DraftLayout, numbers: DraftNumberFormat, datePatterns: [[DraftDatePattern]]) -> [DraftColumn] {
        let names = layout.names
        let normalized = names.map(CSVProfile.normalizedName)
        return (0..<layout.width).map { index in
            let cells = layout.column(index)
            let values = cells.filter { !$0.isEmpty }
            var seen = Set<String>()
            let distinct = values.filter { seen.insert($0).inserted }
            let isDate = !datePatterns[index].isEmpty
            var amounts: [Decimal?]?
            if !values.isEmpty, !isDate {
                let parsed = cells.map(numbers.value)
                if zip(cells, parsed).allSatisfy({ $0.isEmpty || $1 != nil }) { amounts = parsed }
            }
            let name = names.isEmpty ? "" : names[index]
            let folded = DraftVocabulary.fold(name)
            let cents = values.contains { (1...2).contains(numbers.fractionDigits($0)) }
            let moneyName = DraftVocabulary.matches(folded, DraftVocabulary.amount + DraftVocabulary.debit
                                                    + DraftVocabulary.credit + DraftVocabulary.balance)
            let letters = values.contains { $0.contains(where: \.isLetter) }
            return DraftColumn(
                index: index, name: name, folded: folded, cells: cells, nonEmpty: values.count, distinct: distinct,
                datePatterns: datePatterns[index], amounts: amounts, moneyLike: amounts != nil && (cents || moneyName),
                freeText: values.contains { $0.contains(where: \.isLetter) && $0.contains(" ") }, hasLetters: letters,
                averageLength: values.isEmpty ? 0 : Double(values.reduce(0) { $0 + $1.count }) / Double(values.count),
                referenceable: names.isEmpty || normalized.firstIndex(of: normalized[index]) == index)
        }
    }
}
