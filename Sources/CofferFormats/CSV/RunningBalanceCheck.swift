import CofferModel
import Foundation

/// Whether a CSV's running-balance column adds up with its amounts, row by row, in one pass and constant memory:
/// both reading directions are checked as the rows come (oldest first: a row's balance is the previous one plus
/// its amount; newest first: the previous row's balance is this one plus the previous amount), and the file's
/// direction picks one at the end. Rows without a balance (pending ones) are left out.
struct RunningBalanceCheck {
    private var previous: (delta: Decimal, balance: Decimal, line: Int)?
    private var oldestFirst = Mismatches()
    private var newestFirst = Mismatches()

    struct Mismatches {
        var count = 0
        var first: (line: Int, expected: Decimal, found: Decimal)?

        mutating func note(line: Int, expected: Decimal, found: Decimal) {
            guard expected != found else { return }
            count += 1
            if first == nil { first = (line, expected, found) }
        }
    }

    mutating func note(delta: Decimal, balance: Decimal, line: Int) {
        if let previous {
            oldestFirst.note(line: line, expected: previous.balance + delta, found: balance)
            newestFirst.note(line: previous.line, expected: balance + previous.delta, found: previous.balance)
        }
        previous = (delta, balance, line)
    }

    /// One warning a person should look at when the balances do not add up, naming the first row and the count.
    func warning(oldestFirst isOldestFirst: Bool, currency: String, file: String) -> ParseWarning? {
        let result = isOldestFirst ? oldestFirst : newestFirst
        guard let first = result.first else { return nil }
        func text(_ d: Decimal) -> String { ExactDecimal.text(d, minimumFractionDigits: 2) }
        let more = result.count > 1 ? " (and \(result.count - 1) more row(s))" : ""
        return ParseWarning("the running balance does not add up: the amounts give \(text(first.expected)) \(currency), "
                            + "the balance column says \(text(first.found)) (difference \(text(first.found - first.expected)))"
                            + "\(more); a row is missing or an amount differs: imported as sent",
                            location: SourceLocation(file: file, line: first.line), needsAttention: true)
    }
}
