@testable import CofferStore
import CofferTestSupport
import Foundation
import GRDB
import Testing

/// The writer holds new rows and writes them many to a statement (`InsertBatch`). That must be invisible: for
/// random scripts of inserts, updates, deletes, balances and look-ups in one import, a store written with small
/// batches (so that many fill) ends byte for byte as one written row by row, every look-up in between answers the
/// same, and so does an undo of the import.
@Suite struct InsertBatchTests {
    typealias Seeded = SplitMix64

    enum Step {
        case insert(Transaction, DedupeKeys)
        case update(Int)
        case delete(Int)
        case lookUp(Int)
        case lookUpByExternalID(Int)
        case balance(Int, UUID)
    }

    /// A script of one import into two accounts: mostly inserts, with every other kind of step between them.
    static func script(_ rng: inout Seeded, accounts: [UUID]) -> [Step] {
        var steps: [Step] = []
        var inserted = 0
        for _ in 0..<Int.random(in: 0...400, using: &rng) {
            let roll = Int.random(in: 0..<100, using: &rng)
            if inserted == 0 || roll < 70 {
                let cents = Int.random(in: 1...99_999, using: &rng)
                let t = makeTransaction(accounts.randomElement(using: &rng)!, "\(cents / 100).\(String(format: "%02d", cents % 100))",
                                        on: "2026-0\(Int.random(in: 1...9, using: &rng))-1\(Int.random(in: 0...9, using: &rng))",
                                        ["Coffee", "Rent", "Bäckerei"].randomElement(using: &rng)!,
                                        status: Int.random(in: 0..<5, using: &rng) == 0 ? .pending : .booked)
                let keys = Bool.random(using: &rng) ? DedupeKeys(externalID: "X\(inserted)")
                    : DedupeKeys(fingerprint: "F\(inserted % 7)", occurrence: inserted)
                steps.append(.insert(t, keys))
                inserted += 1
            } else {
                let target = Int.random(in: 0..<inserted, using: &rng)
                switch roll % 5 {
                case 0: steps.append(.update(target))
                case 1: steps.append(.delete(target))
                case 2: steps.append(.lookUp(target))
                case 3: steps.append(.lookUpByExternalID(target))
                default: steps.append(.balance(target, .timeOrdered()))
                }
            }
        }
        return steps
    }

    /// Runs `steps` as one import with batches of `size` rows; returns what each look-up saw, and the import.
    static func run(_ steps: [Step], in store: FinanceStore, batchSize size: Int) throws -> (seen: [String], importID: Int64) {
        try store.write { w in
            w.batch = InsertBatch(size: size)
            try w.beginImport(sha256: "script", path: "script", format: "test", profile: nil)
            var rows: [(Transaction, DedupeKeys)] = []
            var gone = Set<Int>()
            var seen: [String] = []
            for step in steps {
                switch step {
                case .insert(let t, let keys):
                    try w.insert(t, keys: keys)
                    rows.append((t, keys))
                case .update(let k) where !gone.contains(k):
                    var t = rows[k].0
                    t.transactionDescription += " (updated)"
                    try w.update(t, keys: rows[k].1)
                    rows[k].0 = t
                case .delete(let k) where !gone.contains(k):
                    try w.delete(StoredTransaction(transaction: rows[k].0, keys: rows[k].1))
                    gone.insert(k)
                case .lookUp(let k):
                    let found = try w.transaction(id: rows[k].0.id)
                    seen.append("\(k): \(found.map { "\($0.transaction.transactionDescription) \($0.keys)" } ?? "none")")
                case .lookUpByExternalID(let k):
                    let (t, keys) = rows[k]
                    let match = try keys.externalID.flatMap {
                        try w.externalIDMatch(accountID: t.accountID, externalID: $0, comparedWith: t, amounts: EncodedAmounts(t))
                    }
                    seen.append("\(k) by id: \(match.map { "\($0.id == t.id) \($0.unchanged)" } ?? "none")")
                case .balance(let k, let id):
                    let t = rows[k].0
                    let balance = AccountBalance(id: id, accountID: t.accountID, currentBalance: .booked(
                        Balance(amount: money("\(k).00"), asOfDate: t.transactionDate, creditDebitIndicator: .credit)))
                    try w.insertBalance(balance, dedupeKey: "balance \(k)")
                default: break
                }
            }
            try w.finishImport(unchanged: 0)
            return (seen, w.importID!)
        }
    }

    /// Every row of the tables an import writes, as text (the change log without its commit time).
    static func dump(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try ["SELECT * FROM txn ORDER BY id",
                 "SELECT seq, entity, op, entity_id, account_id, import_id, day, prior_day FROM change_log ORDER BY seq",
                 "SELECT * FROM tombstone ORDER BY rowid", "SELECT * FROM balance ORDER BY id"].flatMap { sql in
                try Row.fetchAll(db, sql: sql).map(\.description)
            }
        }
    }

    @Test func batchedWritesEqualRowByRowWrites() throws {
        for seed in UInt64(1)...60 {
            var rng = Seeded(seed: seed)
            let size = [2, 3, 7, 128].randomElement(using: &rng)!
            let (batched, batchedPath) = try makeStore("batched")
            let (single, singlePath) = try makeStore("single")
            // The same accounts in both (not `addAccount`: an identity's id is keyed by the store).
            let accounts = [UUID(), UUID()]
            for store in [batched, single] {
                try store.write { w in
                    for (n, id) in accounts.enumerated() {
                        try w.insertAccount(.asset(AssetAccount(id: id, displayName: "Account \(n)", institutionName: "Test Bank",
                                                                currencyCode: "USD")), identityKey: "account \(n)", maskedNumber: nil)
                    }
                }
            }
            let steps = Self.script(&rng, accounts: accounts)
            let batchedRun = try Self.run(steps, in: batched, batchSize: size)
            let singleRun = try Self.run(steps, in: single, batchSize: .max)
            #expect(batchedRun.seen == singleRun.seen, "seed \(seed), batches of \(size): look-ups differ")
            #expect(try Self.dump(batchedPath) == (try Self.dump(singlePath)), "seed \(seed), batches of \(size): stores differ")

            // Each row's creation sequence is its own insert's change-log row (what undo and history rely on).
            var inserts = 0, deletes = Set<Int>()
            for step in steps {
                if case .insert = step { inserts += 1 }
                if case .delete(let k) = step { deletes.insert(k) }
            }
            let (rows, logged) = try DatabaseQueue(path: batchedPath).read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn")!,
                 try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM txn t JOIN change_log c ON c.seq = t.created_seq AND c.entity_id = t.id
                    AND c.op = \(ChangeOp.insert.rawValue) AND c.import_id = ? AND c.day = t.local_day
                    """, arguments: [batchedRun.importID])!)
            }
            #expect(rows == inserts - deletes.count, "seed \(seed)")
            #expect(logged == rows, "seed \(seed): \(rows - logged) rows without their own insert in the change log")

            let undone = try batched.undoImport(batchedRun.importID)
            _ = try single.undoImport(singleRun.importID)
            #expect(undone.reverted.map(\.removed).reduce(0, +) == inserts - deletes.count, "seed \(seed)")
            #expect(try Self.dump(batchedPath) == (try Self.dump(singlePath)), "seed \(seed): the undone stores differ")
        }
    }
}
