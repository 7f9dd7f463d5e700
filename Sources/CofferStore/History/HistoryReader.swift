import CofferModel
import Foundation
import GRDB

/// Reads one history stream: the initial snapshot, then the change log, coalesced per entity.
///
/// Snapshot: rows that existed at sequence S (`created_seq <= S`), in id order, paged by id; their tokens say
/// "snapshot at S, after id X". Then changes after S. Change-log rows are read in windows; within a window each
/// entity appears once (inserted, updated, or deleted, from its first and last operation there), ordered by
/// its last change, so a batch's token (the last change it includes) resumes exactly after it.
///
/// For a client (`FinanceStore.clientID`), every step first reads the client's grant (`AccessScope`): the stream
/// is bound to the grant's epoch, and a change of it ends the stream with `historyTokenInvalid`. The snapshot and
/// the change log are read through the grant; a change is told by whether the record was in the grant before the
/// window (its first change there says: an insert was not, an update or deletion was if its prior day was in) and
/// after it (its last change: a deletion is not, else its day decides), so a record moving across the earliest
/// date is inserted or deleted for the client, and values are sent only for records in the grant now.
struct HistoryReader<Model: Identifiable & Sendable>: Sendable where Model.ID == UUID {
    let store: FinanceStore
    let entity: EntityKind
    let accountID: UUID?
    let since: HistoryToken?
    let isMonitoring: Bool
    let options: HistoryOptions
    /// The client the stream reads for; nil for the owner.
    var clientID: UUID? { store.clientID }

    enum State: Sendable {
        case start
        case snapshot(at: Int64, after: UUID?, emitted: Bool)
        case changes(after: Int64, pending: [Coalesced])
        /// Monitoring, caught up after this sequence number: waiting for the store to change.
        case waiting(after: Int64)
        case finished

        /// A state `advance` reads the store from (not the end, nor a caught-up wait).
        var isReading: Bool {
            switch self {
            case .finished, .waiting: false
            default: true
            }
        }
    }

    /// Not nested in this generic type: code over a window then runs on a concrete type.
    typealias Coalesced = CoalescedChange

    /// The next batch. The SQLite work up to it runs as one read on the store's read threads (`readOffPool`);
    /// a monitoring sequence that has caught up waits on `options.clock` between looks at `watch`.
    func next(_ state: inout State, epoch: inout Int64?, watch: ChangeWatch?) async throws -> Changes<Model>? {
        if case .start = state, let since, !isMonitoring, try caughtUp(since) {
            state = .finished
            return nil
        }
        while true {
            if Task.isCancelled { state = .finished }
            switch state {
            case .finished:
                return nil
            case .waiting(let after):
                do {
                    repeat {
                        try await options.clock.sleep(for: options.pollInterval)
                    } while !(watch?.changed(store) ?? true)
                } catch {
                    state = .finished
                    return nil
                }
                state = .changes(after: after, pending: [])
            default:
                let current = state
                let bound = epoch
                let (advanced, newEpoch, changes) = try await store.readOffPool { job in
                    try self.advance(current, epoch: bound, job, watch: watch)
                }
                state = advanced
                epoch = newEpoch
                if let changes { return changes }
            }
        }
    }

    /// Runs from `state` until a batch is ready, the sequence ends, or a monitoring sequence has caught up.
    private func advance(_ start: State, epoch: Int64?, _ job: ReadJob, watch: ChangeWatch?) throws -> (State, Int64?, Changes<Model>?) {
        var state = start
        // A monitoring stream takes the data version before it reads anything it decides on (the grant, then the
        // change log): a commit after this, of a change or of a grant decision, wakes its wait. Taken after the
        // grant was read, a revocation committed in between would go unnoticed until the next change of data.
        if isMonitoring, watch != nil, state.isReading { try watch?.mark(store) }
        // A client's grant as it is now: the stream goes on only under the epoch it started in.
        var scope: AccessScope?
        if let clientID {
            let loaded = try job.read { connection in try AccessScope.load(connection, clientID: clientID) }
            try loaded.require(.of(entity))
            if let epoch, epoch != loaded.epoch { throw FinanceError.historyTokenInvalid }
            scope = loaded
        }
        let epoch = scope?.epoch ?? epoch
        let binding = scope?.binding
        while true {
            try job.checkCancellation()
            switch state {
            case .finished, .waiting:
                return (state, epoch, nil)
            case .start:
                state = try startState(job, scope: scope)
            case .snapshot(let at, let after, let emitted):
                let (rows, done) = try snapshotPage(at: at, after: after, scope: scope, job)
                if done {
                    state = .changes(after: at, pending: [])
                    if !rows.isEmpty || !emitted {
                        // The last snapshot batch (or an empty store's only batch) resumes in the change log.
                        return (state, epoch, Changes(inserted: rows, updated: [], deleted: [], newToken: token(after: at, binding)))
                    }
                } else {
                    let last = rows.last!.id
                    state = .snapshot(at: at, after: last, emitted: true)
                    return (state, epoch, Changes(inserted: rows, updated: [], deleted: [],
                                                  newToken: store.makeToken(HistoryPosition(sequence: at, snapshotAfter: last, inSnapshot: true),
                                                                            binding: binding)))
                }
            case .changes(let after, var pending):
                if pending.isEmpty {
                    // The data version was taken at the top, before the grant and this read.
                    pending = try readWindow(after: after, scope: scope, job)
                    if pending.isEmpty {
                        return (isMonitoring ? .waiting(after: after) : .finished, epoch, nil)
                    }
                }
                let batch = Array(pending.prefix(options.batchSize))
                pending.removeFirst(batch.count)
                let changes = try materialize(batch, scope: scope, job)
                let newAfter = batch.last!.lastSeq
                state = .changes(after: newAfter, pending: pending)
                if changes.isEmpty { continue }
                return (state, epoch, Changes(inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
                                              newToken: token(after: newAfter, binding)))
            }
        }
    }

    private func token(after sequence: Int64, _ binding: TokenBinding?) -> HistoryToken {
        store.makeToken(HistoryPosition(sequence: sequence, snapshotAfter: nil, inSnapshot: false), binding: binding)
    }

    /// Whether nothing of this stream changed since `since`: a client's usual poll, answered on the calling thread
    /// by one-row look-ups (the stream's next change-log row, through the index the window reads) instead of a hop
    /// to the read threads and back, which costs several times as much. Throws for a token not valid here.
    func caughtUp(_ since: HistoryToken) throws -> Bool {
        if let clientID {
            // The grant, the token's epoch and the probe through the grant, in one snapshot; nil: in the snapshot.
            let probed = try store.readNow { connection in
                try connection.snapshot { () -> (meta: (last: Int64, horizon: Int64), next: [Coalesced], position: HistoryPosition)? in
                    let scope = try AccessScope.load(connection, clientID: clientID)
                    try scope.require(.of(entity))
                    let position = try store.position(of: since, binding: scope.binding)
                    guard !position.inSnapshot else { return nil }
                    let probe = windowQuery(after: position.sequence, limit: 1, scope: scope)
                    return (try FinanceStore.meta(connection), try Self.coalesce(connection, probe.sql, probe.arguments, detailed: true),
                            position)
                }
            }
            guard let probed else { return false }
            guard probed.position.sequence >= probed.meta.horizon, probed.position.sequence <= probed.meta.last else {
                throw FinanceError.historyTokenInvalid
            }
            return probed.next.isEmpty
        }
        let position = try store.position(of: since)
        guard !position.inSnapshot else { return false }
        let probe = windowQuery(after: position.sequence, limit: 1)
        let (meta, next) = try store.readNow { connection in
            try connection.snapshot {
                (try FinanceStore.meta(connection), try Self.coalesce(connection, probe.sql, probe.arguments))
            }
        }
        guard position.sequence >= meta.horizon, position.sequence <= meta.last else { throw FinanceError.historyTokenInvalid }
        return next.isEmpty
    }

    private func startState(_ job: ReadJob, scope: AccessScope?) throws -> State {
        guard let since else {
            let last = try job.read { connection in try FinanceStore.meta(connection).last }
            return .snapshot(at: last, after: nil, emitted: false)
        }
        let position = try store.position(of: since, binding: scope?.binding)
        // One read checks the token and fetches the first window: "nothing new" costs a single round trip.
        let query = windowQuery(after: position.sequence, scope: scope)
        let detailed = scope != nil
        let (meta, window) = try job.read { connection in
            try connection.snapshot {
                (try FinanceStore.meta(connection), position.inSnapshot ? [] : try Self.coalesce(connection, query.sql, query.arguments, detailed: detailed))
            }
        }
        // A position behind the compaction horizon lost changes; one ahead of the store came from elsewhere.
        guard position.sequence >= meta.horizon, position.sequence <= meta.last else { throw FinanceError.historyTokenInvalid }
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
        case .account: AccountRecord.selectList
        case .balance: BalanceRecord.selectList
        case .transaction: TxnColumn.transactionList
        }
    }

    private var accountColumn: String { entity == .account ? "id" : "account_id" }

    /// Steps a statement to its end and decodes every row: the loop runs on the concrete model type and the array
    /// is cast once (a cast per row, through this generic type, showed in catch-up profiles).
    private var readAll: (ReadStatement) throws -> [Model] {
        switch entity {
        case .account: { try Self.rows($0) { try AccountRecord.decode($0).account() } as! [Model] }
        case .balance: { try Self.rows($0) { try BalanceRecord.decode($0).balance() } as! [Model] }
        case .transaction: { try Self.rows($0, TxnRows.transaction) as! [Model] }
        }
    }

    @inline(__always)
    private static func rows<M>(_ statement: ReadStatement, _ decode: (ReadStatement) throws -> M) throws -> [M] {
        var out: [M] = []
        while try statement.step() { out.append(try decode(statement)) }
        return out
    }

    private func snapshotPage(at: Int64, after: UUID?, scope: AccessScope?, _ job: ReadJob) throws -> ([Model], Bool) {
        let limit = options.batchSize
        // One row more than a batch tells whether this is the last page: its token then resumes in the change
        // log, without reading an empty page first.
        let (sql, arguments) = snapshotSQL(at: at, after: after, limit: limit + 1, scope: scope)
        let readAll = self.readAll
        var rows = try job.read { connection in
            let statement = try connection.statement(sql)
            try statement.bind(arguments)
            return try readAll(statement)
        }
        let done = rows.count <= limit
        if !done { rows.removeLast() }
        return (rows, done)
    }

    private func snapshotSQL(at: Int64, after: UUID?, limit: Int, scope: AccessScope?) -> (String, [DatabaseValue]) {
        var conditions = ["created_seq <= ?"]
        var arguments: [DatabaseValue] = [at.databaseValue]
        if let scope {
            let grant = scope.tableCondition(entity, indexed: false)
            conditions.append(grant.sql)
            arguments += grant.arguments
        }
        if let accountID {
            // `+` keeps the planner on the primary key (the order of the pages) for transactions, which have no
            // (account, id) index: filtering one account's rows out of the id order beats sorting them per page.
            conditions.append(entity == .transaction ? "+account_id = ?" : "\(accountColumn) = ?")
            arguments += [accountID.databaseValue]
        }
        if let after {
            conditions.append("id > ?")
            arguments += [after.databaseValue]
        }
        arguments += [limit.databaseValue]
        return ("SELECT \(columns) FROM \(table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?", arguments)
    }

    private func windowQuery(after: Int64, limit: Int? = nil, scope: AccessScope? = nil) -> (sql: String, arguments: [DatabaseValue]) {
        // The whole store's stream walks the log by sequence (`+entity`: not by the (entity, account, seq) index,
        // which would read every change of the entity and sort them). A client's reads the columns that say where
        // and when each change was (`CoalescedChange.window(detailed:)`), of the changes its grant concerns.
        let columns = scope == nil ? "seq, op, entity_id" : "seq, op, entity_id, account_id, day, prior_day"
        var sql = "SELECT \(columns) FROM change_log WHERE +entity = ? AND seq > ?"
        var arguments: [DatabaseValue] = [entity.rawValue.databaseValue, after.databaseValue]
        if let accountID {
            sql = "SELECT \(columns) FROM change_log WHERE entity = ? AND account_id = ? AND seq > ?"
            arguments = [entity.rawValue.databaseValue, accountID.databaseValue, after.databaseValue]
        }
        if let scope {
            // `+account_id` in the whole store's stream keeps the walk by sequence.
            let grant = scope.logCondition(entity)
            sql += " AND " + (accountID == nil ? grant.sql.replacingOccurrences(of: "account_id = ?", with: "+account_id = ?") : grant.sql)
            arguments += grant.arguments
        }
        sql += " ORDER BY seq LIMIT ?"
        arguments.append((limit ?? options.window).databaseValue)
        return (sql, arguments)
    }

    private func readWindow(after: Int64, scope: AccessScope?, _ job: ReadJob) throws -> [Coalesced] {
        let query = windowQuery(after: after, scope: scope)
        let detailed = scope != nil
        return try job.read { connection in try Self.coalesce(connection, query.sql, query.arguments, detailed: detailed) }
    }

    private static func coalesce(_ connection: ReaderConnection, _ sql: String, _ arguments: [DatabaseValue],
                                 detailed: Bool = false) throws -> [Coalesced] {
        try CoalescedChange.window(connection, sql, arguments, detailed: detailed)
    }

    private struct Materialized {
        var inserted: [Model] = []
        var updated: [Model] = []
        var deleted: [UUID] = []
        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    private func materialize(_ batch: [Coalesced], scope: AccessScope?, _ job: ReadJob) throws -> Materialized {
        if let scope { return try materialize(batch, for: scope, job) }
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
        let (models, byID) = try fetch(wanted, job)
        for item in batch where !(item.lastOp == .delete) {
            // A row already gone was deleted after this window; the delete comes in a later batch.
            guard let index = byID[item.id] else { continue }
            if item.sawInsert { result.inserted.append(models[index]) } else { result.updated.append(models[index]) }
        }
        return result
    }

    /// A client's batch: each record is told by whether it was in the grant before the window and is after it
    /// (see the type's comment); values only of records in the grant as they are now (a record that left it after
    /// this window is told so by a later batch).
    private func materialize(_ batch: [Coalesced], for scope: AccessScope, _ job: ReadJob) throws -> Materialized {
        var result = Materialized()
        var wanted: [(id: UUID, inserted: Bool)] = []
        for item in batch {
            let before: Bool
            switch item.firstOp {
            case .insert: before = false
            case .update: before = scope.contains(entity, accountID: item.firstAccount, day: item.firstPriorDay)
            case .delete: before = scope.contains(entity, accountID: item.firstAccount, day: item.firstDay)
            }
            let after = item.lastOp != .delete && scope.contains(entity, accountID: item.lastAccount, day: item.lastDay)
            switch (before, after) {
            case (false, false): continue
            case (true, false): result.deleted.append(item.id)
            case (_, true): wanted.append((item.id, !before))
            }
        }
        guard !wanted.isEmpty else { return result }
        let (models, byID) = try fetch(wanted.map(\.id), job)
        let visible = self.visible(scope)
        for item in wanted {
            guard let index = byID[item.id], visible(models[index]) else { continue }
            if item.inserted { result.inserted.append(models[index]) } else { result.updated.append(models[index]) }
        }
        return result
    }

    /// Whether a record as it is now is in the grant.
    private func visible(_ scope: AccessScope) -> (Model) -> Bool {
        switch entity {
        case .account: { scope.contains($0 as! Account) }
        case .balance: { scope.contains($0 as! AccountBalance) }
        case .transaction: { scope.contains($0 as! Transaction) }
        }
    }

    /// The current rows of these ids, and each id's index among them (rows deleted meanwhile are missing).
    private func fetch(_ wanted: [UUID], _ job: ReadJob) throws -> ([Model], [UUID: Int]) {
        // The list is padded with NULLs (which match nothing) to a power of two: a handful of statements, prepared once.
        var slots = 8
        while slots < wanted.count { slots *= 2 }
        let sql = "SELECT \(columns) FROM \(table) WHERE id IN (\(Array(repeating: "?", count: slots).joined(separator: ",")))"
        let readAll = self.readAll
        let models = try job.read { connection in
            let statement = try connection.statement(sql)
            for (offset, id) in wanted.enumerated() { try statement.bind(id, at: CInt(offset + 1)) }
            return try readAll(statement)
        }
        var byID: [UUID: Int] = [:]
        byID.reserveCapacity(models.count)
        for (index, model) in models.enumerated() { byID[model.id] = index }
        return (models, byID)
    }
}
