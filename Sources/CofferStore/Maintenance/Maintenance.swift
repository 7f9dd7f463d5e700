import CofferModel
import Foundation
import GRDB

/// What `coffer info` shows.
public struct StoreInfo: Sendable, Codable {
    /// The store file.
    public let path: String
    /// The store's identity, which its history tokens carry (a backup gets a new one).
    public let storeID: UUID
    /// The newest migration applied, like `v16-normalize-v4-variants`.
    public let schemaVersion: String
    /// Accounts stored.
    public let accounts: Int
    /// Balances stored.
    public let balances: Int
    /// Transactions stored.
    public let transactions: Int
    /// Entries in the import ledger (imports, undos and links).
    public let imports: Int
    /// Change-log rows kept for history.
    public let changeLogEntries: Int
    /// The newest change sequence number.
    public let lastSequence: Int64
    /// Changes up to this sequence number were compacted away; tokens before it are invalid.
    public let historyHorizon: Int64
    /// When the oldest change still in the log was committed.
    public let oldestChange: Date?
}

/// What `coffer compact` did.
public struct CompactionResult: Sendable, Codable {
    /// Change-log rows removed.
    public let removedChanges: Int
    /// Tokens older than this sequence number are now invalid.
    public let historyHorizon: Int64
}

extension FinanceStore {
    /// Counts and identity of the store, as `coffer info` shows them.
    public func info() async throws -> StoreInfo {
        try await read { db in
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
            let oldest = try Int64.fetchOne(db, sql: "SELECT committed_at FROM change_log ORDER BY seq LIMIT 1")
            return StoreInfo(
                path: self.path, storeID: self.storeID,
                schemaVersion: try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").last ?? "none",
                accounts: try count("account"), balances: try count("balance"), transactions: try count("txn"),
                imports: try count("import_ledger"), changeLogEntries: try count("change_log"),
                lastSequence: try Self.lastSequence(db), historyHorizon: try Self.horizon(db),
                oldestChange: oldest.map(Rows.date))
        }
    }

    /// Drops change-log entries committed before `date`. History tokens from before the new horizon then throw
    /// `FinanceError.historyTokenInvalid`; a client restarts from `nil` and loses nothing (the current state is
    /// untouched). Tombstones are kept: they stop re-imports from resurrecting deleted transactions.
    @discardableResult
    public func compact(before date: Date) throws -> CompactionResult {
        try write { writer in
            let db = try writer.db
            let cutoff = Rows.millis(date)
            guard let maxSeq = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change_log WHERE committed_at < ?", arguments: [cutoff])
            else {
                return CompactionResult(removedChanges: 0, historyHorizon: try Self.horizon(db))
            }
            try db.execute(sql: "DELETE FROM change_log WHERE seq <= ?", arguments: [maxSeq])
            let removed = db.changesCount
            let horizon = max(maxSeq, try Self.horizon(db))
            try db.execute(sql: "UPDATE store_meta SET value = ? WHERE key = 'horizon_seq'", arguments: [horizon])
            // Imports whose changes are gone can no longer be undone: their undo journal goes too.
            for table in ["undo_txn", "undo_account", "undo_balance", "undo_open_listing", "undo_account_alias", "undo_added"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE import_id IN (SELECT id FROM import_ledger WHERE first_seq < ?)",
                               arguments: [horizon])
            }
            return CompactionResult(removedChanges: removed, historyHorizon: horizon)
        }
    }
}

extension FinanceStore {
    /// The last four characters of each account's number as stored (`••••1234`): the only trace of account
    /// numbers Coffer keeps in clear. A Coffer addition for display.
    package func maskedAccountNumbers() async throws -> [UUID: String] {
        if clientID != nil, let base {
            // A client's store: of the accounts its grant shows.
            let visible = Set(try await accounts(query: AccountQuery()).map(\.id))
            return try await base.maskedAccountNumbers().filter { visible.contains($0.key) }
        }
        // On the store's reader connections, as queries: `coffer transactions --account 1234` asks this in a
        // one-shot process, which then never opens GRDB's connections (`GRDBPool`).
        return try await readOffPool { job in try job.read { connection in
            let statement = try connection.statement("SELECT id, masked_number FROM account WHERE masked_number IS NOT NULL")
            var out: [UUID: String] = [:]
            while try statement.step() { out[try statement.uuid(0, column: "id")] = statement.text(1) }
            return out
        } }
    }

    /// Earlier imports, newest first.
    public func imports(limit: Int = 100) async throws -> [ImportRecord] {
        try await read { db in
            let horizon = try Self.horizon(db)
            return try LedgerRecord.order(LedgerRecord.Columns.id.desc).limit(limit).fetchAll(db)
                .map { $0.importRecord(horizon: horizon) }
        }
    }
}
