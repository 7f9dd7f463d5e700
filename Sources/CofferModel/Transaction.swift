import Foundation

/// One transaction of an account, with FinanceKit's 14 properties.
///
/// `transactionAmount` is always positive; `creditDebitIndicator` says which way the money went.
/// `id` is assigned when Coffer first sees the transaction and kept for its whole life
/// (pending → booked → corrected).
///
/// Dates: a statement that gives only a calendar day is stored as midnight UTC of that day; read such dates
/// with a UTC calendar (the CLI and JSON output do) and the day never shifts.
public struct Transaction: Identifiable, Codable, Equatable, Sendable {
    public var id: UUID
    public var accountID: UUID
    public var transactionAmount: CurrencyAmount
    public var foreignCurrencyAmount: CurrencyAmount?
    public var foreignCurrencyExchangeRate: Decimal?
    public var creditDebitIndicator: CreditDebitIndicator
    /// Display text: cleaned merchant or payee.
    public var transactionDescription: String
    /// The text exactly as the institution sent it (may be empty).
    public var originalTransactionDescription: String
    public var merchantCategoryCode: MerchantCategoryCode?
    public var merchantName: String?
    public var transactionType: TransactionType
    public var status: TransactionStatus
    /// When the transaction took place.
    public var transactionDate: Date
    /// When it was posted; when nil, use `transactionDate`.
    public var postedDate: Date?

    public init(
        id: UUID, accountID: UUID, transactionAmount: CurrencyAmount,
        foreignCurrencyAmount: CurrencyAmount? = nil, foreignCurrencyExchangeRate: Decimal? = nil,
        creditDebitIndicator: CreditDebitIndicator, transactionDescription: String,
        originalTransactionDescription: String, merchantCategoryCode: MerchantCategoryCode? = nil,
        merchantName: String? = nil, transactionType: TransactionType = .unknown,
        status: TransactionStatus = .booked, transactionDate: Date, postedDate: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.transactionAmount = transactionAmount
        self.foreignCurrencyAmount = foreignCurrencyAmount
        self.foreignCurrencyExchangeRate = foreignCurrencyExchangeRate
        self.creditDebitIndicator = creditDebitIndicator
        self.transactionDescription = transactionDescription
        self.originalTransactionDescription = originalTransactionDescription
        self.merchantCategoryCode = merchantCategoryCode
        self.merchantName = merchantName
        self.transactionType = transactionType
        self.status = status
        self.transactionDate = transactionDate
        self.postedDate = postedDate
    }

    /// The amount with its sign from the account holder's side: credit positive, debit negative.
    public var signedAmount: Decimal {
        creditDebitIndicator == .credit ? transactionAmount.amount : -transactionAmount.amount
    }

    private enum CodingKeys: String, CodingKey {
        case id, accountID, transactionAmount, foreignCurrencyAmount, foreignCurrencyExchangeRate,
             creditDebitIndicator, transactionDescription, originalTransactionDescription, merchantCategoryCode,
             merchantName, transactionType, status, transactionDate, postedDate
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(accountID, forKey: .accountID)
        try c.encode(transactionAmount, forKey: .transactionAmount)
        try c.encodeIfPresent(foreignCurrencyAmount, forKey: .foreignCurrencyAmount)
        // Exact text, never a binary float.
        try c.encodeIfPresent(foreignCurrencyExchangeRate.map { ExactDecimal.text($0) }, forKey: .foreignCurrencyExchangeRate)
        try c.encode(creditDebitIndicator, forKey: .creditDebitIndicator)
        try c.encode(transactionDescription, forKey: .transactionDescription)
        try c.encode(originalTransactionDescription, forKey: .originalTransactionDescription)
        try c.encodeIfPresent(merchantCategoryCode, forKey: .merchantCategoryCode)
        try c.encodeIfPresent(merchantName, forKey: .merchantName)
        try c.encode(transactionType, forKey: .transactionType)
        try c.encode(status, forKey: .status)
        try c.encode(transactionDate, forKey: .transactionDate)
        try c.encodeIfPresent(postedDate, forKey: .postedDate)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        accountID = try c.decode(UUID.self, forKey: .accountID)
        transactionAmount = try c.decode(CurrencyAmount.self, forKey: .transactionAmount)
        foreignCurrencyAmount = try c.decodeIfPresent(CurrencyAmount.self, forKey: .foreignCurrencyAmount)
        if let rate = try? c.decodeIfPresent(String.self, forKey: .foreignCurrencyExchangeRate) {
            guard let value = ExactDecimal.parse(rate) else {
                throw DecodingError.dataCorruptedError(forKey: .foreignCurrencyExchangeRate, in: c, debugDescription: "'\(rate)' is not a decimal")
            }
            foreignCurrencyExchangeRate = value
        } else {
            foreignCurrencyExchangeRate = try c.decodeIfPresent(Decimal.self, forKey: .foreignCurrencyExchangeRate)
        }
        creditDebitIndicator = try c.decode(CreditDebitIndicator.self, forKey: .creditDebitIndicator)
        transactionDescription = try c.decode(String.self, forKey: .transactionDescription)
        originalTransactionDescription = try c.decode(String.self, forKey: .originalTransactionDescription)
        merchantCategoryCode = try c.decodeIfPresent(MerchantCategoryCode.self, forKey: .merchantCategoryCode)
        merchantName = try c.decodeIfPresent(String.self, forKey: .merchantName)
        transactionType = try c.decode(TransactionType.self, forKey: .transactionType)
        status = try c.decode(TransactionStatus.self, forKey: .status)
        transactionDate = try c.decode(Date.self, forKey: .transactionDate)
        postedDate = try c.decodeIfPresent(Date.self, forKey: .postedDate)
    }
}
