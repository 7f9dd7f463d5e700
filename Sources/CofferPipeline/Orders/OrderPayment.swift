import CofferModel
import Foundation

/// Which stored transaction paid for an order: a policy, a pure function of the order and the candidates.
///
/// An order is paid by a debit of exactly its total, in its currency (or whose foreign amount is exactly its total in
/// that currency, for a purchase abroad), dated from 1 day before the order was placed (time zones: the order's
/// instant and the bank's day) to 5 days after (a card payment books one to three banking days later, a weekend
/// adds two), whose merchant or description agrees with the order's merchant (`TextSimilarity.score(merchant:_:)`).
/// Among several, the best text agreement wins, then the nearest day, then the smallest id. A transaction already
/// linked to another order is not taken, and a rejected one never pays.
enum OrderPayment {
    /// Days before and after the order's day that a paying transaction may be dated.
    static let daysBefore = 1
    static let daysAfter = 5

    /// The calendar days (UTC day numbers) a paying transaction may fall on.
    static func window(for order: WalletOrder) -> ClosedRange<Int> {
        let day = CalendarDay.dayNumber(order.createdAt)
        return (day - daysBefore)...(day + daysAfter)
    }

    /// The transaction among `candidates` that paid for `order`, if any.
    static func transaction(for order: WalletOrder, among candidates: [Transaction], taken: Set<UUID>) -> Transaction? {
        guard let total = order.payment?.total else { return nil }
        let window = window(for: order)
        let orderDay = CalendarDay.dayNumber(order.createdAt)
        var best: (transaction: Transaction, score: Double, distance: Int)?
        for t in candidates where !taken.contains(t.id) && t.creditDebitIndicator == .debit && t.status != .rejected {
            guard window.contains(t.localDay), pays(total, t) else { continue }
            let score = TextSimilarity.score(merchant: order.merchant.displayName, t)
            guard score >= TextSimilarity.agreeing else { continue }
            let distance = abs(t.localDay - orderDay)
            if let current = best {
                if score < current.score { continue }
                if score == current.score, distance > current.distance { continue }
                if score == current.score, distance == current.distance, t.id.uuidString >= current.transaction.id.uuidString { continue }
            }
            best = (t, score, distance)
        }
        return best?.transaction
    }

    /// Exactly the total, in its currency, as booked or as the foreign amount.
    static func pays(_ total: CurrencyAmount, _ t: Transaction) -> Bool {
        let currency = total.currencyCode.uppercased()
        if t.transactionAmount.currencyCode.uppercased() == currency, t.transactionAmount.amount == total.amount { return true }
        if let foreign = t.foreignCurrencyAmount, foreign.currencyCode.uppercased() == currency, foreign.amount == total.amount { return true }
        return false
    }
}
