/// What a `:86:` field says about one transaction.
///
/// German banks (the DFÜ agreement's structured form) write a three-digit business transaction code (GVC) and
/// subfields after a separator, almost always `?`: `166?00SEPA-GUTSCHRIFT?10931?20EREF+LOHN-0815?21SVWZ+Lohn
/// 03/2026?30DEUTDEFF?31DE75512108001245126199?32Müller & Söhne GmbH`:
/// - `?00` the booking text, `?10` the primanota, `?20`–`?29` and `?60`–`?63` the purpose, `?30` the
///   counterparty's BIC (or bank code), `?31` its IBAN (or account), `?32`/`?33` its name, `?34` a code supplement.
/// - SEPA purposes carry keywords: `EREF+` end-to-end reference, `KREF+` customer reference, `MREF+` mandate,
///   `CRED+` creditor id, `DEBT+` originator id, `ABWA+`/`ABWE+` the ultimate debtor/creditor, `SVWZ+` the
///   remittance text itself, `IBAN+`/`BIC+` the counterparty's account.
///
/// Subfields are up to 27 characters and banks cut long texts into several, often inside a word: pieces are joined
/// directly after a full (27-character) piece and with a space after a shorter one. A `:86:` without the
/// structure is free text: its lines are joined the same way (directly after a full 65-character line).
struct MT940Information: Equatable, Sendable {
    var transactionCode: String?
    var bookingText: String?
    var purpose: String?
    var counterpartyName: String?
    var counterpartyAccount: String?
    var counterpartyBIC: String?
    var endToEndReference: String?
    var customerReference: String?
    var mandateReference: String?
    var creditorID: String?
    var ultimateDebtor: String?
    var ultimateCreditor: String?
    /// The remittance text: `SVWZ+` when the purpose uses SEPA keywords, else the purpose.
    var remittance: String?

    static let keywords = ["EREF", "KREF", "MREF", "CRED", "DEBT", "SVWZ", "ABWA", "ABWE", "IBAN", "BIC", "COAM",
                           "OAMT", "SQTP", "PURP"]

    static func parse(_ lines: [String]) -> MT940Information {
        let joined = lines.joined()
        let chars = Array(joined)
        guard chars.count >= 6, chars[0...2].allSatisfy({ $0.isASCII && $0.isNumber }),
              !chars[3].isLetter, !chars[3].isNumber, chars[3] != " ",
              chars[4].isASCII, chars[4].isNumber, chars[5].isASCII, chars[5].isNumber else {
            return free(lines)
        }
        let separator = chars[3]
        var info = MT940Information(transactionCode: String(chars[0...2]))
        var fields: [(Int, String)] = []
        for piece in joined.dropFirst(3).split(separator: separator, omittingEmptySubsequences: true) {
            let key = piece.prefix(2)
            guard key.count == 2, let number = Int(key), key.allSatisfy(\.isNumber) else {
                // Text that happens to hold the separator: it belongs to the field before.
                if !fields.isEmpty { fields[fields.count - 1].1 += String(separator) + piece }
                continue
            }
            fields.append((number, String(piece.dropFirst(2))))
        }
        func text(_ numbers: ClosedRange<Int>...) -> String? {
            let pieces = fields.filter { f in numbers.contains { $0.contains(f.0) } }.map(\.1)
            return join(pieces, width: 27)
        }
        info.bookingText = text(0...0)
        info.purpose = text(20...29, 60...63)
        info.counterpartyBIC = text(30...30)
        info.counterpartyAccount = text(31...31)
        info.counterpartyName = text(32...33)
        info.readKeywords()
        return info
    }

    /// Free text: no GVC and subfields.
    static func free(_ lines: [String]) -> MT940Information {
        var info = MT940Information()
        info.purpose = join(lines, width: 65)
        info.readKeywords()
        return info
    }

    /// Pieces joined: directly after a piece that fills its width (cut inside a word), else with a space.
    static func join(_ pieces: [String], width: Int) -> String? {
        var out = ""
        var previous = 0
        for piece in pieces where !piece.allSatisfy({ $0 == " " }) {
            if !out.isEmpty, previous < width { out += " " }
            out += piece
            previous = piece.count
        }
        let trimmed = out.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Splits the purpose at SEPA keywords (`EREF+…`, `SVWZ+…`) when it uses them.
    mutating func readKeywords() {
        guard let purpose else { return }
        let chars = Array(purpose)
        var marks: [(index: Int, key: String, valueStart: Int)] = []
        var i = 0
        while i < chars.count {
            if i == 0 || chars[i - 1] == " " || !(chars[i - 1].isLetter || chars[i - 1].isNumber) {
                for key in Self.keywords {
                    let end = i + key.count
                    if end < chars.count, chars[end] == "+" || (chars[end] == ":" && key == "SVWZ"),
                       String(chars[i..<end]) == key {
                        marks.append((i, key, end + 1))
                        break
                    }
                }
            }
            i += 1
        }
        guard !marks.isEmpty else {
            remittance = purpose
            return
        }
        var values: [String: String] = [:]
        for (n, mark) in marks.enumerated() {
            let end = n + 1 < marks.count ? marks[n + 1].index : chars.count
            let value = String(chars[min(mark.valueStart, end)..<end]).trimmingCharacters(in: .whitespaces)
            if values[mark.key] == nil, !value.isEmpty { values[mark.key] = value }
        }
        let before = String(chars[..<marks[0].index]).trimmingCharacters(in: .whitespaces)
        endToEndReference = values["EREF"].flatMap(MT940StatementLine.usable)
        customerReference = values["KREF"].flatMap(MT940StatementLine.usable)
        mandateReference = values["MREF"]
        creditorID = values["CRED"]
        ultimateDebtor = values["ABWA"]
        ultimateCreditor = values["ABWE"]
        if counterpartyAccount == nil { counterpartyAccount = values["IBAN"] }
        if counterpartyBIC == nil { counterpartyBIC = values["BIC"] }
        remittance = values["SVWZ"] ?? (before.isEmpty ? nil : before)
    }
}
