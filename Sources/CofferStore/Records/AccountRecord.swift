import CofferModel
import Foundation
import GRDB
import GRDBSQLite

/// A row of `account`, the GRDB way: each column named once, in `CodingKeys`; `Columns` for the query interface.
/// GRDB encodes and decodes it for the writer's reads and writes; the read path reads its statement's columns
/// (`decode(_:)`). `account` and `init(_:…)` are the one mapping to FinanceKit's `Account`.
struct AccountRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "account"

    var id: UUID
    /// The key statements find the account by (`StoreWriter.accountIdentity`).
    var identityKey: String
    /// 0 asset, 1 liability.
    var kind: Int
    var displayName: String
    var accountDescription: String?
    var institutionName: String
    var currencyCode: String
    /// Milliseconds since 1970, as every date of the store.
    var openingDate: Int64?
    /// `••••1234`: the only trace of the number kept in clear.
    var maskedNumber: String?
    /// Exact decimal texts (`ExactDecimal`) in the account's currency.
    var creditLimit: String?
    var minimumNextPayment: String?
    var nextPaymentDueDate: Int64?
    var overduePayment: String?
    var createdSeq: Int64
    /// What sources said about its identity, space-separated (`StoreWriter.noteAccountIdentity`).
    var institutionIDs: String?
    var numberForms: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, identityKey = "identity_key", kind, displayName = "display_name",
             accountDescription = "account_description", institutionName = "institution_name",
             currencyCode = "currency_code", openingDate = "opening_date", maskedNumber = "masked_number",
             creditLimit = "credit_limit", minimumNextPayment = "minimum_next_payment",
             nextPaymentDueDate = "next_payment_due_date", overduePayment = "overdue_payment", createdSeq = "created_seq",
             institutionIDs = "institution_ids", numberForms = "number_forms"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let identityKey = Column(CodingKeys.identityKey)
        static let maskedNumber = Column(CodingKeys.maskedNumber)
        static let createdSeq = Column(CodingKeys.createdSeq)
        static let institutionIDs = Column(CodingKeys.institutionIDs)
        static let numberForms = Column(CodingKeys.numberForms)
    }

    /// Every column, for a `SELECT` the read path decodes.
    static let selectList = CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")

    /// The record in the current row of a read-path statement selecting `selectList`, read column by column. GRDB's
    /// `Codable` decoding (`FetchableRecord.decode`) instantiated its decoder's generic machinery on the first
    /// account of every one-shot command (`coffer transactions --account 1234`): about 0.5 ms of its ~25. Another
    /// column list falls back to it.
    static func decode(_ s: ReadStatement) throws -> Self {
        let row = s.row
        let named = sqlite3_column_count(s.handle) == CInt(CodingKeys.allCases.count)
            && CodingKeys.allCases.enumerated().allSatisfy { strcmp(sqlite3_column_name(s.handle, CInt($0.offset)), $0.element.stringValue) == 0 }
        guard named else { return try Self(row: row.databaseRow()) }
        return try AccountRecord(columns: row)
    }

    /// The columns of `selectList`, in its order.
    private init(columns row: SQLiteRow) throws {
        id = try row.uuid(0, column: "id")
        identityKey = row.text(1)
        kind = Int(row.int64(2))
        displayName = row.text(3)
        accountDescription = row.optionalText(4)
        institutionName = row.text(5)
        currencyCode = row.text(6)
        openingDate = row.optionalInt64(7)
        maskedNumber = row.optionalText(8)
        creditLimit = row.optionalText(9)
        minimumNextPayment = row.optionalText(10)
        nextPaymentDueDate = row.optionalInt64(11)
        overduePayment = row.optionalText(12)
        createdSeq = row.int64(13)
        institutionIDs = row.optionalText(14)
        numberForms = row.optionalText(15)
    }

    /// The columns an `Account` gives (`StoreWriter.updateAccount` writes these).
    static let modelColumns = [
        CodingKeys.kind, .displayName, .accountDescription, .institutionName, .currencyCode, .openingDate, .creditLimit,
        .minimumNextPayment, .nextPaymentDueDate, .overduePayment,
    ].map(Column.init)

    init(_ account: Account, identityKey: String, maskedNumber: String?, createdSeq: Int64) {
        id = account.id
        self.identityKey = identityKey
        kind = 0
        displayName = ""
        institutionName = ""
        currencyCode = ""
        self.maskedNumber = maskedNumber
        self.createdSeq = createdSeq
        set(account)
    }

    /// Takes `account`'s values (`modelColumns`); its id, keys and bookkeeping stay.
    mutating func set(_ a: Account) {
        let credit = a.liabilityAccount?.creditInformation
        kind = a.kind == .asset ? 0 : 1
        displayName = a.displayName
        accountDescription = a.accountDescription
        institutionName = a.institutionName
        currencyCode = a.currencyCode
        openingDate = a.openingDate.map(Rows.millis)
        creditLimit = credit?.creditLimit.map { ExactDecimal.text($0.amount) }
        minimumNextPayment = credit?.minimumNextPaymentAmount.map { ExactDecimal.text($0.amount) }
        nextPaymentDueDate = credit?.nextPaymentDueDate.map(Rows.millis)
        overduePayment = credit?.overduePaymentAmount.map { ExactDecimal.text($0.amount) }
    }

    /// The stored account; an error when a stored amount is not a decimal (a damaged store).
    func account() throws -> Account {
        let opening = openingDate.map(Rows.date)
        guard kind == 1 else {
            return .asset(AssetAccount(id: id, displayName: displayName, accountDescription: accountDescription,
                                       institutionName: institutionName, currencyCode: currencyCode, openingDate: opening))
        }
        func amount(_ text: String?, _ column: CodingKeys) throws -> CurrencyAmount? {
            try Rows.decimal(text, column: column.stringValue).map { CurrencyAmount(amount: $0, currencyCode: currencyCode) }
        }
        let credit = AccountCreditInformation(
            creditLimit: try amount(creditLimit, .creditLimit),
            minimumNextPaymentAmount: try amount(minimumNextPayment, .minimumNextPayment),
            nextPaymentDueDate: nextPaymentDueDate.map(Rows.date),
            overduePaymentAmount: try amount(overduePayment, .overduePayment))
        return .liability(LiabilityAccount(
            id: id, displayName: displayName, accountDescription: accountDescription, institutionName: institutionName,
            currencyCode: currencyCode, openingDate: opening, creditInformation: credit))
    }
}
