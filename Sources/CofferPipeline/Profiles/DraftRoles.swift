import CofferFormats
import CofferModel
import Foundation

/// The columns besides dates and amounts: what each one is, decided over every data row.
///
/// Status: every value a known status word (`pending`, `Posted`, `gebucht`). Currency: every value a currency code.
/// Id: named like an id or reference, a value in every row and no value twice. Description: the longest free-text
/// column (words, not one value in every row). Merchant, memo, type, category, check number: named so.
struct DraftRoles {
    /// Profile column key → column index, in the order the YAML lists them.
    var columns: [(key: String, index: Int)] = []
    var comments: [String: String] = [:]
    var notes: [String] = []
    var statusValues: [(value: String, status: String)] = []
    var typeValues: [(value: String, type: String)] = []
    var unmappedTypes: [String] = []
    /// The most common value of the currency column.
    var currency: String?
    /// Columns named like an account or card number, and what they hold.
    var accountColumns: [DraftColumn] = []

    private var taken: Set<Int>

    init(taken: Set<Int>) { self.taken = taken }

    func index(_ key: String) -> Int? { columns.first { $0.key == key }?.index }

    private mutating func assign(_ key: String, _ column: DraftColumn, _ comment: String) {
        columns.append((key, column.index))
        taken.insert(column.index)
        comments[key] = comment
    }

    static func decide(_ all: [DraftColumn], taken: Set<Int>) throws -> DraftRoles {
        var roles = DraftRoles(taken: taken)
        func free() -> [DraftColumn] { all.filter { !roles.taken.contains($0.index) && $0.referenceable && !$0.isEmpty } }
        let codes = DraftCurrencies.codes

        // Currency codes, the foreign one by its name.
        for column in free() where column.distinct.allSatisfy({ codes.contains($0) }) {
            let foreign = column.named(DraftVocabulary.foreign)
            if foreign, roles.index("foreign_currency") == nil {
                roles.assign("foreign_currency", column, "named like a foreign currency; every value a currency code")
            } else if !foreign, roles.index("currency") == nil {
                let counts = Dictionary(column.cells.filter { !$0.isEmpty }.map { ($0, 1) }, uniquingKeysWith: +)
                roles.currency = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
                roles.assign("currency", column, "every value a currency code (\(column.distinct.prefix(4).joined(separator: ", ")))")
            }
        }
        if roles.index("foreign_currency") != nil,
           let amount = free().first(where: { $0.amounts != nil && $0.named(DraftVocabulary.foreign) }) {
            roles.assign("foreign_amount", amount, "named like an amount in a foreign currency")
        }
        // Status words.
        for column in free() where column.hasLetters && column.distinct.count <= 12 {
            let values = column.distinct.map(CSVProfile.normalizedName)
            guard values.allSatisfy({ DraftVocabulary.statusValues[$0] != nil }) else { continue }
            roles.statusValues = column.distinct.map { ($0, DraftVocabulary.statusValues[CSVProfile.normalizedName($0)]!) }
            roles.assign("status", column, "only status words: \(column.distinct.prefix(5).joined(separator: ", "))")
            break
        }
        // An id: named so, in every row, never repeated.
        if let column = free().first(where: { $0.named(DraftVocabulary.id) && $0.isFull && $0.cells.count >= 2
                && $0.distinct.count == $0.cells.count && !$0.named(DraftVocabulary.accountNumber) }) {
            roles.assign("id", column, "named like an id; a different value in every row")
        }
        if let column = free().first(where: { $0.named(DraftVocabulary.checkNumber) && !$0.freeText }) {
            roles.assign("check_number", column, "named like a check number")
        }
        if let column = free().first(where: { $0.named(DraftVocabulary.mcc) && $0.distinct.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isNumber) } }) {
            roles.assign("mcc", column, "named like a merchant category code; four digits")
        }
        if let column = free().first(where: { $0.named(DraftVocabulary.category) && $0.hasLetters }) {
            roles.assign("category", column, "named like a category")
        }
        roles.accountColumns = free().filter { $0.named(DraftVocabulary.accountNumber) && !$0.freeText }
        roles.taken.formUnion(roles.accountColumns.map(\.index))

        // The description: the longest free text that is not one value throughout (the holder's own name).
        let texts = free().filter { $0.freeText && !$0.isConstant && $0.amounts == nil }
        let description = texts.max { a, b in
            let fa = a.averageLength * Double(a.nonEmpty), fb = b.averageLength * Double(b.nonEmpty)
            return fa != fb ? fa < fb : (a.named(["description"]) ? 1 : 0) < (b.named(["description"]) ? 1 : 0)
        } ?? free().filter { $0.hasLetters && !$0.isConstant && $0.amounts == nil }.max { $0.averageLength < $1.averageLength }
        guard let description else {
            throw CofferError(.badInput, "cannot draft a profile: no column holds text to describe the transactions "
                              + "(every column is a date, an amount, a code or the same value in every row)")
        }
        roles.assign("description", description, "the longest free text (\(Int(description.averageLength.rounded())) characters on average)")
        if let column = free().filter({ $0.named(DraftVocabulary.merchant) && $0.hasLetters && !$0.isConstant && $0.amounts == nil })
            .max(by: { $0.nonEmpty < $1.nonEmpty }) {
            roles.assign("merchant", column, "named like a merchant or payee")
        }
        if let column = free().first(where: { $0.named(DraftVocabulary.memo) && $0.hasLetters && $0.amounts == nil }) {
            roles.assign("memo", column, "named like a memo or note")
        }
        if let column = free().first(where: { $0.named(DraftVocabulary.type) && $0.hasLetters && $0.amounts == nil && !$0.isConstant }) {
            roles.assign("type", column, "named like a transaction type")
            roles.mapTypes(column)
        }
        for column in all where !roles.taken.contains(column.index) && !column.isEmpty && !column.referenceable {
            roles.notes.append("\(column.label) repeats an earlier header name, so a profile cannot read it")
        }
        return roles
    }

    /// `type_values` for the type column's values that Coffer's own type codes and keywords name.
    private mutating func mapTypes(_ column: DraftColumn) {
        guard column.distinct.count <= 40 else { return }
        for value in column.distinct {
            if TransactionTypeInference.type(forCode: value, indicator: .debit) != nil
                || TransactionTypeInference.type(forCode: value, indicator: .credit) != nil { continue }
            if let type = TransactionTypeKeywords.type(in: value, indicator: .debit)
                ?? TransactionTypeKeywords.type(in: value, indicator: .credit), let name = TransactionType.caseNames[type] {
                typeValues.append((value, name))
            } else {
                unmappedTypes.append(value)
            }
        }
    }
}
