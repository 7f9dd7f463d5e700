/// The columns of `txn`: the one description of the table from which the fast path's SQL, binding and decoding
/// are derived. Its cases are in the order of the select lists, so a case's `rawValue` is its column index in a
/// `SELECT` of `selectList(through:)` and its parameter index minus one in `insertSQL`.
///
/// Adding a column to `txn` (docs/architecture.md, "Adding a column"): a migration adds it; a case here gives its
/// name and type; `TxnValues.bind` must then bind it (the `switch` is exhaustive); `TxnRows` decodes it when the
/// model has it. `TableDescriptionTests` compares every case with the migrated schema.
enum TxnColumn: CInt, CaseIterable {
    // What a `Transaction` is decoded from (`TxnRows.transaction`), in this order.
    case id, accountID, amount, currencyCode, foreignAmount, foreignCurrencyCode, exchangeRate, indicator, description,
         originalDescription, mcc, merchantName, type, status, transactionDate, postedDate, utcOffset
    // A `StoredTransaction` adds its dedupe keys and its source (`TxnRows.stored`).
    case externalID, fingerprint, occurrence, source
    // For SQL only: derived from the values above (`local_day`, `amount_scaled`, `folded_text`), or bookkeeping.
    case localDay, amountScaled, createdSeq, valuesAsOf, foldedText

    /// The column's name, its declared type, and whether it may hold NULL (as `PRAGMA table_info` reports them).
    var declaration: (name: String, type: String, nullable: Bool) {
        switch self {
        case .id: ("id", "BLOB", false)
        case .accountID: ("account_id", "BLOB", false)
        case .amount: ("amount", "TEXT", false)
        case .currencyCode: ("currency_code", "TEXT", false)
        case .foreignAmount: ("foreign_amount", "TEXT", true)
        case .foreignCurrencyCode: ("foreign_currency_code", "TEXT", true)
        case .exchangeRate: ("exchange_rate", "TEXT", true)
        case .indicator: ("indicator", "INTEGER", false)
        case .description: ("description", "TEXT", false)
        case .originalDescription: ("original_description", "TEXT", false)
        case .mcc: ("mcc", "INTEGER", true)
        case .merchantName: ("merchant_name", "TEXT", true)
        case .type: ("type", "INTEGER", false)
        case .status: ("status", "INTEGER", false)
        case .transactionDate: ("transaction_date", "INTEGER", false)
        case .postedDate: ("posted_date", "INTEGER", true)
        case .utcOffset: ("utc_offset", "INTEGER", true)
        case .externalID: ("external_id", "TEXT", true)
        case .fingerprint: ("fingerprint", "TEXT", true)
        case .occurrence: ("occurrence", "INTEGER", true)
        case .source: ("source", "TEXT", true)
        case .localDay: ("local_day", "INTEGER", false)
        case .amountScaled: ("amount_scaled", "INTEGER", false)
        case .createdSeq: ("created_seq", "INTEGER", false)
        case .valuesAsOf: ("values_as_of", "INTEGER", true)
        case .foldedText: ("folded_text", "TEXT", false)
        }
    }

    var name: String { declaration.name }

    /// The column's index in a `SELECT` of `selectList(through:)`.
    @inline(__always)
    var index: CInt { rawValue }

    static let table = "txn"

    /// The columns from `id` through `last`, in case order, each qualified by `alias` when given (`t.id, …`).
    static func selectList(through last: TxnColumn, alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return allCases.prefix(Int(last.rawValue) + 1).map { prefix + $0.name }.joined(separator: ", ")
    }

    /// What `TxnRows.transaction` decodes.
    static let transactionList = selectList(through: .utcOffset)
    /// What `TxnRows.stored` decodes.
    static let storedList = selectList(through: .source)

    /// The values compared when a record with an institution id is imported again (`externalIDMatch`).
    static let content: [TxnColumn] = Array(allCases[Int(amount.rawValue)...Int(utcOffset.rawValue)])

    /// Every column, bound in case order (`TxnValues.bind(_:to:)`).
    static let insertSQL = """
        INSERT INTO txn(\(allCases.map(\.name).joined(separator: ", "))) \
        VALUES (\(allCases.map { _ in "?" }.joined(separator: ", ")))
        """

    /// The parameters of `updateSQL`, in order: every column but the id and the insert's sequence, then the id.
    static let updateParameters: [TxnColumn] = allCases.filter { $0 != .id && $0 != .createdSeq } + [.id]

    /// Replaces a row's values (same id); a NULL `values_as_of` or `source` keeps the stored one. `OR FAIL`, like
    /// every `UPDATE` of `txn` the writer makes: with the undo triggers' `OR FAIL` (migration v23) and the deferred
    /// account key (v22), SQLite keeps no statement journal for it (docs/benchmarks.md, "16 KiB pages and no
    /// statement journal").
    static let updateSQL = "UPDATE OR FAIL txn SET " + updateParameters.dropLast().map { column in
        column == .valuesAsOf || column == .source ? "\(column.name) = COALESCE(?, \(column.name))" : "\(column.name) = ?"
    }.joined(separator: ", ") + " WHERE id = ?"

    /// The parameters of `externalIDMatchSQL`, in order.
    static let externalIDMatchParameters: [TxnColumn] = content + [.localDay, .accountID, .externalID]

    /// The row an institution id names in an account, and whether its content equals the bound values (`IS` for a
    /// column that may be NULL). A row stored before offsets were kept (`utc_offset` NULL) is equal at the same
    /// instant on the same local day.
    static let externalIDMatchSQL = "SELECT id, " + content.map { column in
        column == .utcOffset ? "(utc_offset IS ? OR (utc_offset IS NULL AND local_day = ?))"
            : column.declaration.nullable ? "\(column.name) IS ?" : "\(column.name) = ?"
    }.joined(separator: " AND ") + " FROM txn WHERE account_id = ? AND external_id = ?"
}
