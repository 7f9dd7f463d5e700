import CofferModel
import Foundation
import GRDB

/// One entity's changes within a window of the change log: its last sequence number and operation, and whether it
/// was inserted within the window. A client's window (`detailed`) also keeps where and when the entity was before
/// its first change there and after its last (`Schema` v17's `day` and `prior_day`).
struct CoalescedChange: Sendable {
    var id: UUID
    var lastSeq: Int64
    var lastOp: ChangeOp
    var sawInsert: Bool
    var firstOp: ChangeOp = .insert
    var firstAccount = CoalescedChange.noAccount
    var firstDay: Int?
    var firstPriorDay: Int?
    var lastAccount = CoalescedChange.noAccount
    var lastDay: Int?

    /// Stands for "not read" (an owner's window selects no account).
    static let noAccount = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// One window of the change log, one entry per entity, ordered by its last change. `detailed`: the statement
    /// also selects `account_id, day, prior_day`.
    static func window(_ connection: ReaderConnection, _ sql: String, _ arguments: [DatabaseValue],
                       detailed: Bool = false) throws -> [CoalescedChange] {
        var byID: [UUID: Int] = [:]
        var list: [CoalescedChange] = []
        let statement = try connection.statement(sql)
        try statement.bind(arguments)
        while try statement.step() {
            let seq = statement.int64(0)
            let op = ChangeOp(rawValue: Int(statement.int64(1))) ?? .update
            let id = try statement.uuid(2, column: "entity_id")
            let index: Int
            var first = false
            if let known = byID[id] {
                index = known
                list[index].lastSeq = seq
                list[index].lastOp = op
                if op == .insert { list[index].sawInsert = true }
            } else {
                index = list.count
                first = true
                byID[id] = index
                list.append(CoalescedChange(id: id, lastSeq: seq, lastOp: op, sawInsert: op == .insert))
            }
            guard detailed else { continue }
            let account = try statement.uuid(3, column: "account_id")
            let day = statement.isNull(4) ? nil : Int(statement.int64(4))
            if first {
                list[index].firstOp = op
                list[index].firstAccount = account
                list[index].firstDay = day
                list[index].firstPriorDay = statement.isNull(5) ? nil : Int(statement.int64(5))
            }
            list[index].lastAccount = account
            list[index].lastDay = day
        }
        list.sort { $0.lastSeq < $1.lastSeq }
        return list
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

    /// `lastSequence` and `horizon` in one statement, on a reader connection.
    static func meta(_ connection: ReaderConnection) throws -> (last: Int64, horizon: Int64) {
        let statement = try connection.statement("""
            SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'change_log'), \
            (SELECT value FROM store_meta WHERE key = 'horizon_seq')
            """)
        guard try statement.step() else { return (0, 0) }
        return (statement.int64(0), statement.int64(1))
    }
}
