import ArgumentParser
import Coffer
import Foundation

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson, csv
}

/// JSON as Coffer prints it: FinanceKit's property names, enum case names, exact decimal strings,
/// dates as `2026-03-14` (date-only values) or ISO 8601 instants, a transaction's in its own offset
/// (`2026-03-31T20:00:00-08:00`), others in UTC.
enum JSON {
    static func encoder(pretty: Bool) -> JSONEncoder { ModelJSON.encoder(pretty: pretty) }

    /// One encoder for every NDJSON line (making one per line showed in profiles).
    static let compact = encoder(pretty: false)

    static func line<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try compact.encode(value), as: UTF8.self)
    }

    static func document<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder(pretty: true).encode(value), as: UTF8.self)
    }
}

enum Text {
    /// `2026-03-14` for a date-only value (midnight UTC), else `2026-03-14T09:30:00Z` (`CalendarDay.text`).
    static func date(_ date: Date) -> String { CalendarDay.text(date) }

    /// A transaction's date: `2026-03-31` for a date-only value, else its instant in its own offset
    /// (`2026-03-31T20:00:00-08:00`: the day shown is the bank's own).
    static func date(_ t: Transaction) -> String { CalendarDay.text(t.transactionDate, offset: t.timeZoneOffset) }

    /// Signed for people: a debit shows as minus.
    static func signed(_ amount: CurrencyAmount, _ indicator: CreditDebitIndicator) -> String {
        (indicator == .debit && amount.amount != 0 ? "-" : "") + amount.amountText
    }
}

/// Rows as an aligned text table, or CSV (`TextTable`, written byte by byte).
typealias Table = TextTable

/// Prints models in the chosen format (to stdout, or to `write`).
func emit<T: Encodable>(_ items: [T], format: OutputFormat, to write: (Data) -> Void = { FileHandle.standardOutput.write($0) },
                        table: () -> Table) throws {
    func printLine(_ text: String) { write(Data((text + "\n").utf8)) }
    switch format {
    case .json:
        // Transactions, the long lists, without JSONEncoder (`ModelJSON.prettyArray`: the same bytes).
        if let transactions = items as? [Transaction] {
            var out = ModelJSON.prettyArray(transactions)
            out.append(0x0A)
            write(Data(out))
        } else {
            printLine(try JSON.document(items))
        }
    case .ndjson:
        // One write per 64 KiB, not per line; transactions through ModelJSON (what JSONEncoder writes, ~40x faster).
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        func flush() {
            write(Data(out))
            out.removeAll(keepingCapacity: true)
        }
        for item in items {
            if let transaction = item as? Transaction {
                ModelJSON.append(transaction, to: &out)
            } else {
                out.append(contentsOf: try JSON.line(item).utf8)
            }
            out.append(UInt8(ascii: "\n"))
            if out.count >= 1 << 16 { flush() }
        }
        if !out.isEmpty { flush() }
    case .csv: printLine(table().csv())
    case .table:
        let t = table()
        if t.rows.isEmpty, isTerminal { printLine("(none)") } else if !t.rows.isEmpty { printLine(t.render()) }
    }
}
