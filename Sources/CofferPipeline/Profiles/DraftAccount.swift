import CofferFormats
import CofferModel
import Foundation

/// What the drafter can tell about the account: its currency, whether it is a card, and where the file writes its
/// number (a preamble line, the file name, a column named like one).
enum DraftAccount {
    /// The account's currency and why: a currency column, a symbol or code in the amounts or header names, a code
    /// in the preamble; else a guess from the decimal mark.
    static func currency(_ columns: [DraftColumn], _ layout: DraftLayout, _ numbers: DraftNumberFormat)
        -> (code: String, comment: String, certain: Bool) {
        let codes = DraftCurrencies.codes
        if let column = columns.first(where: { !$0.isEmpty && !$0.named(DraftVocabulary.foreign) && $0.distinct.allSatisfy(codes.contains) }) {
            let counts = Dictionary(column.cells.filter { !$0.isEmpty }.map { ($0, 1) }, uniquingKeysWith: +)
            let code = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
            return (code, "the most common value of \(column.label)", true)
        }
        var symbols: [String: Int] = [:]
        for column in columns where column.amounts != nil {
            for cell in column.cells { for c in cell { if let code = DraftCurrencies.symbols[c] { symbols[code, default: 0] += 1 } } }
        }
        if let code = symbols.max(by: { $0.value < $1.value })?.key { return (code, "amounts are written with its symbol", true) }
        func codeIn(_ texts: [String]) -> String? {
            for text in texts {
                for word in text.split(whereSeparator: { !$0.isLetter }) where word.count == 3 && codes.contains(String(word)) {
                    return String(word)
                }
            }
            return nil
        }
        if let code = codeIn(layout.names) { return (code, "a header name says so", true) }
        if let code = codeIn(columns.filter { $0.amounts != nil }.flatMap(\.cells)) { return (code, "amounts are written with its code", true) }
        if let code = codeIn(layout.preamble.flatMap { layout.rows[$0].cells }) { return (code, "the preamble says so", true) }
        return numbers.decimalMark == ","
            ? ("EUR", "GUESS: nothing in the file names a currency; amounts use a decimal comma", false)
            : ("USD", "GUESS: nothing in the file names a currency", false)
    }

    /// Whether the file name, header or preamble speak of a card.
    static func cardHint(_ layout: DraftLayout, fileName: String) -> Bool {
        let texts = [fileName] + layout.names + layout.preamble.flatMap { layout.rows[$0].cells }
        return texts.contains { DraftVocabulary.matches(DraftVocabulary.fold($0), DraftVocabulary.card) }
    }

    /// Where the file writes its account number: a sentence, and the `number_from` that reads it when there is one.
    static func numberHints(_ layout: DraftLayout, _ text: DraftText, accountColumns: [DraftColumn], fileName: String)
        -> [(text: String, numberFrom: String?)] {
        var hints: [(text: String, numberFrom: String?)] = []
        func regex(_ before: some StringProtocol, _ number: String) -> String {
            DraftYAML.quoted("^" + NSRegularExpression.escapedPattern(for: String(before)) + "(?<number>" + number + ")")
        }
        for index in layout.preamble {
            let row = layout.rows[index]
            let raw = text.encoding.decode(text.bytes[row.range])
            if let iban = DraftNames.iban(in: raw), let start = raw.range(of: String(iban.prefix(4))) {
                // Written in groups of four (`DE89 3704 …`), the number takes the spaces along.
                let number = raw.contains(iban) ? "[A-Z]{2}[0-9]{2}[A-Z0-9]+" : "[A-Z]{2}[0-9]{2}[A-Z0-9 ]*[A-Z0-9]"
                hints.append(("The preamble's line \(row.line) holds the IBAN \(DraftNames.masked(iban)).",
                              "{ preamble: \(regex(raw[..<start.lowerBound], number)) }"))
                break
            }
            let folded = DraftVocabulary.fold(row.cells.first ?? "")
            if DraftVocabulary.matches(folded, DraftVocabulary.accountNumber),
               let value = row.cells.dropFirst().first(where: { $0.filter(\.isNumber).count >= 4 }),
               let start = raw.range(of: value) {
                hints.append(("The preamble's line \(row.line) names the account ('\(row.cell(0))' \(DraftNames.masked(value))).",
                              "{ preamble: \(regex(raw[..<start.lowerBound], "[A-Za-z0-9]+")) }"))
                break
            }
        }
        let stem = (fileName as NSString).lastPathComponent
        if let iban = DraftNames.iban(in: stem), let start = stem.range(of: iban) {
            hints.append(("The file name holds the IBAN \(DraftNames.masked(iban)).",
                          "{ file_name: \(regex(stem[..<start.lowerBound], "[A-Z]{2}[0-9]{2}[A-Z0-9]+")) }"))
        } else if let match = stem.range(of: "^[A-Za-z]+[0-9]{4}(?![0-9])", options: .regularExpression) {
            hints.append(("The file name starts '\(stem[match])': maybe the account's last four digits.",
                          "{ file_name: \(regex(stem[match].prefix { $0.isLetter }, "[0-9]{4}")) }"))
        }
        for column in accountColumns {
            let reference = DraftYAML.quoted(column.name.isEmpty ? String(column.index + 1) : column.name)
            if column.distinct.count == 1 {
                hints.append(("\(column.label) holds \(DraftNames.masked(column.distinct[0])) in every row: the account's number.",
                              "{ column: \(reference) }"))
            } else {
                hints.append(("\(column.label) holds \(column.distinct.count) different numbers: the other party's accounts, or "
                              + "several accounts in one file (then number_from: { column: \(reference) } makes one statement each).", nil))
            }
        }
        return hints
    }
}
