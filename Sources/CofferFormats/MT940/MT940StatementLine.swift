import CofferModel
import Foundation

/// A `:61:` statement line: `2603020302C2850,00NTRFNONREF//2026030200000117` and an optional second line of
/// supplementary details.
///
/// The parts, in order (SWIFT MT940 field 61): value date `YYMMDD`; entry (booking) date `MMDD`, optional, its year
/// taken from the value date across a year end; the mark `C`, `D`, `RC` (reversal of a credit: a debit) or `RD`
/// (reversal of a debit: a credit); an optional funds code letter (the third letter of the currency); the amount
/// with a decimal comma; the transaction type (`N`, `S` or `F` and three characters: `NTRF`, `NDDT`, `N051`); the
/// reference for the account owner (`NONREF` when there is none), then `//` and the bank's own reference.
struct MT940StatementLine: Sendable {
    var valueDate: RawDate
    var entryDate: RawDate?
    var indicator: CreditDebitIndicator
    var isReversal: Bool
    var amount: Decimal
    var typeCode: String
    var customerReference: String?
    var bankReference: String?
    var details: String?

    static func parse(_ lines: [String]) -> Result<MT940StatementLine, MT940ValueError> {
        let text = Substring((lines.first ?? "").trimmingCharacters(in: .whitespaces))
        guard let valueDate = MT940Values.date(text.prefix(6)) else {
            return .failure(MT940ValueError("expected the value date YYMMDD first, found '\(text.prefix(6))'"))
        }
        var rest = text.dropFirst(6)
        var entryDate: RawDate?
        if rest.prefix(4).count == 4, rest.prefix(4).allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let entry = MT940Values.entryDate(rest.prefix(4), near: valueDate) else {
                return .failure(MT940ValueError("expected the entry date MMDD after the value date, found '\(rest.prefix(4))'"))
            }
            entryDate = entry
            rest = rest.dropFirst(4)
        }
        var isReversal = false
        if rest.first == "R" { isReversal = true; rest = rest.dropFirst() }
        guard let mark = rest.first, mark == "C" || mark == "D" else {
            return .failure(MT940ValueError("expected the mark C, D, RC or RD after the dates, found '\(rest.prefix(2))'"))
        }
        rest = rest.dropFirst()
        // A reversal of a credit takes money away: it is a debit (and the other way round).
        let booked: CreditDebitIndicator = mark == "C" ? .credit : .debit
        let indicator = isReversal ? booked.opposite : booked
        if let funds = rest.first, funds.isLetter { rest = rest.dropFirst() }
        let amountText = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == "," || $0 == "." }
        guard let amount = MT940Values.amount(amountText) else {
            return .failure(MT940ValueError("expected the amount with a decimal comma (2850,00) after the mark, found '\(rest.prefix(16))'"))
        }
        rest = rest.dropFirst(amountText.count)
        let type = rest.prefix(4)
        guard type.count == 4, let kind = type.first, "NSF".contains(kind),
              type.dropFirst().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return .failure(MT940ValueError("expected the transaction type (N, S or F and three characters: NTRF, N051) "
                                            + "after the amount, found '\(type)'"))
        }
        rest = rest.dropFirst(4)
        var customer = rest
        var bank: Substring?
        if let slashes = rest.range(of: "//") {
            customer = rest[..<slashes.lowerBound]
            bank = rest[slashes.upperBound...]
        }
        func clean(_ s: Substring?) -> String? {
            guard let t = s?.trimmingCharacters(in: .whitespaces), !t.isEmpty else { return nil }
            return t
        }
        let details = lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return .success(MT940StatementLine(
            valueDate: valueDate, entryDate: entryDate, indicator: indicator, isReversal: isReversal, amount: amount,
            typeCode: String(type).uppercased(), customerReference: clean(customer), bankReference: clean(bank),
            details: details.isEmpty ? nil : details))
    }

    /// References banks write when there is none.
    static func usable(_ reference: String?) -> String? {
        guard let reference, !["NONREF", "NOTPROVIDED", "NONE", "0", "-"].contains(reference.uppercased()),
              !reference.allSatisfy({ $0 == "0" }) else { return nil }
        return reference
    }
}
