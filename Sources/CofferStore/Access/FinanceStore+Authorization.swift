import CofferModel
import Foundation
import GRDB
import Logging

/// FinanceKit's authorization, for programs other than the store's owner (docs/access.md).
extension FinanceStore {
    /// Opens the store at `path` as the client whose bearer token this is (`coffer clients add NAME` printed it):
    /// every query and history sequence then reads only what the owner granted it.
    ///
    /// For example:
    /// ```swift
    /// let store = try FinanceStore(path: FinanceStore.defaultPath(),
    ///                              clientToken: ProcessInfo.processInfo.environment["COFFER_CLIENT_TOKEN"]!)
    /// guard try await store.requestAuthorization() == .authorized else { return }   // the owner decides
    /// let recent = try await store.transactions(query: TransactionQuery(limit: 20))  // granted accounts and dates only
    /// ```
    /// What the grant leaves out is absent, exactly as if it did not exist: accounts not granted, and of a granted
    /// account the transactions and balances dated before its earliest date. A data type not granted, or a client
    /// not authorized, throws `FinanceError.dataRestricted`. History tokens are the client's own and hold only while
    /// the grant does: after the owner changes, denies or revokes it they throw `historyTokenInvalid` (read again
    /// from nil). The owner's operations (imports, the ledger, backups) throw `CofferError` `.usage` here.
    ///
    /// Inside one process a grant is a courtesy, not a security boundary (the file is readable to whoever may open
    /// it); over HTTP (`coffer serve`) it is the boundary.
    ///
    /// Throws `CofferError` `.unknownClient` for a token the store never issued or whose client was revoked or
    /// removed, and `.notAStore` when there is no store at `path` (a client never creates one).
    public convenience init(path: String, clientToken: String, logger: Logger = Logger(label: "coffer.store"),
                            historyOptions: HistoryOptions = HistoryOptions()) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CofferError(.notAStore, "\(path): there is no store there")
        }
        // Writable when it can be: `requestAuthorization()` records the request.
        let access: Access = FileManager.default.isWritableFile(atPath: path) ? .readWrite : .readOnly
        let owner = try FinanceStore(path: path, access: access, logger: logger, historyOptions: historyOptions)
        let client: Client?
        do {
            client = try owner.client(authenticatedBy: clientToken)
        } catch {
            owner.close()
            throw error
        }
        guard let client else {
            owner.close()
            throw CofferError(.unknownClient, "\(path): this client token is not one the store issued, or its client was revoked")
        }
        self.init(viewOf: owner, clientID: client.id, ownsBase: true)
    }

    /// FinanceKit's `requestAuthorization()`: asks the store's owner for access and returns the status.
    ///
    /// A client cannot authorize itself: while the owner has not decided, the request is recorded (`coffer clients
    /// list` shows it as pending) and the answer is `.notDetermined`; the owner decides with `coffer clients
    /// authorize|deny NAME`. Once decided it returns the decision without recording anything, so it is safe to
    /// call at every start. A revoked client is `.denied`. The owner's own store is always `.authorized`.
    public func requestAuthorization() async throws -> AuthorizationStatus {
        guard let clientID else { return .authorized }
        let now = Rows.millis(Date())
        let state: ClientState? = try await withStoreErrors {
            try await pool.write { db in
                try db.execute(sql: """
                    UPDATE client SET requested_at = ?, requests = requests + 1 WHERE id = ? AND state = 'notDetermined'
                    """, arguments: [now, clientID])
                return try String.fetchOne(db, sql: "SELECT state FROM client WHERE id = ?", arguments: [clientID])
                    .flatMap(ClientState.init(rawValue:))
            }
        }
        return (state ?? .revoked).status
    }

    /// FinanceKit's `authorizationStatus()`: the owner's decision as it stands, without asking. The owner's own
    /// store is always `.authorized`.
    public func authorizationStatus() async throws -> AuthorizationStatus {
        guard let clientID else { return .authorized }
        return try readNow { connection in try AccessScope.load(connection, clientID: clientID) }.state.status
    }

    /// Runs a GRDB call, mapping its errors as the store's writes do.
    private func withStoreErrors<T>(_ body: () async throws -> T) async throws -> T {
        guard access == .readWrite else {
            throw CofferError(.storeReadOnly, "\(path) is not writable: the request cannot be recorded (ask the store's owner)")
        }
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw StoreFile.describe(error, path: path)
        }
    }
}
