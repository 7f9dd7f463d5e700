import CofferModel
import Foundation
import GRDB

/// A row of `statement_period`, the GRDB way (see `AccountRecord`); `period(path:)` and `init(_:…)` map it to
/// `StatementPeriod`. `from_day`, `through_day` and `lists_pending` are set after the insert (`noteCoverage`).
struct StatementPeriodRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "statement_period"

    var id: Int64?
    var importID: Int64
    var accountID: UUID
    var currencyCode: String
    var location: String
    var statementID: String?
    var periodStart: Int64?
    var periodEnd: Int64?
    var periodStated: Bool
    var asOf: Int64
    var openingCode: String?
    var openingAmount: String?
    var openingScaled: Int64?
    var openingIndicator: Int?
    var openingAsOf: Int64?
    var closingCode: String?
    var closingAmount: String?
    var closingScaled: Int64?
    var closingIndicator: Int?
    var closingAsOf: Int64?
    var closingLocation: String?
    var rowCount: Int
    var bookedCount: Int
    var bookedScaled: Int64?
    var openCount: Int
    var balanceProblem: String?
    var balanceDifference: String?
    var fromDay: Int?
    var throughDay: Int?
    var listsPending: Bool?
    /// The source (id namespace) of the import that read it.
    var source: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, importID = "import_id", accountID = "account_id", currencyCode = "currency_code", location,
             statementID = "statement_id", periodStart = "period_start", periodEnd = "period_end",
             periodStated = "period_stated", asOf = "as_of",
             openingCode = "opening_code", openingAmount = "opening_amount", openingScaled = "opening_scaled",
             openingIndicator = "opening_indicator", openingAsOf = "opening_as_of",
             closingCode = "closing_code", closingAmount = "closing_amount", closingScaled = "closing_scaled",
             closingIndicator = "closing_indicator", closingAsOf = "closing_as_of", closingLocation = "closing_location",
             rowCount = "row_count", bookedCount = "booked_count", bookedScaled = "booked_scaled", openCount = "open_count",
             balanceProblem = "balance_problem", balanceDifference = "balance_difference", fromDay = "from_day",
             throughDay = "through_day", listsPending = "lists_pending", source
    }

    init(_ p: StatementPeriod, importID: Int64, source: String?) {
        self.importID = importID
        accountID = p.accountID
        currencyCode = p.currencyCode
        location = p.location
        statementID = p.statementID
        periodStart = p.start.map(Rows.millis)
        periodEnd = p.end.map(Rows.millis)
        periodStated = p.periodStated
        asOf = Rows.millis(p.asOf)
        openingCode = p.opening?.code
        openingAmount = p.opening.map { ExactDecimal.text($0.amount) }
        openingScaled = p.opening.map { Rows.scaled($0.amount) }
        openingIndicator = p.opening.map { Int($0.indicator.rawValue) }
        openingAsOf = p.opening.map { Rows.millis($0.asOf) }
        closingCode = p.closing?.code
        closingAmount = p.closing.map { ExactDecimal.text($0.amount) }
        closingScaled = p.closing.map { Rows.scaled($0.amount) }
        closingIndicator = p.closing.map { Int($0.indicator.rawValue) }
        closingAsOf = p.closing.map { Rows.millis($0.asOf) }
        closingLocation = p.closing?.location
        rowCount = p.rowCount
        bookedCount = p.bookedCount
        bookedScaled = p.bookedScaled
        openCount = p.openCount
        balanceProblem = p.balanceProblem
        balanceDifference = p.balanceDifference.map { ExactDecimal.text($0) }
        self.source = source
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The statement as recorded, its file named `path` (the import ledger's); an error when a stored amount is
    /// not a decimal (a damaged store).
    func period(path: String) throws -> StatementPeriod {
        func balance(_ code: String?, _ amount: String?, _ indicator: Int?, _ asOf: Int64?, location: String?) throws -> StatementBalance? {
            guard let code, let amount = try Rows.decimal(amount, column: "statement_period balance"),
                  let indicator = indicator.flatMap({ Int16(exactly: $0) }).flatMap(CreditDebitIndicator.init(rawValue:)),
                  let asOf else { return nil }
            return StatementBalance(code: code, amount: amount, indicator: indicator, asOf: Rows.date(asOf), location: location)
        }
        var p = StatementPeriod(
            accountID: accountID, currencyCode: currencyCode, location: location, statementID: statementID,
            start: periodStart.map(Rows.date), end: periodEnd.map(Rows.date), periodStated: periodStated, asOf: Rows.date(asOf),
            opening: try balance(openingCode, openingAmount, openingIndicator, openingAsOf, location: nil),
            closing: try balance(closingCode, closingAmount, closingIndicator, closingAsOf, location: closingLocation))
        p.id = id ?? 0
        p.importID = importID
        p.path = path
        p.rowCount = rowCount
        p.bookedCount = bookedCount
        p.bookedScaled = bookedScaled
        p.openCount = openCount
        p.balanceProblem = balanceProblem
        p.balanceDifference = try Rows.decimal(balanceDifference, column: "statement_period.balance_difference")
        return p
    }
}

extension StatementPeriod {
    /// The recorded statements of an account (not undone), oldest first.
    static func fetchAll(_ db: Database, accountID: UUID) throws -> [StatementPeriod] {
        try Row.fetchAll(db, sql: "SELECT p.*, l.path FROM \(liveRows) WHERE p.account_id = ? ORDER BY p.id", arguments: [accountID])
            .map { row in try StatementPeriodRecord(row: row).period(path: row["path"]) }
    }
}
