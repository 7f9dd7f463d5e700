import CofferModel
import Foundation

/// Turns QIF headers and records into statement events: one statement per `!Type:` section of transactions, for
/// the account the last `!Account` block before it names (none: the import's `--account`/`--new-account` says).
struct QIFAssembler {
    let file: String
    let facts: QIFFileFacts
    private var section: QIFSection?
    private var readingAccount = false
    private var accountName: String?
    private var begun = false
    private(set) var statementCount = 0
    private var warnedSections: Set<String> = []

    init(file: String, facts: QIFFileFacts) {
        self.file = file
        self.facts = facts
    }

    typealias Emit = (consuming StatementEvent) throws -> Void

    mutating func handle(_ item: QIFItem, emit: Emit) throws {
        switch item {
        case .header(let text, let line): try header(text, line: line, emit: emit)
        case .record(let fields, let line): try record(fields, line: line, emit: emit)
        }
    }

    mutating func finish(emit: Emit) throws {
        try end(emit: emit)
        guard statementCount > 0 else {
            throw CofferError(.badInput, "expected transactions under a !Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A or "
                              + "!Type:Oth L header, found none: the file holds no bank or card transactions",
                              location: SourceLocation(file: file, line: 1))
        }
    }

    private mutating func header(_ text: String, line: Int, emit: Emit) throws {
        let lower = text.lowercased()
        if lower.hasPrefix("!account") {
            try end(emit: emit)
            section = nil
            readingAccount = true
            return
        }
        guard lower.hasPrefix("!type:") else { return }  // !Option:AutoSwitch, !Clear:AutoSwitch
        try end(emit: emit)
        readingAccount = false
        let kind = QIFSection(header: text)
        section = kind
        let here = SourceLocation(file: file, line: line, element: text)
        switch kind {
        case .investment:
            if warnedSections.insert("invst").inserted {
                try emit(.warning(ParseWarning("skipped the investment transactions under \(text): Coffer reads bank, cash "
                                               + "and card accounts", location: here, needsAttention: true)))
            }
        case .unknown(let name):
            if warnedSections.insert(name).inserted {
                try emit(.warning(ParseWarning("skipped the records under \(text): expected !Type:Bank, CCard, Cash, Oth A "
                                               + "or Oth L", location: here)))
            }
        case .list: break
        default:
            var identity = RawAccountIdentity(kind: kind.kind, displayName: accountName)
            identity.accountType = kind.accountType
            // QIF never names a currency: the stored account's, `--currency`, else USD (Quicken's own).
            identity.assumedCurrency = "USD"
            var header = RawStatementHeader(account: identity, location: here)
            header.listsPending = facts.usesClearedMarks
            try emit(.begin(header))
            begun = true
        }
    }

    private mutating func end(emit: Emit) throws {
        guard begun else { return }
        begun = false
        statementCount += 1
        try emit(.end)
    }

    private mutating func record(_ fields: [QIFField], line: Int, emit: Emit) throws {
        if readingAccount {
            // The account block: N name, T type, D description, L credit limit, / and $ the statement balance.
            if let name = fields.last(where: { $0.code == "N" })?.value.trimmingCharacters(in: .whitespaces), !name.isEmpty {
                accountName = name
            }
            readingAccount = false
            return
        }
        guard let section else {
            throw CofferError(.badInput, "expected a !Type: header (!Type:Bank, !Type:CCard…) before the first record, "
                              + "found a record", location: SourceLocation(file: file, line: line))
        }
        guard section.holdsTransactions else { return }
        try emit(.transaction(try transaction(fields, line: line)))
    }

    private func transaction(_ fields: [QIFField], line: Int) throws -> RawTransaction {
        func at(_ l: Int, _ code: String) -> SourceLocation { SourceLocation(file: file, line: l, element: code) }
        func value(_ code: Character) -> QIFField? { fields.first { $0.code == code } }
        func text(_ code: Character) -> String? {
            value(code).map { $0.value.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let dateField = value("D") else {
            throw CofferError(.badInput, "expected a D (date) field in the record, found none", location: at(line, "D"))
        }
        guard let date = QIFDate.parse(dateField.value)?.day(facts.dateOrder) else {
            throw CofferError(.badInput, "expected a date like 1/ 2'26, 01/02/2026 or 2026-01-02, found '\(dateField.value)'",
                              location: at(dateField.line, "D"))
        }
        guard let amountField = value("T") ?? value("U") else {
            throw CofferError(.badInput, "expected a T (amount) field in the record, found none", location: at(line, "T"))
        }
        guard let amount = QIFAmount.parse(amountField.value, decimalComma: facts.decimalComma) else {
            throw CofferError(.badInput, "expected an amount like -1,234.56, found '\(amountField.value)'",
                              location: at(amountField.line, String(amountField.code)))
        }
        // Splits: each S (category) with the E (memo) and $ (amount) after it.
        var splits: [(category: String, memo: String?, amount: String?, value: Decimal?)] = []
        for field in fields {
            let v = field.value.trimmingCharacters(in: .whitespaces)
            switch field.code {
            case "S": splits.append((v, nil, nil, nil))
            case "E" where !splits.isEmpty: splits[splits.count - 1].memo = v.isEmpty ? nil : v
            case "$" where !splits.isEmpty:
                splits[splits.count - 1].amount = v
                splits[splits.count - 1].value = QIFAmount.parse(v, decimalComma: facts.decimalComma)
            default: break
            }
        }
        let category = text("L")
        var raw = RawTransaction(location: at(line, "D"), amount: amount, transactionDate: date, name: text("P"),
                                 memo: text("M"))
        var categoryWord = category.flatMap { $0.hasPrefix("--") ? nil : $0 }
        if !splits.isEmpty {
            let parts = splits.map { split in
                [Self.categoryName(split.category) ?? "(no category)", split.amount, split.memo.map { "(\($0))" }]
                    .compactMap { $0 }.joined(separator: " ")
            }
            let listed = "split: " + parts.joined(separator: "; ")
            raw.memo = raw.memo.map { $0 + " | " + listed } ?? listed
            if categoryWord == nil {
                // The split with the largest amount stands for the whole.
                categoryWord = splits.max { ($0.value?.magnitude ?? 0) < ($1.value?.magnitude ?? 0) }?.category
            }
        }
        if let word = categoryWord, word.hasPrefix("[") {
            // `[Savings]`: a transfer to another account, not a category.
            raw.transactionType = .transfer
            if let name = raw.name, name.caseInsensitiveCompare("Opening Balance") == .orderedSame { raw.transactionType = .adjustment }
        } else {
            raw.category = categoryWord.flatMap(Self.categoryName)
        }
        if let number = text("N") {
            // Quicken's Num column: digits are a check number, words (`ATM`, `DEP`, `XFER`, `EFT`) a type.
            if number.allSatisfy(\.isNumber) { raw.checkNumber = number; raw.typeCode = "CHECK" } else { raw.typeCode = number.uppercased() }
        }
        let mark = text("C") ?? ""
        raw.status = facts.usesClearedMarks && mark.isEmpty ? .pending : .booked
        return raw
    }

    /// `Food:Groceries/Vacation` → `Food:Groceries` (the class after `/` is not a category); nil when empty.
    static func categoryName(_ text: String) -> String? {
        let name = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return name.isEmpty ? nil : name
    }
}
