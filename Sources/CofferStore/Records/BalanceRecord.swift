import CofferModel
import Foundation
import GRDB

/// A row of `balance`, the GRDB way (see `AccountRecord`). Each side (available, booked) is kept as its exact
/// decimal text, micro-units, indicator and as-of time; `balance()` and `init(_:…)` are the one mapping to
/// FinanceKit's `AccountBalance`.
struct BalanceRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "balance"

    var id: UUID
    var accountID: UUID
    var currencyCode: String
    var availableAmount: String?
    var availableScaled: Int64?
    var availableIndicator: Int?
    var availableAsOf: Int64?
    var bookedAmount: String?
    var bookedScaled: Int64?
    var bookedIndicator: Int?
    var bookedAsOf: Int64?
    /// The later side's as-of time.
    var asOf: Int64
    /// What makes a balance the same one when a statement is imported again (`StoreWriter.insertBalance`).
    var dedupeKey: String
    var createdSeq: Int64

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, accountID = "account_id", currencyCode = "currency_code",
             availableAmount = "available_amount", availableScaled = "available_scaled",
             availableIndicator = "available_indicator", availableAsOf = "available_as_of",
             bookedAmount = "booked_amount", bookedScaled = "booked_scaled", bookedIndicator = "booked_indicator",
             bookedAsOf = "booked_as_of", asOf = "as_of", dedupeKey = "dedupe_key", createdSeq = "created_seq"
    }

    enum Columns {
        static let accountID = Column(CodingKeys.accountID)
        static let dedupeKey = Column(CodingKeys.dedupeKey)
    }

    /// Every column, for a `SELECT` the read path decodes.
    static let selectList = CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")

    init(_ balance: AccountBalance, dedupeKey: String, createdSeq: Int64) {
        let a = balance.available
        let b = balance.booked
        id = balance.id
        accountID = balance.accountID
        currencyCode = balance.currencyCode
        availableAmount = a.map { ExactDecimal.text($0.amount.amount) }
        availableScaled = a.map { Rows.scaled($0.amount.amount) }
        availableIndicator = a.map { Int($0.creditDebitIndicator.rawValue) }
        availableAsOf = a.map { Rows.millis($0.asOfDate) }
        bookedAmount = b.map { ExactDecimal.text($0.amount.amount) }
        bookedScaled = b.map { Rows.scaled($0.amount.amount) }
        bookedIndicator = b.map { Int($0.creditDebitIndicator.rawValue) }
        bookedAsOf = b.map { Rows.millis($0.asOfDate) }
        asOf = Rows.millis(max(a?.asOfDate ?? .distantPast, b?.asOfDate ?? .distantPast))
        self.dedupeKey = dedupeKey
        self.createdSeq = createdSeq
    }

    /// The stored balance; an error when an amount is not a decimal or neither side is whole (a damaged store).
    func balance() throws -> AccountBalance {
        func side(_ amount: String?, _ indicator: Int?, _ asOf: Int64?, _ column: CodingKeys) throws -> Balance? {
            guard let amount = try Rows.decimal(amount, column: column.stringValue), let indicator, let asOf else { return nil }
            return Balance(amount: CurrencyAmount(amount: amount, currencyCode: currencyCode), asOfDate: Rows.date(asOf),
                           creditDebitIndicator: Int16(exactly: indicator).flatMap(CreditDebitIndicator.init(rawValue:)) ?? .credit)
        }
        guard let current = CurrentBalance(
            available: try side(availableAmount, availableIndicator, availableAsOf, .availableAmount),
            booked: try side(bookedAmount, bookedIndicator, bookedAsOf, .bookedAmount)) else {
            throw CofferError(.notAStore, "damaged store: a balance row has neither side")
        }
        return AccountBalance(id: id, accountID: accountID, currentBalance: current)
    }
}
