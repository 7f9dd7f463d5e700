import CofferFormats
import CofferModel
import Foundation

/// A CSV profile drafted from one export: the YAML to save under `config/profiles/`, and what to check in it.
package struct CSVProfileDraft: Sendable {
    /// The drafted profile's id (from the file name).
    package let id: String
    /// The profile as YAML, with a comment beside each decision; guesses say `GUESS`.
    package let yaml: String
    /// What the drafter could not decide for sure, or found wrong when it read the file back: sentences to check.
    package let notes: [String]
    /// The data rows the draft reads (preamble, header and footer not counted).
    package let dataRows: Int
    /// Whether the drafted profile loaded and read the file back row for row as drafted.
    package let verified: Bool
}

/// Drafts a CSV profile from an export for which Coffer has none.
///
/// For example:
/// ```swift
/// let draft = try CSVProfileDrafter.draft(bytes: Array(data), fileName: "export.csv")
/// print(draft.yaml)                        // id: "export" … columns: { date: "Date", amount: "Amount", … }
/// draft.notes.forEach { print("note:", $0) }
/// ```
/// A pure function of the file's bytes and name, deciding from the whole file, never row by row: encoding,
/// delimiter, preamble, header (or none), data rows and footer (`DraftLayout`), decimal mark (`DraftNumbers`),
/// date columns and pattern (`DraftDates`), amount form and sign (`DraftAmounts`), the other columns
/// (`DraftRoles`) and the account (`DraftAccount`). Then it loads the YAML with the profile loader and parses
/// the file with it; a difference from what it drafted becomes a note. Throws `.badInput` saying what it could
/// not decide (no column of dates, no amounts, no text).
package enum CSVProfileDrafter {
    /// `id` names the profile (letters, digits, `-`, `_`, `.`); without one it comes from the file name.
    package static func draft(bytes: [UInt8], fileName: String, id: String? = nil) throws -> CSVProfileDraft {
        let name = (fileName as NSString).lastPathComponent
        if let id, !isValidID(id) {
            throw CofferError(.usage, "'\(id)' cannot be a profile id: use letters, digits, '-', '_' or '.'")
        }
        let text = try DraftText.read(bytes, fileName: name)
        let layout = try DraftLayout.best(text, fileName: name)
        let datePatterns = (0..<layout.width).map { DraftDates.patterns(reading: layout.column($0)) }
        let nonDate = (0..<layout.width).filter { datePatterns[$0].isEmpty }.flatMap(layout.column)
        let numbers = DraftNumbers.format(nonDate, delimiter: layout.delimiter)
        let columns = DraftColumn.make(layout, numbers: numbers, datePatterns: datePatterns)
        let currency = DraftAccount.currency(columns, layout, numbers)

        // Dates: the first full date column not named like a posting date, and a second one as the posted date.
        let full = columns.filter { $0.isDate && $0.isFull && $0.referenceable }
        guard let date = full.first(where: { !$0.named(DraftVocabulary.postedDate) }) ?? full.first else {
            throw CofferError(.badInput, "cannot draft a profile: no column holds a date in every data row",
                              location: SourceLocation(file: name))
        }
        var patterns = date.datePatterns
        var posted: DraftColumn?
        var plan = DraftPlan(id: id ?? DraftNames.id(fileName: name), fileName: name, institution: "", headerNames: nil,
                             encoding: text.encoding, delimiter: layout.delimiter, decimalMark: numbers.decimalMark,
                             thousands: numbers.thousands, dateFormat: "", sign: .creditPositive)
        let others = columns.filter { $0.isDate && $0.referenceable && $0.index != date.index }
        for other in others.sorted(by: { ($0.named(DraftVocabulary.postedDate) ? 0 : 1, $0.index) < ($1.named(DraftVocabulary.postedDate) ? 0 : 1, $1.index) }) {
            let readable = Set(other.datePatterns.map(\.pattern))
            let shared = patterns.filter { readable.contains($0.pattern) }
            if shared.isEmpty {
                plan.notes.append("\(other.label) holds dates in another pattern than \(date.label): not read as the posted date")
                continue
            }
            posted = other
            patterns = shared
            break
        }
        let hint: (dayFirst: Bool, reason: String) = currency.certain && currency.code == "USD"
            ? (false, "the amounts are in USD and US banks write the month first")
            : numbers.decimalMark == "," ? (true, "the amounts use a decimal comma, as banks writing the day first do")
            : currency.certain ? (true, "the amounts are in \(currency.code), where banks write the day first")
            : (true, "outside the US banks write the day first, and nothing in the file says USD")
        guard let choice = DraftDates.choose(patterns, dates: date.cells, columnName: date.label, dayFirstHint: hint) else {
            throw CofferError(.badInput, "cannot draft a profile: no single date pattern reads \(date.label)", location: SourceLocation(file: name))
        }
        plan.dateFormat = choice.pattern.pattern
        plan.comments["date_format"] = choice.comment
        if let note = choice.note { plan.notes.append(note) }

        var taken: Set<Int> = [date.index]
        if let posted { taken.insert(posted.index) }
        let amounts = try DraftAmounts.decide(columns, taken: taken, fileName: name)
        taken.formUnion(amounts.used)
        if let balance = amounts.balance { taken.insert(balance) }
        let roles = try DraftRoles.decide(columns, taken: taken)

        // The plan, key by key.
        plan.headerNames = layout.header == nil ? nil : layout.names
        plan.institution = DraftNames.institution(id: plan.id)
        plan.comments["id"] = id == nil ? "from the file name; --profile names it" : "--profile names it"
        plan.comments["encoding"] = text.reason
        let agreeing = layout.data.filter { layout.rows[$0].cells.count >= layout.width }.count
        plan.comments["delimiter"] = "\(agreeing) data rows split into \(layout.width) cells"
        plan.comments["decimal_mark"] = numbers.comment
        if let note = numbers.note { plan.notes.append(note) }
        plan.columns.append(("date", date.index))
        plan.comments["columns.date"] = "a date in every data row" + (full.count > 1 ? "; the first such column" : "")
        if let posted {
            plan.columns.append(("posted_date", posted.index))
            plan.comments["columns.posted_date"] = posted.named(DraftVocabulary.postedDate)
                ? "named like a posting or value date" : "GUESS: a second column of dates"
        }
        switch amounts.form {
        case .signed(let a): plan.columns.append(("amount", a))
        case .debitCredit(let d, let c): plan.columns += [("debit", d), ("credit", c)]
        case .indicator(let a, let i, let debit, let credit):
            plan.columns += [("amount", a), ("indicator", i)]
            plan.indicatorValues = (debit, credit)
        }
        if let fee = amounts.fee { plan.columns.append(("fee", fee)) }
        if let balance = amounts.balance { plan.columns.append(("balance", balance)) }
        for key in ["amount", "debit", "indicator", "fee", "balance"] { plan.comments["columns." + key] = amounts.comments[key] }
        plan.sign = amounts.sign
        plan.comments["sign"] = amounts.comments["sign"] ?? "debit and credit are apart: the sign does not matter"
        plan.notes += amounts.notes
        plan.columns += roles.columns
        for (key, _) in roles.columns { plan.comments["columns." + key] = roles.comments[key] }
        plan.statusValues = roles.statusValues
        plan.typeValues = roles.typeValues
        plan.unmappedTypes = roles.unmappedTypes
        plan.notes += roles.notes

        // The account.
        let card = DraftAccount.cardHint(layout, fileName: name)
        plan.kind = amounts.sign == .debitPositive || card ? .liability : .asset
        plan.comments["kind"] = "GUESS: " + (card ? "the file speaks of a card" : amounts.sign == .debitPositive
            ? "purchases are positive, as on a card" : "a bank account; liability for a card or a loan")
        plan.currency = currency.code
        plan.comments["currency"] = currency.comment
        if !currency.certain { plan.notes.append("nothing in the file names its currency: \(currency.code) is a guess") }
        plan.numberHints = DraftAccount.numberHints(layout, text, accountColumns: roles.accountColumns, fileName: name)

        DraftFooter.mark(&plan, layout: layout, dateColumn: date.index, pattern: choice.pattern)
        if layout.header == nil {
            plan.comments["header"] = "the first row is already data (a date and an amount)"
            plan.notes.append("the file has no header row: the draft names columns by position (header: none)")
            if !layout.preamble.isEmpty {
                plan.notes.append("\(layout.preamble.count) line(s) come before the first data row without a header to find")
            }
        }
        if let note = text.conversionNote { plan.notes.append(note) }
        let preamble = layout.preamble.isEmpty ? "" : ", after a preamble of \(layout.preamble.count) line(s)"
        let footer = layout.footer.isEmpty ? "" : ", then a footer of \(layout.footer.count) line(s)"
        let lines = "lines \(layout.rows[layout.data.first!].line)-\(layout.rows[layout.data.last!].line)"
        plan.summary = "\(layout.data.count) data rows (\(lines))\(preamble)\(footer)"

        let expected = zip(layout.data.indices, layout.data).map { position, row in
            (choice.pattern.format.parse(layout.rows[row].cell(date.index)), amounts.signed[position])
        }
        let yaml = DraftYAML.render(plan)
        let check = DraftCheck.run(yaml: yaml, bytes: bytes, converted: text.conversionNote == nil ? nil : text.bytes,
                                   fileName: name, expected: expected)
        // What reading it back showed: the notes it adds, and whether a UTF-16 file needs converting here.
        var final = plan
        final.notes = plan.notes.filter { $0 != text.conversionNote || check.needsConversion } + check.notes
        if text.conversionNote != nil, !check.needsConversion {
            final.comments["encoding"] = "the file is UTF-16, which Coffer converts as it reads"
        }
        return CSVProfileDraft(id: plan.id, yaml: DraftYAML.render(final), notes: final.notes,
                               dataRows: layout.data.count, verified: check.verified)
    }

    /// Whether `id` is what the profile loader accepts as an id.
    package static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}
