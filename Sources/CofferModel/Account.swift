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
    /// A longer description the institution gives, such as the product name.
    public var accountDescription: String? {
        switch self { case .asset(let a): a.accountDescription; case .liability(let l): l.accountDescription }
    }
    /// The name of the bank or card issuer that holds the account.
    public var institutionName: String {
        switch self { case .asset(let a): a.institutionName; case .liability(let l): l.institutionName }
    }
    /// The account's ISO 4217 currency code.
    public var currencyCode: String {
        switch self { case .asset(let a): a.currencyCode; case .liability(let l): l.currencyCode }
    }
    /// The day the account was opened, when a statement says.
    public var openingDate: Date? {
        switch self { case .asset(let a): a.openingDate; case .liability(let l): l.openingDate }
    }
    /// The asset account, if this is one.
    public var assetAccount: AssetAccount? {
        if case .asset(let a) = self { return a }
        return nil
    }
    /// The liability account, if this is one.
    public var liabilityAccount: LiabilityAccount? {
        if case .liability(let l) = self { return l }
        return nil
    }

    /// `"asset"` or `"liability"`.
    public var kind: AccountKind { assetAccount != nil ? .asset : .liability }

    private enum CodingKeys: String, CodingKey { case kind }

    /// Encodes the account flat, with its `kind`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .asset(let a): try a.encode(to: encoder)
        case .liability(let l): try l.encode(to: encoder)
        }
    }

    /// Decodes an account written by `encode(to:)`, choosing the case by `kind`.
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
    /// The account's stable identifier (derived from the account number with a keyed hash; the number is never stored).
    public let id: UUID
    /// The name the person gave the account.
    public let displayName: String
    /// A longer description the institution gives, such as the product name.
    public let accountDescription: String?
    /// The name of the bank or card issuer that holds the account.
    public let institutionName: String
    /// The account's ISO 4217 currency code.
    public let currencyCode: String
    /// The day the account was opened, when a statement says.
    public let openingDate: Date?

    /// Creates an account value; `coffer` creates accounts from statements, so programs rarely need this.
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
    /// The account's stable identifier (derived from the account number with a keyed hash; the number is never stored).
    public let id: UUID
    /// The name the person gave the account.
    public let displayName: String
    /// A longer description the institution gives, such as the product name.
    public let accountDescription: String?
    /// The name of the bank or card issuer that holds the account.
    public let institutionName: String
    /// The account's ISO 4217 currency code.
    public let currencyCode: String
    /// The day the account was opened, when a statement says.
    public let openingDate: Date?
    /// The credit limit and the payments due.
    public let creditInformation: AccountCreditInformation

    /// Creates an account value; `coffer` creates accounts from statements, so programs rarely need this.
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
    /// The most the person may owe.
    public let creditLimit: CurrencyAmount?
    /// Minimum amount of the next non-overdue payment.
    public let minimumNextPaymentAmount: CurrencyAmount?
    /// When the next payment is due.
    public let nextPaymentDueDate: Date?
    /// When set together with `minimumNextPaymentAmount`, the latter describes the next bill.
    public let overduePaymentAmount: CurrencyAmount?

    /// Creates credit information; every part is optional, as statements give what they give.
    public init(creditLimit: CurrencyAmount? = nil, minimumNextPaymentAmount: CurrencyAmount? = nil,
                nextPaymentDueDate: Date? = nil, overduePaymentAmount: CurrencyAmount? = nil) {
        self.creditLimit = creditLimit
        self.minimumNextPaymentAmount = minimumNextPaymentAmount
        self.nextPaymentDueDate = nextPaymentDueDate
        self.overduePaymentAmount = overduePaymentAmount
    }
}
