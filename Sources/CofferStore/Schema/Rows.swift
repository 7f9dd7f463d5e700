import CofferModel
import Foundation

/// How the store keeps values: dates as milliseconds, decimals as exact text and micro-units, a transaction's
/// folded search text, the date range of local days. The columns of each table are described once elsewhere:
/// `TxnColumn` (the fast path) and the GRDB records (`AccountRecord`, `BalanceRecord`, …).
enum Rows {
    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    static func decimal(_ text: String?, column: String) throws -> Decimal? {
        guard let text else { return nil }
        guard let value = ExactDecimal.parse(text) else {
            throw CofferError(.notAStore, "damaged store: '\(text)' in column \(column) is not a decimal")
        }
        return value
    }

    /// What `txn.folded_text` holds for these texts: each folded (`SearchFolding`), the distinct ones joined by
    /// U+001F, which no folded text holds (so a search cannot match across two texts).
    ///
    /// For example, "CAFÉ MÜLLER", "CAFE MULLER KOELN", "Café Müller" → "cafe muller\u{1F}cafe muller koeln".
    static func foldedText(description: String, original: String, merchant: String?) -> String {
        let first = SearchFolding.fold(description)
        let second = original == description ? first : SearchFolding.fold(original)
        var third: String?
        if let merchant {
            let folded = merchant == description ? first : merchant == original ? second : SearchFolding.fold(merchant)
            if folded != first, folded != second { third = folded }
        }
        let hasSecond = second != first
        guard hasSecond || third != nil else { return first }
        // Written into the string's storage: `+=` and `+` cost about 650 instructions a text joined (callgrind).
        let capacity = first.utf8.count &+ (hasSecond ? 1 &+ second.utf8.count : 0) &+ (third.map { 1 &+ $0.utf8.count } ?? 0)
        return UTF8Builder.make(capacity: capacity) { text in
            text.put(first)
            if hasSecond {
                text.put(0x1F)
                text.put(second)
            }
            if let third {
                text.put(0x1F)
                text.put(third)
            }
        }
    }

    static func foldedText(_ t: Transaction) -> String {
        foldedText(description: t.transactionDescription, original: t.originalTransactionDescription, merchant: t.merchantName)
    }

    /// No UTC offset is larger than 14 h (`+14:00`, Kiribati; OFX allows no more): a local day `d` lies within
    /// `transaction_date` of `[d − 14 h, d + 1 day + 14 h)`. Day queries read that range through the date indexes
    /// and filter `local_day` exactly.
    static let offsetMargin: Int64 = 14 * 3_600_000

    /// The `transaction_date` range (milliseconds, half-open) that holds every row of local days `from...through`.
    static func dateRange(fromDay: Int, throughDay: Int) -> (start: Int64, end: Int64) {
        // Days beyond ±100 million (273,000 years) are clamped: no overflow, and no stored date is out there.
        let from = Int64(max(-100_000_000, min(100_000_000, fromDay)))
        let through = Int64(max(-100_000_000, min(100_000_000, throughDay)))
        return (from * 86_400_000 - offsetMargin, (through + 1) * 86_400_000 + offsetMargin)
    }

    /// Micro-units, or the nearest value toward zero when the amount has more than six decimals (the exact text
    /// stays in `amount`).
    static func scaled(_ amount: Decimal) -> Int64 {
        if let exact = ExactDecimal.scaled(amount) { return exact }
        var value = amount * 1_000_000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, amount < 0 ? .up : .down)
        return Int64(rounded.description) ?? (amount < 0 ? Int64.min : Int64.max)
    }
}
