import Foundation

extension AccountBalance {
    /// Per account (in the order accounts first appear), one balance holding the latest booked and the latest
    /// available amount the statements reported, each with its own as-of date: a statement giving only an
    /// available balance does not hide the booked one an earlier statement gave. Its id is the balance record of
    /// the booked amount (else of the available one). Of two equally dated amounts, the one listed later wins.
    package static func latest(_ balances: [AccountBalance]) -> [AccountBalance] {
        var order: [UUID] = []
        var booked: [UUID: (Balance, UUID)] = [:], available: [UUID: (Balance, UUID)] = [:]
        for b in balances {
            if booked[b.accountID] == nil, available[b.accountID] == nil { order.append(b.accountID) }
            if let amount = b.booked, booked[b.accountID].map({ $0.0.asOfDate <= amount.asOfDate }) ?? true { booked[b.accountID] = (amount, b.id) }
            if let amount = b.available, available[b.accountID].map({ $0.0.asOfDate <= amount.asOfDate }) ?? true {
                available[b.accountID] = (amount, b.id)
            }
        }
        return order.compactMap { account in
            guard let current = CurrentBalance(available: available[account]?.0, booked: booked[account]?.0),
                  let id = booked[account]?.1 ?? available[account]?.1 else { return nil }
            return AccountBalance(id: id, accountID: account, currentBalance: current)
        }
    }
}
