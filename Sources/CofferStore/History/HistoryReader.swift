import CofferModel
import Foundation
import GRDB

/// Reads one history stream: the initial snapshot, then the change log, coalesced per entity.
///
/// Snapshot: rows that existed at sequence S (`created_seq <= S`), in id order, paged by id; their tokens say
/// "snapshot at S, after id X". Then changes after S. Change-log rows are read in windows; within a window each
/// entity appears once (inserted, updated, or deleted, from its first and last operation there), ordered by
/// its last change, so a batch's token (the last change it includes) resumes exactly after it.
struct HistoryReader<Model: Identifiable & Sendable>: Sendable where Model.ID == UUID {
    let store: FinanceStore
    let entity: EntityKind
    let accountID: UUID?
    let since: HistoryToken?
    let isMonitoring: Bool
    let options: HistoryOptions

    enum State: Sendable {
        case start
        case snapshot(at: Int64, after: UUID?, emitted: Bool)
        case changes(after: Int64, pending: [Coalesced])
        case finished
    }

    struct Coalesced: Sendable {
        var id: UUID
        var lastSeq: Int64
        var lastOp: ChangeOp
        var sawInsert: Bool
    }

    func next(_ state: inout State) async throws -> Changes<Model>? {
        while true {
            if Task.isCancelled { state = .finished }
            switch state {
            case .finished:
                return nil
            case .start:
                state = try await startState()
            case .snapshot(let at, let after, let emitted):
                let (rows, done) = try await snapshotPage(at: at, after: after)
                if done {
                    state = .changes(after: at, pending: [])
                    if !rows.isEmpty || !emitted {
                        // The last snapshot batch (or an empty store's only batch) resumes in the change log.
                        return Changes(inserted: rows, updated: [], deleted: [], newToken: token(after: at))
                    }
                } else {
                    let last = rows.last!.id
                    state = .snapshot(at: at, after: last, emitted: true)
                    return Changes(inserted: rows, updated: [], deleted: [],
                                   newToken: store.makeToken(HistoryPosition(sequence: at, snapshotAfter: last, inSnapshot: true)))
                }
            case .changes(let after, var pending):
                if pending.isEmpty {
                    pending = try await readWindow(after: after)
                    if pending.isEmpty {
                        guard isMonitoring else {
                            state = .finished
                            return nil
                        }
                        do {
                            try await Task.sleep(for: options.pollInterval)
                        } catch {
                            state = .finished
                            return nil
                        }
                        state = .changes(after: after, pending: [])
                        continue
                    }
                }
                let batch = Array(pending.prefix(options.batchSize))
                pending.removeFirst(batch.count)
                let changes = try await materialize(batch)
                let newAfter = batch.last!.lastSeq
                state = .changes(after: newAfter, pending: pending)
                if changes.isEmpty { continue }
                return Changes(inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
                               newToken: token(after: newAfter))
            }
        }
    }

    private func token(after sequence: Int64) -> HistoryToken {
        store.makeToken(HistoryPosition(sequence: sequence, snapshotAfter: nil, inSnapshot: false))
    }

    private func startState() async throws -> State {
        guard let since else {
            let last = try await store.read { db in try FinanceStore.lastSequence(db) }
            return .snapshot(at: last, after: nil, emitted: false)
        }
        let position = try store.position(of: since)
        // One read checks the token and fetches the first window: "nothing new" costs a single round trip.
        let query = windowQuery(after: position.sequence)
        let (last, horizon, window) = try await store.read { db in
            (try FinanceStore.lastSequence(db), try FinanceStore.horizon(db),
             position.inSnapshot ? [] : try Self.coalesce(db, query.sql, query.arguments))
        }
        // A position behind the compaction horizon lost changes; one ahead of the store came from elsewhere.
        guard position.sequence >= horizon, position.sequence <= last else { throw FinanceError.historyTokenInvalid }
        if position.inSnapshot { return .snapshot(at: position.sequence, after: position.snapshotAfter, emitted: true) }
        if window.isEmpty, !isMonitoring { return .finished }
        return .changes(after: position.sequence, pending: window)
    }

    private var table: String {
        switch entity {
        case .account: "account"
        case .balance: "balance"
        case .transaction: "txn"
        }
    }

    private var columns: String {
        switch entity {
        case .account: Rows.accountColumns
        case .balance: Rows.balanceColumns
        case .transaction: Rows.transactionColumns
        }
    }

    private var accountColumn: String { entity == .account ? "id" : "account_id" }

    private static func decode(_ row: Row, entity: EntityKind) throws -> Model {
        let value: Any
        switch entity {
        case .account: value = try Rows.account(row)
        case .balance: value = try Rows.balance(row)
        case .transaction: value = try Rows.transaction(row)
        }
        return value as! Model
    }

    private func snapshotPage(at: Int64, after: UUID?) async throws -> ([Model], Bool) {
        let limit = options.batchSize
        let (sql, arguments) = snapshotSQL(at: at, after: after, limit: limit)
        let entity = self.entity
        let rows = try await store.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Self.decode($0, entity: entity) }
        }
        return (rows, rows.count < limit)
    }

    private func snapshotSQL(at: Int64, after: UUID?, limit: Int) -> (String, StatementArguments) {
        var conditions = ["created_seq <= ?"]
        var arguments: StatementArguments = [at]
        if let accountID {
            // `+` keeps the planner on the primary key (the order of the pages) for transactions, which have no
            // (account, id) index: filtering one account's rows out of the id order beats sorting them per page.
            conditions.append(entity == .transaction ? "+account_id = ?" : "\(accountColumn) = ?")
            arguments += [accountID]
        }
        if let after {
            conditions.append("id > ?")
            arguments += [after]
        }
        arguments += [limit]
        return ("SELECT \(columns) FROM \(table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?", arguments)
    }

    private func windowQuery(after: Int64) -> (sql: String, arguments: StatementArguments) {
        var sql = "SELECT seq, op, entity_id FROM change_log WHERE entity = ? AND seq > ?"
        var arguments: StatementArguments = [entity.rawValue, after]
        if let accountID {
            sql = "SELECT seq, op, entity_id FROM change_log WHERE entity = ? AND account_id = ? AND seq > ?"
            arguments = [entity.rawValue, accountID, after]
        }
        sql += " ORDER BY seq LIMIT ?"
        arguments += [options.window]
        return (sql, arguments)
    }

    private func readWindow(after: Int64) async throws -> [Coalesced] {
        let query = windowQuery(after: after)
        return try await store.read { db in try Self.coalesce(db, query.sql, query.arguments) }
    }

    /// One window of the change log, one entry per entity, ordered by its last change.
    private static func coalesce(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [Coalesced] {
        var byID: [UUID: Int] = [:]
        var list: [Coalesced] = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            let seq: Int64 = row[0]
            let op = ChangeOp(rawValue: row[1]) ?? .update
            let id: UUID = row[2]
            if let index = byID[id] {
                list[index].lastSeq = seq
                list[index].lastOp = op
                if op == .insert { list[index].sawInsert = true }
            } else {
                byID[id] = list.count
                list.append(Coalesced(id: id, lastSeq: seq, lastOp: op, sawInsert: op == .insert))
            }
        }
        list.sort { $0.lastSeq < $1.lastSeq }
        return list
    }

    private struct Materialized {
        var inserted: [Model] = []
        var updated: [Model] = []
        var deleted: [UUID] = []
        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    private func materialize(_ batch: [Coalesced]) async throws -> Materialized {
        var result = Materialized()
        var wanted: [UUID] = []
        for item in batch {
            switch (item.sawInsert, item.lastOp) {
            case (true, .delete): continue  // came and went since the token: nothing to tell
            case (false, .delete): result.deleted.append(item.id)
            default: wanted.append(item.id)
            }
        }
        guard !wanted.isEmpty else { return result }
        let sql = "SELECT \(columns) FROM \(table) WHERE id IN (\(Array(repeating: "?", count: wanted.count).joined(separator: ",")))"
        let ids = wanted
        let entity = self.entity
        let models = try await store.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(ids)).map { try Self.decode($0, entity: entity) }
        }
        var byID: [UUID: Model] = [:]
        for model in models { byID[model.id] = model }
        for item in batch where !(item.lastOp == .delete) {
            // A row already gone was deleted after this window; the delete comes in a later batch.
            guard let model = byID[item.id] else { continue }
            if item.sawInsert { result.inserted.append(model) } else { result.updated.append(model) }
        }
        return result
    }
}

extension FinanceStore {
    /// The newest change-log sequence number ever assigned (0 for a new store).
    static func lastSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'change_log'") ?? 0
    }

    /// Changes up to this sequence number were compacted away.
    static func horizon(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'horizon_seq'") ?? 0
    }
}
