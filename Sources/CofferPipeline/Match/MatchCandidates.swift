import CofferModel
import CofferStore
import Foundation

/// What the matcher may ask about one account's stored rows: the candidates an incoming record could be. Reads
/// only. `StoreCandidates` answers from the import's SQLite transaction; tests answer from memory
/// (`MatcherTests`), which is how the policy is driven without a store.
protocol MatchCandidates {
    /// The row holding the institution id `externalID` (exactly as stored), its id and whether every stored value
    /// equals `incoming`'s (compared in the store, no row decoded: the common case of an overlapping download).
    func idMatch(_ externalID: String, comparedWith incoming: Transaction, amounts: EncodedAmounts) throws
        -> (id: UUID, unchanged: Bool)?
    func row(id: UUID) throws -> StoredTransaction?
    /// The row holding the institution id `externalID`, exactly as stored.
    func row(externalID: String) throws -> StoredTransaction?
    /// The row without an institution id holding this content fingerprint and occurrence number.
    func row(fingerprint: String, occurrence: Int) throws -> StoredTransaction?
    /// Rows with this amount and direction dated (or posted) on the local days given.
    func rows(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) throws -> [StoredTransaction]
    /// Pending and authorized rows dated on the local days given.
    func openRows(fromDay: Int, throughDay: Int) throws -> [StoredTransaction]
    /// Booked rows with an amount in `amounts` and this direction, dated on the local days given.
    func bookedRows(fromDay: Int, throughDay: Int, amounts: ClosedRange<Decimal>,
                    indicator: CreditDebitIndicator) throws -> [StoredTransaction]
    /// Whether an institution id was deleted (a tombstone): a record carrying it is not stored again, unless the
    /// row was a pending one retired by a statement older than the record's, as of `asOf` (ms; nil: unknown).
    func isDeleted(externalID: String, asOf: Int64?) throws -> Bool
    func isDeleted(fingerprint: String, occurrence: Int, asOf: Int64?) throws -> Bool
    /// The row that took a retired id's place (a pending row that booked, a re-issued id), if any.
    func retiredOwner(externalID: String) throws -> UUID?
    /// The as-of time (ms) of the statement whose values the row carries, when known.
    func valuesAsOf(_ id: UUID) throws -> Int64?
    /// When the source whose text the row carries last listed it (ms): the later of `valuesAsOf` and the newest
    /// recorded statement of that source covering the row's days (its date through its posting date).
    func textAsOf(_ row: StoredTransaction) throws -> Int64?
    /// Whether the account holds rows without ids that another source than `namespace` gave.
    func hasIdlessRows(outside namespace: String) throws -> Bool
    /// `rows(fromDay:throughDay:amount:indicator:)` of those stored before this file's import began (or more): no
    /// query at all when `PriorRows` holds no such row near.
    func priorRows(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) throws -> [StoredTransaction]
}

extension MatchCandidates {
    func priorRows(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
        try rows(fromDay: fromDay, throughDay: throughDay, amount: amount, indicator: indicator)
    }
}

/// The matcher's candidates from the import's open SQLite transaction, for one account and statement.
final class StoreCandidates: MatchCandidates {
    let writer: StoreWriter
    let accountID: UUID
    /// The account's rows from before the import, kept by the session across its statements.
    let prior: PriorRows?
    /// `hasIdlessRows`, asked once per statement (a scan), when a record without an id first needs it.
    private var idless: [String: Bool] = [:]

    init(writer: StoreWriter, accountID: UUID, prior: PriorRows? = nil) {
        self.writer = writer
        self.accountID = accountID
        self.prior = prior
    }

    func priorRows(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
        if let prior, !(try prior.mayHold(fromDay: fromDay, throughDay: throughDay, amount: amount, indicator: indicator)) {
            return []
        }
        if let ids = prior?.ids(fromDay: fromDay, throughDay: throughDay, amount: amount, indicator: indicator) {
            return try writer.transactions(ids: ids, accountID: accountID, fromDay: fromDay, throughDay: throughDay,
                                           amount: amount, indicator: indicator)
        }
        return try writer.transactions(accountID: accountID, fromDay: fromDay, throughDay: throughDay, amount: amount,
                                       indicator: indicator, storedThrough: prior?.storedThrough)
    }

    func idMatch(_ externalID: String, comparedWith incoming: Transaction, amounts: EncodedAmounts) throws
        -> (id: UUID, unchanged: Bool)? {
        try writer.externalIDMatch(accountID: accountID, externalID: externalID, comparedWith: incoming, amounts: amounts)
    }
    func row(id: UUID) throws -> StoredTransaction? { try writer.transaction(id: id) }
    func row(externalID: String) throws -> StoredTransaction? {
        try writer.transaction(accountID: accountID, externalID: externalID)
    }
    func row(fingerprint: String, occurrence: Int) throws -> StoredTransaction? {
        try writer.transaction(accountID: accountID, fingerprint: fingerprint, occurrence: occurrence)
    }
    func rows(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
        try writer.transactions(accountID: accountID, fromDay: fromDay, throughDay: throughDay, amount: amount, indicator: indicator)
    }
    func openRows(fromDay: Int, throughDay: Int) throws -> [StoredTransaction] {
        try writer.openTransactions(accountID: accountID, fromDay: fromDay, throughDay: throughDay)
    }
    func bookedRows(fromDay: Int, throughDay: Int, amounts: ClosedRange<Decimal>,
                    indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
        try writer.bookedTransactions(accountID: accountID, fromDay: fromDay, throughDay: throughDay, amounts: amounts,
                                      indicator: indicator)
    }
    func isDeleted(externalID: String, asOf: Int64?) throws -> Bool {
        try writer.isDeleted(accountID: accountID, externalID: externalID, asOf: asOf)
    }
    func isDeleted(fingerprint: String, occurrence: Int, asOf: Int64?) throws -> Bool {
        try writer.isDeleted(accountID: accountID, fingerprint: fingerprint, occurrence: occurrence, asOf: asOf)
    }
    func retiredOwner(externalID: String) throws -> UUID? {
        try writer.retiredOwner(accountID: accountID, externalID: externalID)
    }
    func valuesAsOf(_ id: UUID) throws -> Int64? { try writer.valuesAsOf(transactionID: id) }
    func textAsOf(_ row: StoredTransaction) throws -> Int64? {
        let values = try writer.valuesAsOf(transactionID: row.transaction.id)
        guard let source = row.source else { return values }
        let day = row.transaction.localDay
        let listed = try writer.newestStatement(accountID: accountID, source: source, fromDay: day,
                                                throughDay: max(day, row.transaction.postedDate.map(CalendarDay.dayNumber) ?? day))
        return [values, listed].compactMap { $0 }.max()
    }
    func hasIdlessRows(outside namespace: String) throws -> Bool {
        if let known = idless[namespace] { return known }
        let found = try writer.hasRecordsWithoutExternalID(accountID: accountID, outside: namespace)
        idless[namespace] = found
        return found
    }
}
