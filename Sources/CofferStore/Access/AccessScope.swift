import CofferModel
import Foundation
import GRDB

/// A client's grant as one read sees it (loaded in the read's own snapshot, so a decision of the owner applies
/// from the next read on): the state, the epoch, the data types, and the granted accounts with the earliest day of
/// each. It answers "may this read run" (`require`), writes the grant as SQL for the tables and the change log,
/// and tells whether one record is in it.
///
/// A record is in the grant when its account is granted and, for transactions and balances, its day is on or
/// after the account's earliest day: a transaction's local day (the bank's own day, as `coffer transactions --from`
/// counts it), a balance's UTC day of its as-of time (the later side's).
struct AccessScope: Sendable {
    let clientID: UUID
    let state: FinanceStore.ClientState
    let epoch: Int64
    let types: Set<FinanceStore.ClientDataType>
    /// Granted accounts and each one's earliest day; `Int.min` for every day.
    let accounts: [UUID: Int]
    /// `accounts` in a fixed order, so that the SQL of one grant is always the same text (a cached statement).
    private let ordered: [(id: UUID, earliest: Int)]

    init(clientID: UUID, state: FinanceStore.ClientState, epoch: Int64, types: Set<FinanceStore.ClientDataType>,
         accounts: [UUID: Int]) {
        self.clientID = clientID
        self.state = state
        self.epoch = epoch
        self.types = state == .authorized ? types : []
        self.accounts = state == .authorized ? accounts : [:]
        ordered = self.accounts.map { ($0.key, $0.value) }.sorted { $0.id.uuidString < $1.id.uuidString }
    }

    /// The client's grant as the store holds it now; a client removed meanwhile holds nothing (`revoked`).
    static func load(_ connection: ReaderConnection, clientID: UUID) throws -> AccessScope {
        let client = try connection.statement("SELECT state, epoch, data_types FROM client WHERE id = ?")
        try client.bind(clientID, at: 1)
        guard try client.step() else {
            return AccessScope(clientID: clientID, state: .revoked, epoch: -1, types: [], accounts: [:])
        }
        let state = FinanceStore.ClientState(rawValue: client.text(0)) ?? .revoked
        let epoch = client.int64(1)
        let types = Set(client.text(2).split(separator: ",").compactMap { FinanceStore.ClientDataType(rawValue: String($0)) })
        var accounts: [UUID: Int] = [:]
        if state == .authorized {
            let grant = try connection.statement("SELECT account_id, earliest_day FROM client_grant WHERE client_id = ?")
            try grant.bind(clientID, at: 1)
            while try grant.step() {
                accounts[try grant.uuid(0, column: "account_id")] = grant.isNull(1) ? Int.min : Int(grant.int64(1))
            }
        }
        return AccessScope(clientID: clientID, state: state, epoch: epoch, types: types, accounts: accounts)
    }

    /// Throws FinanceKit's `dataRestricted` unless the client is authorized and its grant has `type`.
    func require(_ type: FinanceStore.ClientDataType) throws {
        guard state == .authorized, types.contains(type) else { throw FinanceError.dataRestricted(type.restricted) }
    }

    /// The binding of history tokens read under this grant.
    var binding: TokenBinding { TokenBinding(clientID: clientID, epoch: epoch) }

    // MARK: SQL

    /// No offset is larger than 14 h: a local day `d` starts no earlier than `d` 00:00 UTC − 14 h, so the date
    /// index can narrow the rows before `local_day` decides (as `TransactionQuery.predicate(fromDay:)` does).
    private static let widening: Int64 = 14 * 3_600_000

    /// The grant as a condition on the entity's own table (`account`, `balance`, `txn`).
    func tableCondition(_ entity: EntityKind) -> SQLPart {
        guard !ordered.isEmpty else { return .alwaysFalse }
        var terms: [String] = []
        var arguments: [DatabaseValue] = []
        for (id, earliest) in ordered {
            switch entity {
            case .account:
                terms.append("id = ?")
                arguments.append(id.databaseValue)
            case .balance where earliest != Int.min:
                terms.append("(account_id = ? AND as_of >= ?)")
                arguments += [id.databaseValue, (Int64(earliest) * 86_400_000).databaseValue]
            case .transaction where earliest != Int.min:
                terms.append("(account_id = ? AND transaction_date >= ? AND local_day >= ?)")
                arguments += [id.databaseValue, (Int64(earliest) * 86_400_000 - Self.widening).databaseValue,
                              Int64(earliest).databaseValue]
            case .balance, .transaction:
                terms.append("account_id = ?")
                arguments.append(id.databaseValue)
            }
        }
        return SQLPart(sql: "(" + terms.joined(separator: " OR ") + ")", arguments: arguments, exact: true)
    }

    /// The grant as a condition on `change_log` rows of the entity: the changes of granted accounts that touch the
    /// client's dates on either side (a change from a day before the earliest day to another one before it is of
    /// no concern to the client, and leaving it out changes nothing it is told: see `HistoryReader`).
    func logCondition(_ entity: EntityKind) -> SQLPart {
        guard !ordered.isEmpty else { return .alwaysFalse }
        var terms: [String] = []
        var arguments: [DatabaseValue] = []
        for (id, earliest) in ordered {
            if entity == .account || earliest == Int.min {
                terms.append("account_id = ?")
                arguments.append(id.databaseValue)
            } else {
                terms.append("(account_id = ? AND (day IS NULL OR day >= ? OR prior_day >= ?))")
                arguments += [id.databaseValue, Int64(earliest).databaseValue, Int64(earliest).databaseValue]
            }
        }
        return SQLPart(sql: "(" + terms.joined(separator: " OR ") + ")", arguments: arguments, exact: true)
    }

    // MARK: Records

    /// Whether a record of `entity` in `accountID` on `day` is in the grant; an unknown day (a change logged before
    /// v17) counts as in it.
    func contains(_ entity: EntityKind, accountID: UUID, day: Int?) -> Bool {
        guard let earliest = accounts[accountID] else { return false }
        guard entity != .account, let day else { return true }
        return day >= earliest
    }

    func contains(_ transaction: Transaction) -> Bool {
        contains(.transaction, accountID: transaction.accountID, day: transaction.localDay)
    }

    func contains(_ balance: AccountBalance) -> Bool {
        let asOf = max(balance.available?.asOfDate ?? .distantPast, balance.booked?.asOfDate ?? .distantPast)
        return contains(.balance, accountID: balance.accountID, day: StoreWriter.balanceDay(asOf: Rows.millis(asOf)))
    }

    func contains(_ account: Account) -> Bool { accounts[account.id] != nil }
}

extension SQLPart {
    /// Both conditions; `nil` stands for none.
    static func all(_ first: SQLPart?, _ second: SQLPart?) -> SQLPart? {
        guard let first else { return second }
        guard let second else { return first }
        return SQLPart(sql: "(\(first.sql)) AND (\(second.sql))", arguments: first.arguments + second.arguments,
                       exact: first.exact && second.exact)
    }
}
