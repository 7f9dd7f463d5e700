import Foundation

/// An account: an asset (bank, savings) or a liability (credit card, loan).
///
/// Encodes flat, with a `kind` field: `{"kind": "asset", "id": …, "displayName": …}`.
public enum Account: Identifiable, Codable, Equatable, Sendable {
    case asset(AssetAccount)
    case liability(LiabilityAccount)

    public var id: UUID {
        switch self { case .asset(let a): a.id; case .liability(let l): l.id }
    }
    /// The name the person gave the account.
    public var displayName: String {
        switch self { case .asset(let a): a.displayName; case .liability(let l): l.displayName }
    }
    public var accountDescription: String? {
        switch self { case .asset(let a): a.accountDescription; case .liability(let l): l.accountDescription }
    }
    public var institutionName: String {
        switch self { case .asset(let a): a.institutionName; case .liability(let l): l.institutionName }
    }
    public var currencyCode: String {
        switch self { case .asset(let a): a.currencyCode; case .liability(let l): l.currencyCode }
    }
    public var openingDate: Date? {
        switch self { case .asset(let a): a.openingDate; case .liability(let l): l.openingDate }
    }
    public var assetAccount: AssetAccount? {
        if case .asset(let a) = self { return a }
        return nil
    }
    public var liabilityAccount: LiabilityAccount? {
        if case .liability(let l) = self { return l }
        return nil
    }

    /// `"asset"` or `"liability"`.
    public var kind: AccountKind { assetAccount != nil ? .asset : .liability }

    private enum CodingKeys: String, CodingKey { case kind }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .asset(let a): try a.encode(to: encoder)
        case .liability(let l): try l.encode(to: encoder)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(AccountKind.self, forKey: .kind) {
        case .asset: self = .asset(try AssetAccount(from: decoder))
        case .liability: self = .liability(try LiabilityAccount(from: decoder))
        }
    }
}

/// Which side of the balance sheet an account is on; decides how amounts and balances read.
public enum AccountKind: String, Codable, Sendable, Hashable, CaseIterable {
    case asset
    case liability
}

/// A bank, savings or other account that holds the person's money.
public struct AssetAccount: Identifiable, Codable, Equatable, Sendable {
    public let id: UUID
    public let displayName: String
    public let accountDescription: String?
    public let institutionName: String
    public let currencyCode: String
    public let openingDate: Date?

    public init(id: UUID, displayName: String, accountDescription: String? = nil, institutionName: String,
                currencyCode: String, openingDate: Date? = nil) {
        self.id = id
        self.displayName = displayName
        self.accountDescription = accountDescription
        self.institutionName = institutionName
        self.currencyCode = currencyCode
        self.openingDate = openingDate
    }
}

/// A credit card, loan or other account where the person owes money.
public struct LiabilityAccount: Identifiable, Codable, Equatable, Sendable {
    public let id: UUID
    public let displayName: String
    public let accountDescription: String?
    public let institutionName: String
    public let currencyCode: String
    public let openingDate: Date?
    public let creditInformation: AccountCreditInformation

    public init(id: UUID, displayName: String, accountDescription: String? = nil, institutionName: String,
                currencyCode: String, openingDate: Date? = nil,
                creditInformation: AccountCreditInformation = AccountCreditInformation()) {
        self.id = id
        self.displayName = displayName
        self.accountDescription = accountDescription
        self.institutionName = institutionName
        self.currencyCode = currencyCode
        self.openingDate = openingDate
        self.creditInformation = creditInformation
    }
}

/// Credit limit and payment information of a liability account.
public struct AccountCreditInformation: Codable, Hashable, Sendable {
    public let creditLimit: CurrencyAmount?
    /// Minimum amount of the next non-overdue payment.
    public let minimumNextPaymentAmount: CurrencyAmount?
    public let nextPaymentDueDate: Date?
    /// When set together with `minimumNextPaymentAmount`, the latter describes the next bill.
    public let overduePaymentAmount: CurrencyAmount?

    public init(creditLimit: CurrencyAmount? = nil, minimumNextPaymentAmount: CurrencyAmount? = nil,
                nextPaymentDueDate: Date? = nil, overduePaymentAmount: CurrencyAmount? = nil) {
        self.creditLimit = creditLimit
        self.minimumNextPaymentAmount = minimumNextPaymentAmount
        self.nextPaymentDueDate = nextPaymentDueDate
        self.overduePaymentAmount = overduePaymentAmount
    }
}
