import CofferModel
import Foundation

/// The facts written beside each transaction, in every journal format, in this order: the stable id, status,
/// type, the institution's own text, merchant, MCC, category, the transaction's own date when it is not the day
/// written, and a foreign-currency amount.
enum TransactionMetadata {
    static func pairs(_ side: ExportedSide) -> [(key: String, value: String)] {
        let t = side.transaction
        var pairs: [(String, String)] = [("coffer-id", t.id.uuidString), ("status", t.status.name),
                                         ("type", TransactionType.caseNames[t.transactionType] ?? "unknown")]
        if !t.originalTransactionDescription.isEmpty { pairs.append(("original", t.originalTransactionDescription)) }
        if let merchant = t.merchantName, !merchant.isEmpty { pairs.append(("merchant", merchant)) }
        if let mcc = t.merchantCategoryCode { pairs.append(("mcc", mcc.code)) }
        pairs.append(("category", side.category))
        if t.localDay != side.day { pairs.append(("transaction-date", CalendarDay.string(day: t.localDay))) }
        if let foreign = t.foreignCurrencyAmount {
            pairs.append(("foreign-amount", JournalText.amount(foreign.amount) + " " + foreign.currencyCode))
        }
        return pairs
    }

    /// The text a journal shows as the transaction's description: the cleaned text (the merchant's name when the
    /// text is empty).
    static func description(_ t: Transaction) -> String {
        let text = JournalText.oneLine(t.transactionDescription)
        if !text.isEmpty { return text }
        return JournalText.oneLine(t.merchantName ?? t.originalTransactionDescription)
    }

    /// The merchant, when there is one and it is not the description itself.
    static func payee(_ t: Transaction) -> String? {
        guard let merchant = t.merchantName.map(JournalText.oneLine), !merchant.isEmpty,
              merchant.lowercased() != description(t).lowercased() else { return nil }
        return merchant
    }
}
