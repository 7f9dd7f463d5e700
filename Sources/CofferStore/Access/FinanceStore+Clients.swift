import CofferModel
import Foundation
import GRDB

/// The owner's side of access (docs/access.md): clients are added, authorized with a grant, denied, revoked and
/// removed by the store's owner (`coffer clients`); a bearer token resolves to its client; a client's store reads
/// through the owner's connections (`scoped(to:)`).
///
/// For a server (`coffer serve`), per request:
/// ```swift
/// guard let client = try owner.client(authenticatedBy: bearer) else { return .unauthorized }   // unknown or revoked
/// let store = owner.scoped(to: client.id)        // reads only what the grant holds; no I/O, cheap
/// let page = try await store.transactionPage(query: query)   // FinanceError.dataRestricted: a type not granted
/// ```
extension FinanceStore {
    /// A client's name: letters, digits, `.`, `_` and `-`, at most 64 characters.
    static func checkClientName(_ name: String) throws {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        guard !name.isEmpty, name.count <= 64, allowed, name.first != "-" else {
            throw CofferError(.usage, "a client's name is 1 to 64 letters, digits, '.', '_' or '-' (not starting with '-'); found \"\(name)\"")
        }
    }

    /// Adds a client, `notDetermined`, and returns it with its bearer token: 256 random bits, shown only now (the
    /// store keeps its SHA-256). Throws `CofferError` `.usage` for a name in use or not allowed.
    package func addClient(named name: String) throws -> (client: Client, token: String) {
        try Self.checkClientName(name)
        let token = ClientToken.make()
        let id = UUID()
        try write { writer in
            let db = try writer.db
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM client WHERE name = ?)", arguments: [name]) == true {
                throw CofferError(.usage, "a client named \(name) exists (coffer clients show \(name))")
            }
            try db.execute(sql: "INSERT INTO client(id, name, token_hash, created_at) VALUES (?, ?, ?, ?)",
                           arguments: [id, name, Data(ClientToken.hash(token)), Rows.millis(Date())])
        }
        guard let client = try client(id: id) else { throw CofferError(.internal, "the client just added is missing") }
        return (client, token)
    }

    /// Authorizes a client with `grant` (replacing any earlier grant) and starts a new epoch: the client's history
    /// tokens of before are refused (`historyTokenInvalid`), and from nil it reads exactly this grant. Every account
    /// must exist. A revoked client cannot be authorized again: remove it and add it anew (a new token).
    @discardableResult
    package func authorizeClient(named name: String, grant: Grant) throws -> Client {
        try decide(name, .authorized, grant: grant)
    }

    /// Denies a client (it reads nothing; it may be authorized later) and starts a new epoch.
    @discardableResult
    package func denyClient(named name: String) throws -> Client {
        try decide(name, .denied, grant: .none)
    }

    /// Revokes a client: its grant goes, a new epoch starts, and its token no longer opens the store nor resolves
    /// (`client(authenticatedBy:)` answers nil). An open history sequence of it throws at its next batch.
    @discardableResult
    package func revokeClient(named name: String) throws -> Client {
        try decide(name, .revoked, grant: .none)
    }

    /// Removes a client and its grant; false when there is none by that name.
    @discardableResult
    package func removeClient(named name: String) throws -> Bool {
        try write { writer in
            try writer.db.execute(sql: "DELETE FROM client WHERE name = ?", arguments: [name])
            return try writer.db.changesCount > 0
        }
    }

    private func decide(_ name: String, _ state: ClientState, grant: Grant) throws -> Client {
        let id: UUID = try write { writer in
            let db = try writer.db
            guard let row = try Row.fetchOne(db, sql: "SELECT id, state FROM client WHERE name = ?", arguments: [name]) else {
                throw CofferError(.usage, "no client named \(name)" + (try Self.clientNamesHint(db)))
            }
            let id: UUID = row[0]
            if row[1] == ClientState.revoked.rawValue, state != .revoked {
                throw CofferError(.usage, "\(name) was revoked: its token no longer works. Remove it (coffer clients remove \(name)) and add it again for a new token")
            }
            if state == .authorized {
                let known = Set(try UUID.fetchAll(db, sql: "SELECT id FROM account"))
                let unknown = grant.accounts.map(\.accountID).filter { !known.contains($0) }
                guard unknown.isEmpty else {
                    throw CofferError(.usage, "no account \(unknown.map(\.uuidString).joined(separator: ", ")) (see coffer accounts)")
                }
            }
            try db.execute(sql: """
                UPDATE client SET state = ?, epoch = epoch + 1, data_types = ?, decided_at = ? WHERE id = ?
                """, arguments: [state.rawValue, grant.dataTypes.map(\.rawValue).joined(separator: ","), Rows.millis(Date()), id])
            try db.execute(sql: "DELETE FROM client_grant WHERE client_id = ?", arguments: [id])
            for account in grant.accounts {
                try db.execute(sql: "INSERT INTO client_grant(client_id, account_id, earliest_day) VALUES (?, ?, ?)",
                               arguments: [id, account.accountID, account.earliestDay])
            }
            return id
        }
        guard let client = try client(id: id) else { throw CofferError(.internal, "the client just decided is missing") }
        return client
    }

    private static func clientNamesHint(_ db: Database) throws -> String {
        let names = try String.fetchAll(db, sql: "SELECT name FROM client ORDER BY name")
        return names.isEmpty ? " (there are none: coffer clients add NAME)" : " (clients: \(names.joined(separator: ", ")))"
    }

    /// Every client, by name.
    package func clients() throws -> [Client] {
        try readNow { connection in try connection.snapshot { try Self.loadClients(connection, where: nil, nil) } }
    }

    /// The client with this name, if any.
    package func client(named name: String) throws -> Client? {
        try readNow { connection in try connection.snapshot { try Self.loadClients(connection, where: "name = ?", name.databaseValue).first } }
    }

    /// The client with this id, if any: its state, grant and epoch as the store holds them now.
    package func client(id: UUID) throws -> Client? {
        try readNow { connection in try connection.snapshot { try Self.loadClients(connection, where: "id = ?", id.databaseValue).first } }
    }

    /// The client whose bearer token this is; nil for a token the store never issued and for a revoked client's.
    ///
    /// The token's SHA-256 is compared with every client's, each comparison in constant time and none cut short,
    /// so the time taken says nothing about how close a guess came.
    package func client(authenticatedBy token: String) throws -> Client? {
        let hash = ClientToken.hash(token)
        let id: UUID? = try readNow { connection in
            let statement = try connection.statement("SELECT id, token_hash, state FROM client")
            defer { connection.finishStatements() }
            var found: UUID?
            while try statement.step() {
                let stored = statement.blob(1).map { [UInt8]($0) } ?? []
                let id = try statement.uuid(0, column: "id")
                let revoked = statement.text(2) == ClientState.revoked.rawValue
                if ClientToken.equal(stored, hash), !revoked { found = id }
            }
            return found
        }
        guard let id else { return nil }
        return try client(id: id)
    }

    /// The store as the client `clientID` sees it: every query and history sequence reads through its grant (which
    /// is read afresh by each read, so a decision of the owner applies at once). It shares this store's
    /// connections and threads, costs nothing to make, and needs this store open; closing it closes nothing.
    /// Operations that are the owner's (imports, writes, the ledger, backups, reconciliation) throw on it.
    package func scoped(to clientID: UUID) -> FinanceStore {
        FinanceStore(viewOf: self, clientID: clientID, ownsBase: false)
    }

    /// Clients (with their grants) matching `condition`, by name.
    static func loadClients(_ connection: ReaderConnection, where condition: String?, _ argument: DatabaseValue?) throws -> [Client] {
        let statement = try connection.statement("""
            SELECT id, name, state, epoch, data_types, created_at, decided_at, requested_at, requests FROM client\
            \(condition.map { " WHERE " + $0 } ?? "") ORDER BY name
            """)
        if let argument { try statement.bind(argument, at: 1) }
        var clients: [Client] = []
        while try statement.step() {
            let types = statement.text(4).split(separator: ",").compactMap { ClientDataType(rawValue: String($0)) }
            clients.append(Client(
                id: try statement.uuid(0, column: "id"), name: statement.text(1),
                state: ClientState(rawValue: statement.text(2)) ?? .revoked, epoch: statement.int64(3),
                grant: Grant(accounts: [], dataTypes: types), createdAt: Rows.date(statement.int64(5)),
                decidedAt: statement.isNull(6) ? nil : Rows.date(statement.int64(6)),
                requestedAt: statement.isNull(7) ? nil : Rows.date(statement.int64(7)), requests: Int(statement.int64(8))))
        }
        guard !clients.isEmpty else { return [] }
        let grants = try connection.statement("SELECT client_id, account_id, earliest_day FROM client_grant")
        var accounts: [UUID: [GrantedAccount]] = [:]
        while try grants.step() {
            accounts[try grants.uuid(0, column: "client_id"), default: []].append(GrantedAccount(
                accountID: try grants.uuid(1, column: "account_id"),
                earliestDate: grants.isNull(2) ? nil : CalendarDay.date(day: Int(grants.int64(2)))))
        }
        for index in clients.indices {
            clients[index].grant.accounts = (accounts[clients[index].id] ?? []).sorted { $0.accountID.uuidString < $1.accountID.uuidString }
        }
        return clients
    }
}
