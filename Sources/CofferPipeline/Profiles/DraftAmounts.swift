import CofferFormats
import CofferModel
import Foundation

/// Which column(s) hold the amount, in which form, and which sign a debit has.
///
/// In order: an unsigned amount with an indicator column (`S`/`H`, `DR`/`CR`, `Debit`/`Credit`); a debit and a
/// credit column, one of the two empty (or zero) in every row; else one signed column, the one named like an amount
/// or, among unnamed ones, the one another column is a running balance of. A signed column whose amounts are mostly
/// positive reads like a card export where purchases are positive (`debit_positive`), which is said to be a guess.
struct DraftAmounts {
    enum Form {
        case signed(Int)
        case debitCredit(debit: Int, credit: Int)
        case indicator(amount: Int, indicator: Int, debit: [String], credit: [String])
    }

    var form: Form
    var sign: CSVProfile.SignConvention = .creditPositive
    /// Profile key (`amount`, `debit`, `sign`, `balance` …) → the comment beside it.
    var comments: [String: String] = [:]
    var notes: [String] = []
    var balance: Int?
    /// A fee charged on top of the amount (Revolut's `Fee`), netted into it as the parser does by default.
    var fee: Int?
    /// Every data row's amount, money in positive, as far as the form says.
    var signed: [Decimal] = []

    /// The columns the amounts use.
    var used: Set<Int> {
        var columns: Set<Int>
        switch form {
        case .signed(let a): columns = [a]
        case .debitCredit(let d, let c): columns = [d, c]
        case .indicator(let a, let i, _, _): columns = [a, i]
        }
        if let fee { columns.insert(fee) }
        return columns
    }

    static func decide(_ columns: [DraftColumn], taken: Set<Int>, fileName: String) throws -> DraftAmounts {
        let free = columns.filter { !taken.contains($0.index) && $0.referenceable }
        let money = free.filter { $0.moneyLike && !$0.named(DraftVocabulary.fee + DraftVocabulary.foreign) }
        var result: DraftAmounts
        if let found = indicatorForm(free, money) {
            result = found
        } else if let found = pairForm(free, money) {
            result = found
        } else if let found = signedForm(money) {
            result = found
        } else {
            throw CofferError(.badInput, "cannot draft a profile: no column holds an amount in every data row, and no "
                              + "debit and credit columns share the rows (columns: "
                              + columns.map(\.label).joined(separator: ", ") + ")", location: SourceLocation(file: fileName))
        }
        result.findFee(free)
        result.findBalance(money)
        return result
    }

    /// A column named like a fee, with a fee somewhere: netted into the amount (`fee: net`, the default).
    private mutating func findFee(_ free: [DraftColumn]) {
        guard let column = free.first(where: { c in
            !used.contains(c.index) && c.named(DraftVocabulary.fee) && (c.amounts ?? []).contains { ($0 ?? 0) != 0 }
        }) else { return }
        fee = column.index
        let fees = Self.amounts(column)
        signed = zip(signed, fees).map { $0 - abs($1) }
        comments["fee"] = "named like a fee: taken off the amount (fee: separate makes it a transaction of its own)"
    }

    /// One amount per data row, 0 for an empty cell.
    private static func amounts(_ column: DraftColumn) -> [Decimal] {
        (column.amounts ?? Array(repeating: nil, count: column.cells.count)).map { $0 ?? 0 }
    }

    private static func indicatorForm(_ free: [DraftColumn], _ money: [DraftColumn]) -> DraftAmounts? {
        for column in free where column.isFull && column.amounts == nil && !column.isDate && column.distinct.count <= 4 {
            let values = Set(column.distinct.map(CSVProfile.normalizedName))
            guard let pair = DraftVocabulary.indicatorPairs.first(where: { values.isSubset(of: Set($0.debit + $0.credit)) }),
                  let amount = money.filter({ $0.isFull && amounts($0).allSatisfy { $0 >= 0 } && !$0.named(DraftVocabulary.balance) })
                      .max(by: { ($0.named(DraftVocabulary.amount) ? 1 : 0, -$0.index) < ($1.named(DraftVocabulary.amount) ? 1 : 0, -$1.index) })
            else { continue }
            let upper = column.distinct.allSatisfy { $0 == $0.uppercased() }
            func spellings(_ side: [String]) -> [String] {
                let found = column.distinct.filter { side.contains(CSVProfile.normalizedName($0)) }
                return found.isEmpty ? [upper ? side[0].uppercased() : side[0].capitalized] : found
            }
            let debit = spellings(pair.debit), credit = spellings(pair.credit)
            var result = DraftAmounts(form: .indicator(amount: amount.index, indicator: column.index, debit: debit, credit: credit))
            result.comments["amount"] = "every amount is unsigned; \(column.label) says which way"
            result.comments["indicator"] = "only \((debit + credit).joined(separator: "/")) in every row"
            result.signed = zip(amounts(amount), column.cells).map { value, flag in
                pair.debit.contains(CSVProfile.normalizedName(flag)) ? -abs(value) : abs(value)
            }
            return result
        }
        return nil
    }

    private static func pairForm(_ free: [DraftColumn], _ money: [DraftColumn]) -> DraftAmounts? {
        let sides = DraftVocabulary.debit + DraftVocabulary.credit
        let candidates = money.filter { !$0.named(DraftVocabulary.balance) }
            + free.filter { $0.isEmpty && $0.named(sides) }
        var best: (debit: DraftColumn, credit: DraftColumn, named: Bool, bySign: Bool)?
        for a in candidates {
            for b in candidates where b.index > a.index {
                // In every row one of the two holds the amount and the other is empty or zero.
                let fits = a.cells.indices.allSatisfy { i in
                    let x = a.amounts?[i] ?? nil, y = b.amounts?[i] ?? nil
                    return (x != nil || y != nil) && ((x ?? 0) == 0 || (y ?? 0) == 0)
                }
                guard fits else { continue }
                let named = (a.named(DraftVocabulary.debit) && b.named(DraftVocabulary.credit))
                    || (a.named(DraftVocabulary.credit) && b.named(DraftVocabulary.debit))
                // Without names, both must be used and neither full: else it is one amount and another column.
                guard named || (!a.isEmpty && !b.isEmpty && !a.isFull && !b.isFull) else { continue }
                if best == nil || (named && best?.named == false) {
                    // Unnamed: negative amounts are the debits; else the left column is taken as debit.
                    let bySign = !named && amounts(a).allSatisfy { $0 >= 0 } && amounts(b).allSatisfy { $0 <= 0 }
                    let swap = (named && a.named(DraftVocabulary.credit)) || bySign
                    best = swap ? (b, a, named, bySign) : (a, b, named, bySign)
                }
            }
        }
        guard let (debit, credit, named, bySign) = best else { return nil }
        var result = DraftAmounts(form: .debitCredit(debit: debit.index, credit: credit.index))
        let why = named ? "named so" : bySign ? "GUESS: the negative ones taken as debits" : "GUESS: the left one taken as debit"
        result.comments["debit"] = "\(why); in every row one of \(debit.label) and \(credit.label) is empty or zero"
        if !named, !bySign {
            result.notes.append("\(debit.label) and \(credit.label) take turns (one empty in each row) but their names do not "
                                + "say which is which: took \(debit.label) as money out; swap them if that is wrong")
        }
        result.signed = zip(amounts(debit), amounts(credit)).map { abs($1) - abs($0) }
        return result
    }

    private static func signedForm(_ money: [DraftColumn]) -> DraftAmounts? {
        let full = money.filter { $0.isFull && !$0.named(DraftVocabulary.balance) }
        guard !full.isEmpty else { return nil }
        var pick = full.first { $0.named(DraftVocabulary.amount) }
        var why = pick.map { _ in "named like an amount" }
        if pick == nil {
            // Unnamed: the column another one is a running balance of.
            pick = full.first { a in money.contains { b in b.index != a.index && runningBalance(amounts(a), b).fraction >= 0.5 } }
            why = pick.map { _ in "another column is its running balance" }
        }
        let amount = pick ?? full[0]
        var result = DraftAmounts(form: .signed(amount.index))
        result.signed = amounts(amount)
        let positive = result.signed.filter { $0 > 0 }.count, negative = result.signed.filter { $0 < 0 }.count
        if positive > negative {
            result.sign = .debitPositive
            result.comments["sign"] = negative == 0
                ? "GUESS: every amount is positive, read as a card export where purchases are positive"
                : "GUESS: \(positive) of \(result.signed.count) amounts are positive, as on a card export where purchases are positive"
            result.notes.append("sign: debit_positive is a guess (\(positive) positive and \(negative) negative amounts): "
                                + "purchases positive, payments and refunds negative, as card exports write them; "
                                + "if money coming in is positive in this file, write credit_positive")
            result.signed = result.signed.map { -$0 }
        } else {
            result.comments["sign"] = "\(negative) of \(result.signed.count) amounts are negative: money out negative, money in positive"
        }
        result.comments["amount"] = why ?? (full.count > 1 ? "GUESS: the first of \(full.map(\.label).joined(separator: ", "))" : "the only amount column")
        if why == nil, full.count > 1 {
            result.notes.append("several columns hold amounts (\(full.map(\.label).joined(separator: ", "))); took \(amount.label)")
        }
        return result
    }

    /// The balance column: one named so, or one that follows the amounts row by row (either row order).
    private mutating func findBalance(_ money: [DraftColumn]) {
        let others = money.filter { !used.contains($0.index) }
        let named = others.first { $0.named(DraftVocabulary.balance) }
        let running = others.map { ($0, Self.runningBalance(signed, $0)) }.filter { $0.1.pairs > 0 && $0.1.fraction >= 0.5 }
            .max { $0.1.fraction < $1.1.fraction }
        guard let column = named ?? running?.0 else { return }
        balance = column.index
        let check = Self.runningBalance(signed, column)
        if check.pairs == 0 {
            comments["balance"] = "named like a balance (too few rows to check it against the amounts)"
        } else if check.fraction >= 0.5 {
            comments["balance"] = "a running balance: \(check.matching) of \(check.pairs) row pairs follow the amounts"
        } else {
            comments["balance"] = "GUESS: named like a balance, but only \(check.matching) of \(check.pairs) row pairs follow the amounts"
            notes.append("\(column.label) is named like a balance but does not follow the amounts row by row; "
                         + "remove columns.balance if it is not the account's running balance")
        }
    }

    /// How many adjacent row pairs (both with a balance) differ by the amount, either in file order or reversed.
    static func runningBalance(_ signed: [Decimal], _ column: DraftColumn) -> (matching: Int, pairs: Int, fraction: Double) {
        guard let balances = column.amounts, balances.count == signed.count else { return (0, 0, 0) }
        var pairs = 0, forward = 0, backward = 0
        for i in 0..<max(0, signed.count - 1) {
            guard let a = balances[i], let b = balances[i + 1] else { continue }
            pairs += 1
            for s in [Decimal(1), Decimal(-1)] {
                if b == a + s * signed[i + 1] { forward += 1; break }
            }
            for s in [Decimal(1), Decimal(-1)] {
                if a == b + s * signed[i] { backward += 1; break }
            }
        }
        let matching = max(forward, backward)
        return (matching, pairs, pairs == 0 ? 0 : Double(matching) / Double(pairs))
    }
}
