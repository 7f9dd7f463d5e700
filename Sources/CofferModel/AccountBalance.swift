import Foundation

/// A balance of an account as the institution reported it at some moment. Coffer keeps every balance it
/// ingests, so the history of an account's balance can be charted.
public struct AccountBalance: Identifiable, Codable, Equatable, Sendable {
    /// The balance's stable identifier.
    public let id: UUID
    /// The account the balance belongs to.
    public let accountID: UUID
    /// The available balance, the booked balance, or both.
    public let currentBalance: CurrentBalance

    /// Creates a balance value.
    public init(id: UUID, accountID: UUID, currentBalance: CurrentBalance) {
        self.id = id
        self.accountID = accountID
        self.currentBalance = currentBalance
    }

    /// Includes pending transactions.
    public var available: Balance? {
        switch currentBalance {
        case .available(let b), .availableAndBooked(available: let b, booked: _): b
        case .booked: nil
        }
    }

    /// Posted transactions only.
    public var booked: Balance? {
        switch currentBalance {
        case .booked(let b), .availableAndBooked(available: _, booked: let b): b
        case .available: nil
        }
    }

    /// The same across the available and booked balances.
    public var currencyCode: String { (available ?? booked)!.amount.currencyCode }
}

/// The available balance, the booked balance, or both.
///
/// Encodes as `{"available": {…}}`, `{"booked": {…}}` or both keys.
public enum CurrentBalance: Codable, Hashable, Sendable {
    case available(Balance)
    case booked(Balance)
    case availableAndBooked(available: Balance, booked: Balance)

    private enum CodingKeys: String, CodingKey { case available, booked }

    /// Encodes whichever sides are known.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .available(let b): try c.encode(b, forKey: .available)
        case .booked(let b): try c.encode(b, forKey: .booked)
        case .availableAndBooked(let a, let b):
            try c.encode(a, forKey: .available)
            try c.encode(b, forKey: .booked)
        }
    }

    /// Decodes what `encode(to:)` wrote; at least one side must be there.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let available = try c.decodeIfPresent(Balance.self, forKey: .available)
        let booked = try c.decodeIfPresent(Balance.self, forKey: .booked)
        guard let current = CurrentBalance(available: available, booked: booked) else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "a balance needs 'available' or 'booked'"))
        }
        self = current
    }

    /// The balance with whichever sides are known; nil when neither is.
    public init?(available: Balance?, booked: Balance?) {
        switch (available, booked) {
        case let (a?, b?): self = .availableAndBooked(available: a, booked: b)
        case let (a?, nil): self = .available(a)
        case let (nil, b?): self = .booked(b)
        case (nil, nil): return nil
        }
    }
}

/// One balance figure: positive amount, when the institution computed it, and which side it is on.
public struct Balance: Codable, Hashable, Sendable {
    /// The balance as a positive amount; `creditDebitIndicator` says which side it is on.
    public let amount: CurrencyAmount
    /// When the institution calculated the balance.
    public let asOfDate: Date
    /// `.credit` when the account holds money (or, for a liability, is overpaid); `.debit` when it owes.
    public let creditDebitIndicator: CreditDebitIndicator

    /// Creates a balance from a positive amount and its side.
    public init(amount: CurrencyAmount, asOfDate: Date, creditDebitIndicator: CreditDebitIndicator) {
        self.amount = amount
        self.asOfDate = asOfDate
        self.creditDebitIndicator = creditDebitIndicator
    }

    /// A balance from the signed figure a statement shows, read as FinanceKit does:
    /// - asset: positive (money held) is `.credit`, negative (overdrawn) is `.debit`;
    /// - liability: positive (money owed) is `.debit`, negative (account in credit) is `.credit`;
    /// - zero is always `.credit`.
    public init(signedAmount: Decimal, currencyCode: String, asOfDate: Date, accountKind: AccountKind) {
        let indicator: CreditDebitIndicator
        if signedAmount == 0 {
            indicator = .credit
        } else {
            switch accountKind {
            case .asset: indicator = signedAmount > 0 ? .credit : .debit
            case .liability: indicator = signedAmount > 0 ? .debit : .credit
            }
        }
        self.init(amount: CurrencyAmount(amount: signedAmount.magnitude, currencyCode: currencyCode),
                  asOfDate: asOfDate, creditDebitIndicator: indicator)
    }

    /// The balance signed from the account holder's side: credit positive, debit negative.
    public var signedAmount: Decimal {
        creditDebitIndicator == .credit ? amount.amount : -amount.amount
    }
}
