import Foundation
import Testing
@testable import CofferModel
import CofferTestSupport

/// The CLI's byte-level writers agree with what they replaced, on random input; a failure prints its seed.
/// - `TextTable.render` and `csv` with the `Character`-based table of the first CLI;
/// - `ModelJSON.prettyArray` with `JSONEncoder` (`ModelJSON.encoder(pretty: true)`), with and without orders.
@Suite struct OutputFormatTests {
    /// The pieces cells are made of: what a bank's text holds, and each edge case of widths, trimming and quoting.
    static let pieces = ["Coffee", "A", "", " ", "  ", "\t", ",", "\"", "\"\"", "\n", "\r", "\r\n", "é", "e\u{301}", "東京",
                         "🇩🇪", "☕️", "\u{A0}", "\u{3000}", "\u{2009}", "\u{200B}", "\u{85}", "\"\u{301}", "x,y", "12.30", "-5.00"]

    static func cell(_ rng: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// `Table.render` of the first CLI (grapheme counts, Foundation's trim).
    static func referenceRender(_ table: TextTable) -> String {
        var widths = table.headers.map(\.count)
        for row in table.rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return table.rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(table.headers)] + table.rows.map(line)).joined(separator: "\n")
    }

    /// `Table.csv` of the first CLI, with its two bugs mended: it looked for the four characters among grapheme
    /// clusters, so a cell holding CR LF, or a quote with a combining mark on it, was left unquoted (two rows, or a
    /// broken quote, for the reader); and its quote doubling was Foundation's, which has the same blind spot.
    static func referenceCSV(_ table: TextTable) -> String {
        func escape(_ cell: String) -> String {
            cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + String(String.UnicodeScalarView(cell.unicodeScalars.flatMap { $0 == "\"" ? [$0, $0] : [$0] })) + "\""
                : cell
        }
        return ([table.headers] + table.rows).map { $0.map(escape).joined(separator: ",") }.joined(separator: "\n")
    }

    @Test func tableAndCSVAgreeWithTheFirstVersions() {
        for seed in UInt64(1)...3_000 {
            var rng = SplitMix64(state: seed)
            let columns = Int.random(in: 1...6, using: &rng)
            let headers = (0..<columns).map { _ in Self.cell(&rng) }
            let rows = (0..<Int.random(in: 0...6, using: &rng)).map { _ in (0..<columns).map { _ in Self.cell(&rng) } }
            let right = Set((0..<columns).filter { _ in Bool.random(using: &rng) })
            let table = TextTable(headers: headers, rows: rows, rightAligned: right)
            #expect(table.render() == Self.referenceRender(table), "seed \(seed): \(headers) \(rows)")
            #expect(table.csv() == Self.referenceCSV(table), "seed \(seed): \(headers) \(rows)")
        }
    }

    @Test func csvQuotesWhatARowReaderWouldSplitOn() {
        let table = TextTable(headers: ["A", "B"], rows: [["line\r\nbreak", "say \"\u{301}hi\""], ["plain", "x,y"]])
        #expect(table.csv() == "A,B\n\"line\r\nbreak\",\"say \"\"\u{301}hi\"\"\"\nplain,\"x,y\"")
    }

    @Test func aRowLongerThanTheHeadersIsWrittenNotACrash() {
        let table = TextTable(headers: ["A"], rows: [["1", "extra"]])
        #expect(table.render() == "A\n1  extra")
    }

    /// A linked transaction as the first CLI encoded it: FinanceKit's properties and `orderID`, keys sorted.
    struct Linked: Encodable {
        var transaction: Transaction
        var orderID: UUID?
        enum CodingKeys: String, CodingKey { case orderID }
        func encode(to encoder: any Encoder) throws {
            try transaction.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(orderID, forKey: .orderID)
        }
    }

    static func transaction(_ rng: inout SplitMix64) -> Transaction {
        let texts = ["Coffee", "", "a \"quoted\" \\ back/slash", "tab\tnew\nline\rcr\u{8}\u{c}", "ctl \u{0}\u{1}\u{1f}\u{7f}",
                     "café ☕️ 東京 \u{2028}\u{2029} 🇩🇪", "{[:,]}", "\\\"", "\"}", String(repeating: "long ", count: 40)]
        let currency = ["USD", "JPY", "KWD", "EUR"].randomElement(using: &rng)!
        var t = Transaction(id: UUID(), accountID: UUID(),
                            transactionAmount: CurrencyAmount(amount: ExactDecimal.parse(["12.30", "0", "1234567.891234567", "5"].randomElement(using: &rng)!)!,
                                                              currencyCode: currency),
                            creditDebitIndicator: Bool.random(using: &rng) ? .credit : .debit,
                            transactionDescription: texts.randomElement(using: &rng)!,
                            originalTransactionDescription: texts.randomElement(using: &rng)!,
                            transactionType: TransactionType.allCases.randomElement(using: &rng)!,
                            status: TransactionStatus.allCases.randomElement(using: &rng)!,
                            transactionDate: Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &rng))))
        if Bool.random(using: &rng) {
            t.merchantName = texts.randomElement(using: &rng)!
            t.merchantCategoryCode = MerchantCategoryCode(rawValue: Int16.random(in: 0...9999, using: &rng))
            t.postedDate = Date(timeIntervalSince1970: Double(Int64.random(in: 0...2_000_000_000_000, using: &rng)) / 1_000)
        }
        if Bool.random(using: &rng) {
            t.foreignCurrencyAmount = CurrencyAmount(amount: ExactDecimal.parse("98.7654321")!, currencyCode: "CHF")
            t.foreignCurrencyExchangeRate = ExactDecimal.parse("1.000000001")
        }
        if Bool.random(using: &rng) { t.timeZoneOffset = Int.random(in: -50_400...50_400, using: &rng) / 900 * 900 }
        return t
    }

    @Test func prettyArrayIsWhatJSONEncoderWrites() throws {
        let encoder = ModelJSON.encoder(pretty: true)
        for seed in UInt64(1)...400 {
            var rng = SplitMix64(state: seed)
            let transactions = (0..<Int.random(in: 0...5, using: &rng)).map { _ in Self.transaction(&rng) }
            let expected = String(decoding: try encoder.encode(transactions), as: UTF8.self)
            #expect(String(decoding: ModelJSON.prettyArray(transactions), as: UTF8.self) == expected, "seed \(seed)")

            let orders = Dictionary(uniqueKeysWithValues: transactions.filter { _ in Bool.random(using: &rng) }.map { ($0.id, UUID()) })
            let linked = String(decoding: try encoder.encode(transactions.map { Linked(transaction: $0, orderID: orders[$0.id]) }), as: UTF8.self)
            #expect(String(decoding: ModelJSON.prettyArray(transactions, orderIDs: orders), as: UTF8.self) == linked, "seed \(seed)")
        }
    }

    @Test func prettyLayoutOfEmptyContainersIsJSONEncoders() throws {
        let encoder = ModelJSON.encoder(pretty: true)
        struct Shape: Encodable { var a: [Int] = []; var b: [String: Int] = [:]; var c = [[Int]()]; var d = "x" }
        let compact = ModelJSON.encoder(pretty: false)
        var out: [UInt8] = []
        ModelJSON.appendPretty(Array(try compact.encode(Shape())), depth: 0, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == String(decoding: try encoder.encode(Shape()), as: UTF8.self))
    }
}
