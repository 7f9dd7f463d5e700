import CofferModel
import Foundation

/// FinanceKit's model values decoded from the current row of a `ReadStatement`, over the column lists of
/// `Rows` (`Rows.transactionColumns`, `accountColumns`, `balanceColumns`). Queries and history read through
/// these; `Rows`' GRDB-`Row` decoders give the same values (a test compares them column by column).
enum StatementRows {
    static func transaction(_ s: ReadStatement) throws -> Transaction {
        let currency = s.text(3)
        var foreign: CurrencyAmount?
        if let amount = try s.decimal(4, column: "foreign_amount"), let code = s.optionalText(5) {
            foreign = CurrencyAmount(amount: amount, currencyCode: code)
        }
        guard let amount = try s.decimal(2, column: "amount") else {
            throw CofferError(.notAStore, "damaged store: a transaction has no amount")
        }
        let description = s.text(8)
        return Transaction(
            id: try s.uuid(0, column: "id"), accountID: try s.uuid(1, column: "account_id"),
            transactionAmount: CurrencyAmount(amount: amount, currencyCode: currency),
            foreignCurrencyAmount: foreign,
            foreignCurrencyExchangeRate: try s.decimal(6, column: "exchange_rate"),
            creditDebitIndicator: int16(s, 7).flatMap(CreditDebitIndicator.init(rawValue:)) ?? .debit,
            transactionDescription: description, originalTransactionDescription: s.optionalText(9, sameAs: 8, description) ?? "",
            merchantCategoryCode: s.isNull(10) ? nil : int16(s, 10).map(MerchantCategoryCode.init(rawValue:)),
            merchantName: s.optionalText(11, sameAs: 8, description),
            transactionType: int16(s, 12).flatMap(TransactionType.init(rawValue:)) ?? .unknown,
            status: int16(s, 13).flatMap(TransactionStatus.init(rawValue:)) ?? .booked,
            transactionDate: Rows.date(s.int64(14)), postedDate: s.optionalInt64(15).map(Rows.date),
            timeZoneOffset: s.optionalInt64(16).map { Int($0) })
    }

    static func account(_ s: ReadStatement) throws -> Account {
        let currency = s.text(5)
        let id = try s.uuid(0, column: "id")
        let opening = s.optionalInt64(6).map(Rows.date)
        func amount(_ index: CInt, _ column: String) throws -> CurrencyAmount? {
            try s.decimal(index, column: column).map { CurrencyAmount(amount: $0, currencyCode: currency) }
        }
        if s.int64(1) == 1 {
            let credit = AccountCreditInformation(
                creditLimit: try amount(7, "credit_limit"),
                minimumNextPaymentAmount: try amount(8, "minimum_next_payment"),
                nextPaymentDueDate: s.optionalInt64(9).map(Rows.date), overduePaymentAmount: try amount(10, "overdue_payment"))
            return .liability(LiabilityAccount(
                id: id, displayName: s.text(2), accountDescription: s.optionalText(3), institutionName: s.text(4),
                currencyCode: currency, openingDate: opening, creditInformation: credit))
        }
        return .asset(AssetAccount(
            id: id, displayName: s.text(2), accountDescription: s.optionalText(3), institutionName: s.text(4),
            currencyCode: currency, openingDate: opening))
    }

    static func balance(_ s: ReadStatement) throws -> AccountBalance {
        let currency = s.text(2)
        func side(_ start: CInt, _ column: String) throws -> Balance? {
            guard let amount = try s.decimal(start, column: column), !s.isNull(start + 1), !s.isNull(start + 2) else { return nil }
            return Balance(amount: CurrencyAmount(amount: amount, currencyCode: currency), asOfDate: Rows.date(s.int64(start + 2)),
                           creditDebitIndicator: int16(s, start + 1).flatMap(CreditDebitIndicator.init(rawValue:)) ?? .credit)
        }
        guard let current = CurrentBalance(available: try side(3, "available_amount"), booked: try side(6, "booked_amount")) else {
            throw CofferError(.notAStore, "damaged store: a balance row has neither side")
        }
        return AccountBalance(id: try s.uuid(0, column: "id"), accountID: try s.uuid(1, column: "account_id"), currentBalance: current)
    }

    /// A small integer column (enums, MCC); nil when it does not fit, which no store this code wrote holds.
    @inline(__always)
    private static func int16(_ s: ReadStatement, _ index: CInt) -> Int16? { Int16(exactly: s.int64(index)) }
}
