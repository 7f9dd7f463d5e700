import CofferModel
import Foundation

/// Whether a CSV's running-balance column adds up with its amounts, row by row, in one pass and constant memory:
/// both reading directions are checked as the rows come (oldest first: a row's balance is the previous one plus
/// its amount; newest first: the previous row's balance is this one plus the previous amount), and the file's
/// direction picks one at the end. Rows without a balance (pending ones) are left out.
struct RunningBalanceCheck {
    /// Amounts in micro-units: exact for every amount a statement carries, and integer additions instead of
    /// `Decimal` ones on this per-row path (a Decimal addition costs more than the rest of the check).
    private var previous: (delta: Int64, balance: Int64, line: Int)?
    private var oldestFirst = Mismatches()
    private var newestFirst = Mismatches()
    /// An amount too large or too precise for micro-units: the check stops (it never guesses).
    private var gaveUp = false

    struct Mismatches {
        var count = 0
        var first: (line: Int, expected: Int64, found: Int64)?

        mutating func note(line: Int, expected: Int64, found: Int64) {
            guard expected != found else { return }
            count += 1
            if first == nil { first = (line, expected, found) }
        }
    }

    /// A row: its amount and fee (a separate fee transaction) signed from the holder's side, and its balance.
    mutating func note(amount: Decimal, fee: Decimal?, balance: Decimal, line: Int) {
        guard !gaveUp else { return }
        guard var delta = ExactDecimal.scaled(amount) else { gaveUp = true; return }
        if let fee {
            guard let scaled = ExactDecimal.scaled(fee) else { gaveUp = true; return }
            let (sum, overflow) = delta.addingReportingOverflow(scaled)
            guard !overflow else { gaveUp = true; return }
            delta = sum
        }
        guard let current = ExactDecimal.scaled(balance) else { gaveUp = true; return }
        if let previous {
            oldestFirst.note(line: line, expected: previous.balance &+ delta, found: current)
            newestFirst.note(line: previous.line, expected: current &+ previous.delta, found: previous.balance)
        }
        previous = (delta, current, line)
    }

    /// One warning a person should look at when the balances do not add up, naming the first row and the count.
    func warning(oldestFirst isOldestFirst: Bool, currency: String, file: String) -> ParseWarning? {
        let result = isOldestFirst ? oldestFirst : newestFirst
        guard !gaveUp, let first = result.first else { return nil }
        func text(_ micro: Int64) -> String {
            ExactDecimal.text(Decimal(micro) / Decimal(sign: .plus, exponent: ExactDecimal.storageScale, significand: 1),
                              minimumFractionDigits: 2)
        }
        let more = result.count > 1 ? " (and \(result.count - 1) more row(s))" : ""
        return ParseWarning("the running balance does not add up: the amounts give \(text(first.expected)) \(currency), "
                            + "the balance column says \(text(first.found)) (difference \(text(first.found - first.expected)))"
                            + "\(more); a row is missing or an amount differs: imported as sent",
                            location: SourceLocation(file: file, line: first.line), needsAttention: true,
                            balanceDifference: Decimal(first.found - first.expected)
                                / Decimal(sign: .plus, exponent: ExactDecimal.storageScale, significand: 1))
    }
}
