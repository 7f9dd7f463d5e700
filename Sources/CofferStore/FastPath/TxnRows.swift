import CofferModel
import Foundation
import GRDB

/// `txn` rows decoded straight from SQLite, column by `TxnColumn` case: the only decoder of transactions. Queries
/// and history read them from their own statements (`ReadStatement`), the writer from GRDB's (`Database.txnRows`).
enum TxnRows {
    /// A transaction from a row of `TxnColumn.transactionList` (or a longer list).
    static func transaction(_ r: SQLiteRow) throws -> Transaction {
        let currency = r.text(.currencyCode)
        var foreign: CurrencyAmount?
        if let amount = try r.decimal(.foreignAmount), let code = r.optionalText(.foreignCurrencyCode) {
            foreign = CurrencyAmount(amount: amount, currencyCode: code)
        }
        guard let amount = try r.decimal(.amount) else {
            throw CofferError(.notAStore, "damaged store: a transaction has no amount")
        }
        let description = r.text(.description)
        return Transaction(
            id: try r.uuid(.id), accountID: try r.uuid(.accountID),
            transactionAmount: CurrencyAmount(amount: amount, currencyCode: currency),
            foreignCurrencyAmount: foreign,
            foreignCurrencyExchangeRate: try r.decimal(.exchangeRate),
            creditDebitIndicator: r.int16(.indicator).flatMap(CreditDebitIndicator.init(rawValue:)) ?? .debit,
            transactionDescription: description,
            originalTransactionDescription: r.optionalText(.originalDescription, sameAs: .description, description) ?? "",
            merchantCategoryCode: r.isNull(.mcc) ? nil : r.int16(.mcc).map(MerchantCategoryCode.init(rawValue:)),
            merchantName: r.optionalText(.merchantName, sameAs: .description, description),
            transactionType: r.int16(.type).flatMap(TransactionType.init(rawValue:)) ?? .unknown,
            status: r.int16(.status).flatMap(TransactionStatus.init(rawValue:)) ?? .booked,
            transactionDate: Rows.date(r.int64(.transactionDate)), postedDate: r.optionalInt64(.postedDate).map(Rows.date),
            timeZoneOffset: r.optionalInt64(.utcOffset).map { Int($0) })
    }

    /// A transaction with its keys and source, from a row of `TxnColumn.storedList`.
    static func stored(_ r: SQLiteRow) throws -> StoredTransaction {
        StoredTransaction(
            transaction: try transaction(r),
            keys: DedupeKeys(externalID: r.optionalText(.externalID), fingerprint: r.optionalText(.fingerprint),
                             occurrence: r.optionalInt64(.occurrence).map { Int($0) }),
            source: r.optionalText(.source))
    }

    @inline(__always)
    static func transaction(_ s: ReadStatement) throws -> Transaction { try transaction(s.row) }
}

/// The column readers the decoders use, by case.
extension SQLiteRow {
    @inline(__always) func isNull(_ c: TxnColumn) -> Bool { isNull(c.index) }
    @inline(__always) func int64(_ c: TxnColumn) -> Int64 { int64(c.index) }
    @inline(__always) func optionalInt64(_ c: TxnColumn) -> Int64? { optionalInt64(c.index) }
    @inline(__always) func text(_ c: TxnColumn) -> String { text(c.index) }
    @inline(__always) func optionalText(_ c: TxnColumn) -> String? { optionalText(c.index) }
    @inline(__always) func uuid(_ c: TxnColumn) throws -> UUID { try uuid(c.index, column: c.name) }
    @inline(__always) func decimal(_ c: TxnColumn) throws -> Decimal? { try decimal(c.index, column: c.name) }
    @inline(__always)
    func optionalText(_ c: TxnColumn, sameAs other: TxnColumn, _ known: String) -> String? {
        optionalText(c.index, sameAs: other.index, known)
    }
    /// A small integer column (enums, MCC); nil when it does not fit, which no store this code wrote holds.
    @inline(__always) func int16(_ c: TxnColumn) -> Int16? { Int16(exactly: int64(c.index)) }
}

extension Database {
    /// Every row `sql` returns, decoded by `decode` straight from GRDB's statement while its cursor stands on each.
    func fastRows<T>(_ sql: String, arguments: StatementArguments, _ decode: (SQLiteRow) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        var out: [T] = []
        while try cursor.next() != nil { out.append(try decode(SQLiteRow(handle: statement.sqliteStatement))) }
        return out
    }
}
