import CofferModel
import Foundation
import GRDB

/// Mapping between the store's rows and FinanceKit's model values. Decoding is by column index over fixed
/// column lists: this runs once per row of every query and history batch.
enum Rows {
    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    static func decimal(_ text: String?, column: String) throws -> Decimal? {
        guard let text else { return nil }
        guard let value = ExactDecimal.parse(text) else {
            throw CofferError(.notAStore, "damaged store: '\(text)' in column \(column) is not a decimal")
        }
        return value
    }

    // MARK: Transactions

    static let transactionColumns = """
        id, account_id, amount, currency_code, foreign_amount, foreign_currency_code, exchange_rate, indicator, \
        description, original_description, mcc, merchant_name, type, status, transaction_date, posted_date, utc_offset
        """

    static func transaction(_ row: Row) throws -> Transaction {
        let currency: String = row[3]
        let foreign: CurrencyAmount? = try {
            guard let text: String = row[4], let code: String = row[5] else { return nil }
            return CurrencyAmount(amount: try decimal(text, column: "foreign_amount")!, currencyCode: code)
        }()
        let postedMillis: Int64? = row[15]
        let mcc: Int16? = row[10]
        return Transaction(
            id: row[0], accountID: row[1],
            transactionAmount: CurrencyAmount(amount: try decimal(row[2], column: "amount")!, currencyCode: currency),
            foreignCurrencyAmount: foreign,
            foreignCurrencyExchangeRate: try decimal(row[6], column: "exchange_rate"),
            creditDebitIndicator: CreditDebitIndicator(rawValue: row[7]) ?? .debit,
            transactionDescription: row[8], originalTransactionDescription: row[9],
            merchantCategoryCode: mcc.map(MerchantCategoryCode.init(rawValue:)),
            merchantName: row[11],
            transactionType: TransactionType(rawValue: row[12]) ?? .unknown,
            status: TransactionStatus(rawValue: row[13]) ?? .booked,
            transactionDate: date(row[14]), postedDate: postedMillis.map(date), timeZoneOffset: row[16])
    }

    /// The values for `INSERT INTO txn` in `transactionColumns` order.
    static func transactionArguments(_ t: Transaction) -> [DatabaseValue] {
        let amount = t.transactionAmount.amount
        var values: [DatabaseValue] = []
        values.reserveCapacity(22)
        values.append(t.id.databaseValue)
        values.append(t.accountID.databaseValue)
        values.append(ExactDecimal.text(amount).databaseValue)
        values.append(t.transactionAmount.currencyCode.databaseValue)
        values.append(dv(t.foreignCurrencyAmount.map { ExactDecimal.text($0.amount) }))
        values.append(dv(t.foreignCurrencyAmount?.currencyCode))
        values.append(dv(t.foreignCurrencyExchangeRate.map { ExactDecimal.text($0) }))
        values.append(t.creditDebitIndicator.rawValue.databaseValue)
        values.append(t.transactionDescription.databaseValue)
        values.append(t.originalTransactionDescription.databaseValue)
        values.append(dv(t.merchantCategoryCode?.rawValue))
        values.append(dv(t.merchantName))
        values.append(t.transactionType.rawValue.databaseValue)
        values.append(t.status.rawValue.databaseValue)
        values.append(millis(t.transactionDate).databaseValue)
        values.append(dv(t.postedDate.map(millis)))
        values.append(dv(t.timeZoneOffset))
        return values
    }

    /// What `txn.folded_text` holds for these texts: each folded (`SearchFolding`), the distinct ones joined by
    /// U+001F, which no folded text holds (so a search cannot match across two texts).
    ///
    /// For example, "CAFÉ MÜLLER", "CAFE MULLER KOELN", "Café Müller" → "cafe muller\u{1F}cafe muller koeln".
    static func foldedText(description: String, original: String, merchant: String?) -> String {
        let first = SearchFolding.fold(description)
        var text = first
        let second = original == description ? first : SearchFolding.fold(original)
        if second != first { text += "\u{1F}" + second }
        if let merchant {
            let third = merchant == description ? first : merchant == original ? second : SearchFolding.fold(merchant)
            if third != first, third != second { text += "\u{1F}" + third }
        }
        return text
    }

    static func foldedText(_ t: Transaction) -> String {
        foldedText(description: t.transactionDescription, original: t.originalTransactionDescription, merchant: t.merchantName)
    }

    /// No UTC offset is larger than 14 h (`+14:00`, Kiribati; OFX allows no more): a local day `d` lies within
    /// `transaction_date` of `[d − 14 h, d + 1 day + 14 h)`. Day queries read that range through the date indexes
    /// and filter `local_day` exactly.
    static let offsetMargin: Int64 = 14 * 3_600_000

    /// The `transaction_date` range (milliseconds, half-open) that holds every row of local days `from...through`.
    static func dateRange(fromDay: Int, throughDay: Int) -> (start: Int64, end: Int64) {
        // Days beyond ±100 million (273,000 years) are clamped: no overflow, and no stored date is out there.
        let from = Int64(max(-100_000_000, min(100_000_000, fromDay)))
        let through = Int64(max(-100_000_000, min(100_000_000, throughDay)))
        return (from * 86_400_000 - offsetMargin, (through + 1) * 86_400_000 + offsetMargin)
    }

    static func dv(_ value: (any DatabaseValueConvertible)?) -> DatabaseValue { value?.databaseValue ?? .null }

    /// Micro-units, or the nearest value toward zero when the amount has more than six decimals (the exact text
    /// stays in `amount`).
    static func scaled(_ amount: Decimal) -> Int64 {
        if let exact = ExactDecimal.scaled(amount) { return exact }
        var value = amount * 1_000_000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, amount < 0 ? .up : .down)
        return Int64(rounded.description) ?? (amount < 0 ? Int64.min : Int64.max)
    }

    // MARK: Accounts

    static let accountColumns = """
        id, kind, display_name, account_description, institution_name, currency_code, opening_date, \
        credit_limit, minimum_next_payment, next_payment_due_date, overdue_payment
        """

    /// `accountColumns`, each qualified by a table alias (`a.id, a.kind, …`) for a join.
    static func accountColumns(_ table: String) -> String {
        accountColumns.split(separator: ",").map { table + "." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .joined(separator: ", ")
    }

    static func account(_ row: Row) throws -> Account {
        let currency: String = row[5]
        let opening: Int64? = row[6]
        func amount(_ index: Int, _ column: String) throws -> CurrencyAmount? {
            try decimal(row[index], column: column).map { CurrencyAmount(amount: $0, currencyCode: currency) }
        }
        if (row[1] as Int) == 1 {
            let due: Int64? = row[9]
            let credit = AccountCreditInformation(
                creditLimit: try amount(7, "credit_limit"),
                minimumNextPaymentAmount: try amount(8, "minimum_next_payment"),
                nextPaymentDueDate: due.map(date), overduePaymentAmount: try amount(10, "overdue_payment"))
            return .liability(LiabilityAccount(
                id: row[0], displayName: row[2], accountDescription: row[3], institutionName: row[4],
                currencyCode: currency, openingDate: opening.map(date), creditInformation: credit))
        }
        return .asset(AssetAccount(
            id: row[0], displayName: row[2], accountDescription: row[3], institutionName: row[4],
            currencyCode: currency, openingDate: opening.map(date)))
    }

    static func accountArguments(_ a: Account) -> [DatabaseValue] {
        let credit = a.liabilityAccount?.creditInformation
        return [
            a.id.databaseValue, (a.kind == .asset ? 0 : 1).databaseValue, a.displayName.databaseValue,
            dv(a.accountDescription), a.institutionName.databaseValue, a.currencyCode.databaseValue,
            dv(a.openingDate.map(millis)),
            dv(credit?.creditLimit.map { ExactDecimal.text($0.amount) }),
            dv(credit?.minimumNextPaymentAmount.map { ExactDecimal.text($0.amount) }),
            dv(credit?.nextPaymentDueDate.map(millis)),
            dv(credit?.overduePaymentAmount.map { ExactDecimal.text($0.amount) }),
        ]
    }

    // MARK: Balances

    static let balanceColumns = """
        id, account_id, currency_code, available_amount, available_indicator, available_as_of, \
        booked_amount, booked_indicator, booked_as_of
        """

    static func balance(_ row: Row) throws -> AccountBalance {
        let currency: String = row[2]
        func side(_ start: Int, _ column: String) throws -> Balance? {
            guard let amount = try decimal(row[start], column: column),
                  let indicator: Int16 = row[start + 1], let asOf: Int64 = row[start + 2] else { return nil }
            return Balance(amount: CurrencyAmount(amount: amount, currencyCode: currency), asOfDate: date(asOf),
                           creditDebitIndicator: CreditDebitIndicator(rawValue: indicator) ?? .credit)
        }
        guard let current = CurrentBalance(available: try side(3, "available_amount"), booked: try side(6, "booked_amount")) else {
            throw CofferError(.notAStore, "damaged store: a balance row has neither side")
        }
        return AccountBalance(id: row[0], accountID: row[1], currentBalance: current)
    }
}
