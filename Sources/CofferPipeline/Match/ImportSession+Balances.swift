import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// The balances a statement reports, stored when it ends (`ImportSession`).
extension ImportSession {
    func flushBalances(_ account: Account) throws {
        // An available and a booked figure as of the same moment are one FinanceKit balance.
        var byDate: [Date: (available: Balance?, booked: Balance?)] = [:]
        var order: [Date] = []
        for raw in balances {
            let currency = raw.currencyCode ?? account.currencyCode
            let indicator = raw.amount == 0 ? .credit : raw.resolvedIndicator
            let balance = Balance(amount: CurrencyAmount(amount: raw.amount.magnitude, currencyCode: currency),
                                  asOfDate: raw.asOf.date, creditDebitIndicator: indicator)
            if byDate[raw.asOf.date] == nil { order.append(raw.asOf.date) }
            var entry = byDate[raw.asOf.date] ?? (nil, nil)
            switch raw.kind {
            case .available: entry.available = balance
            case .booked: entry.booked = balance
            }
            byDate[raw.asOf.date] = entry
        }
        for date in order {
            guard let entry = byDate[date], let current = CurrentBalance(available: entry.available, booked: entry.booked) else { continue }
            let balance = AccountBalance(id: .timeOrdered(), accountID: account.id, currentBalance: current)
            // A balance in another currency than the account's (a store filled before accounts were kept per
            // currency) names its currency; the account's own leave it out, as keys always did.
            let key = [entry.available, entry.booked].map { b in
                b.map { b in
                    let currency = b.amount.currencyCode == account.currencyCode ? "" : "|" + b.amount.currencyCode
                    return "\(Int64(b.asOfDate.timeIntervalSince1970 * 1000))|\(b.creditDebitIndicator.name)|"
                        + ExactDecimal.text(b.amount.amount) + currency
                } ?? "-"
            }.joined(separator: "/")
            if try writer.insertBalance(balance, dedupeKey: key) { report.balancesAdded += 1 }
        }
        balances = []
    }
}
