import Foundation

/// One transaction of an account, with FinanceKit's 14 properties.
///
/// `transactionAmount` is always positive; `creditDebitIndicator` says which way the money went.
/// `id` is assigned when Coffer first sees the transaction and kept for its whole life
/// (pending → booked → corrected).
///
/// Dates: a statement that gives only a calendar day is stored as midnight UTC of that day; read such dates
/// with a UTC calendar (the CLI and JSON output do) and the day never shifts. A statement that gives a time gives
/// an exact instant, and Coffer keeps the offset it was written in (`timeZoneOffset`): the transaction belongs to
/// the calendar day of that offset (`localDay`), as the bank's own statement shows it. `20260331200000[-8:PST]`
/// is the instant 2026-04-01T04:00:00Z, on March 31.
public struct Transaction: Identifiable, Codable, Equatable, Sendable {
    public var id: UUID
    /// The account the transaction belongs to.
    public var accountID: UUID
    /// The amount, always positive, in the account's currency.
    public var transactionAmount: CurrencyAmount
    /// The amount in the currency the purchase was made in, when that differs from the account's.
    public var foreignCurrencyAmount: CurrencyAmount?
    /// The rate the institution converted `foreignCurrencyAmount` at.
    public var foreignCurrencyExchangeRate: Decimal?
    /// Which way the money went: `.credit` into the account, `.debit` out of it.
    public var creditDebitIndicator: CreditDebitIndicator
    /// Display text: cleaned merchant or payee.
    public var transactionDescription: String
    /// The text exactly as the institution sent it (may be empty).
    public var originalTransactionDescription: String
    /// The ISO 18245 merchant category code, from the statement or a merchant rule.
    public var merchantCategoryCode: MerchantCategoryCode?
    /// The merchant's name alone (no store number or city), when a statement or a merchant rule gives it.
    public var merchantName: String?
    /// What kind of transaction it is, as the statement says or Coffer infers from its text.
    public var transactionType: TransactionType
    /// Whether it is pending, booked, authorized, memo or rejected.
    public var status: TransactionStatus
    /// When the transaction took place.
    public var transactionDate: Date
    /// When it was posted; when nil, use `transactionDate`.
    public var postedDate: Date?
    /// Coffer's addition: the offset from UTC, in seconds, of the time the statement gave (`[-8:PST]` is -28,800;
    /// 0 for a time given in UTC or without a zone); nil when the statement gave only a calendar day, and for
    /// rows stored before Coffer kept offsets (their day is their UTC day).
    public var timeZoneOffset: Int?

    /// Coffer's addition: the calendar day the transaction belongs to, as days since 1970-01-01: the day of
    /// `transactionDate` in its own offset, or a date-only value's own day. Dedupe, `--from/--to`,
    /// `TransactionQuery.predicate(fromDay:throughDay:)` and sorting by day use it.
    public var localDay: Int { CalendarDay.localDay(transactionDate, offset: timeZoneOffset) }

    /// Whether the statement gave only a calendar day. Decided by the offset, not by the time: a time that is
    /// midnight UTC (`20260314190000[-5:EST]`) is a time. Rows stored before offsets were kept have none; for
    /// them midnight UTC still means a day.
    public var isDateOnly: Bool { timeZoneOffset == nil && CalendarDay.isMidnightUTC(transactionDate) }

    /// Creates a transaction value; imports create stored ones, so programs need this mostly in tests.
    // Inlinable: the store's decoder builds a thousand of these a query, and across modules each was a call
    // that copied the whole value out (issue 16).
    @inlinable
    public init(
        id: UUID, accountID: UUID, transactionAmount: CurrencyAmount,
        foreignCurrencyAmount: CurrencyAmount? = nil, foreignCurrencyExchangeRate: Decimal? = nil,
        creditDebitIndicator: CreditDebitIndicator, transactionDescription: String,
        originalTransactionDescription: String, merchantCategoryCode: MerchantCategoryCode? = nil,
        merchantName: String? = nil, transactionType: TransactionType = .unknown,
        status: TransactionStatus = .booked, transactionDate: Date, postedDate: Date? = nil,
        timeZoneOffset: Int? = nil
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
        self.timeZoneOffset = timeZoneOffset
    }

    /// The amount with its sign from the account holder's side: credit positive, debit negative.
    public var signedAmount: Decimal {
        creditDebitIndicator == .credit ? transactionAmount.amount : -transactionAmount.amount
    }

    private enum CodingKeys: String, CodingKey {
        case id, accountID, transactionAmount, foreignCurrencyAmount, foreignCurrencyExchangeRate,
             creditDebitIndicator, transactionDescription, originalTransactionDescription, merchantCategoryCode,
             merchantName, transactionType, status, transactionDate, postedDate, timeZoneOffset
    }

    /// Set to `true` in an encoder's `userInfo` to write `transactionDate` as text in its own offset
    /// (`2026-03-31T20:00:00-08:00`, `CalendarDay.text(_:offset:)`) rather than through the date strategy: the
    /// CLI's JSON does, so the day printed is the bank's own.
    public static let localDateText = CodingUserInfoKey(rawValue: "coffer.localDateText")!

    /// Encodes FinanceKit's property names; enums as case names, amounts as exact text.
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
        if let offset = timeZoneOffset, encoder.userInfo[Self.localDateText] as? Bool == true {
            try c.encode(CalendarDay.text(transactionDate, offset: offset), forKey: .transactionDate)
        } else {
            try c.encode(transactionDate, forKey: .transactionDate)
        }
        try c.encodeIfPresent(postedDate, forKey: .postedDate)
        try c.encodeIfPresent(timeZoneOffset, forKey: .timeZoneOffset)
    }

    /// Decodes what `encode(to:)` wrote.
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
        timeZoneOffset = try c.decodeIfPresent(Int.self, forKey: .timeZoneOffset)
    }
}
