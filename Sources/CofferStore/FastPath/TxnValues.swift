import CofferModel
import Foundation

/// One `txn` row as the writer stores it: the transaction, its encoded amounts and keys, and the writer's
/// bookkeeping. `bind` is the only place a transaction's values meet `txn`'s columns.
struct TxnValues {
    var transaction: Transaction
    /// `EncodedAmounts(transaction)`.
    var amounts: EncodedAmounts
    var keys = DedupeKeys()
    var createdSeq: Int64 = 0
    /// NULL in an update keeps the stored value (`TxnColumn.updateSQL`).
    var valuesAsOf: Int64?
    var source: String?
    /// The account bound for `account_id` when not the transaction's own (`externalIDMatch` looks in this one).
    var accountID: UUID?

    /// Binds `column`'s value at parameter `index`.
    @inline(__always)
    func bind(_ column: TxnColumn, to s: BoundStatement, at index: CInt) throws {
        try Self.bind(column, to: s, at: index, transaction, amounts, keys, createdSeq: createdSeq,
                      valuesAsOf: valuesAsOf, source: source, accountID: accountID)
    }

    /// Binds `column`'s value at parameter `index` from a row's parts, borrowed: a look-up that compares a
    /// transaction with the store binds its values without making a `TxnValues` of it, which copied the
    /// transaction and its amounts (every string retained, then released: callgrind).
    @inline(__always)
    static func bind(_ column: TxnColumn, to s: BoundStatement, at index: CInt, _ transaction: Transaction,
                     _ amounts: EncodedAmounts, _ keys: DedupeKeys, createdSeq: Int64 = 0, valuesAsOf: Int64? = nil,
                     source: String? = nil, accountID: UUID? = nil) throws {
        switch column {
        case .id: try s.bind(index, transaction.id)
        case .accountID: try s.bind(index, accountID ?? transaction.accountID)
        case .amount: try s.bind(index, amounts.amountText)
        case .currencyCode: try s.bind(index, transaction.transactionAmount.currencyCode)
        case .foreignAmount: try s.bind(index, amounts.foreignAmountText)
        case .foreignCurrencyCode: try s.bind(index, transaction.foreignCurrencyAmount?.currencyCode)
        case .exchangeRate: try s.bind(index, amounts.exchangeRateText)
        case .indicator: try s.bind(index, Int64(transaction.creditDebitIndicator.rawValue))
        case .description: try s.bind(index, transaction.transactionDescription)
        case .originalDescription: try s.bind(index, transaction.originalTransactionDescription)
        case .mcc: try s.bind(index, transaction.merchantCategoryCode.map { Int64($0.rawValue) })
        case .merchantName: try s.bind(index, transaction.merchantName)
        case .type: try s.bind(index, Int64(transaction.transactionType.rawValue))
        case .status: try s.bind(index, Int64(transaction.status.rawValue))
        case .transactionDate: try s.bind(index, Rows.millis(transaction.transactionDate))
        case .postedDate: try s.bind(index, transaction.postedDate.map(Rows.millis))
        case .utcOffset: try s.bind(index, transaction.timeZoneOffset.map(Int64.init))
        case .externalID: try s.bind(index, keys.externalID)
        case .fingerprint: try s.bind(index, keys.fingerprint)
        case .occurrence: try s.bind(index, keys.occurrence.map(Int64.init))
        case .source: try s.bind(index, source)
        case .localDay: try s.bind(index, Int64(transaction.localDay))
        case .amountScaled: try s.bind(index, amounts.amountScaled)
        case .createdSeq: try s.bind(index, createdSeq)
        case .valuesAsOf: try s.bind(index, valuesAsOf)
        case .foldedText: try s.bind(index, amounts.foldedText(of: transaction))
        }
    }

    /// Binds `parameters`' values, in order, as parameters 1, 2, …
    @inline(__always)
    func bind(_ parameters: [TxnColumn], to s: BoundStatement) throws {
        try Self.bind(parameters, to: s, transaction, amounts, keys, createdSeq: createdSeq, valuesAsOf: valuesAsOf,
                      source: source, accountID: accountID)
    }

    /// Binds `parameters`' values from a row's parts, borrowed (see the one-column `bind`), as parameters 1, 2, …
    @inline(__always)
    static func bind(_ parameters: [TxnColumn], to s: BoundStatement, _ transaction: Transaction,
                     _ amounts: EncodedAmounts, _ keys: DedupeKeys, createdSeq: Int64 = 0, valuesAsOf: Int64? = nil,
                     source: String? = nil, accountID: UUID? = nil) throws {
        var index: CInt = 1
        for column in parameters {
            try bind(column, to: s, at: index, transaction, amounts, keys, createdSeq: createdSeq,
                     valuesAsOf: valuesAsOf, source: source, accountID: accountID)
            index += 1
        }
    }

    /// Binds every column for `TxnColumn.insertSQL`, or for the row of a many-row insert whose parameters follow
    /// the first `offset` ones.
    @inline(__always)
    func bindAll(to s: BoundStatement, after offset: CInt = 0) throws {
        for column in TxnColumn.allCases { try bind(column, to: s, at: offset + column.index + 1) }
    }
}
