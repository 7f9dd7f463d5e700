@testable import CofferStore
import CofferTestSupport
import Foundation
import GRDB
import Testing

/// Undo asks, of the rows an import inserted or kept alive, who inserted each last and whether a live entry other
/// than the one undone changed it. It used to ask per row (a search of the whole change log each time: a minute for
/// 10,000 rows); `StoreWriter.insertionHistory` answers for all of them in one pass. Here its answers equal the
/// per-row queries it replaced, on random ledgers and change logs (undone entries, links, undo entries, changes
/// without an import, other entities, one row inserted twice). A failure prints its seed.
@Suite struct UndoHistoryTests {
    @Test func onePassAnswersAsThePerRowQueries() throws {
        var answered = (undone: 0, live: 0, none: 0, changed: 0, unchanged: 0)
        for seed in UInt64(1)...60 {
            var random = SplitMix64(seed: seed)
            let (store, path) = try makeStore("undo-history-\(seed)")
            try store.close()
            let queue = try DatabaseQueue(path: path)
            let pool = (0..<Int.random(in: 1...40, using: &random)).map { _ in UUID() }
            let entries = Int.random(in: 1...8, using: &random)
            try queue.write { db in
                for entry in 1...entries {
                    let kind = ["import", "import", "import", "link", "undo"].randomElement(using: &random)!
                    let undoneBy: Int64? = Bool.random(using: &random) ? Int64.random(in: 1...9, using: &random) : nil
                    try db.execute(sql: """
                        INSERT INTO import_ledger(id, sha256, path, format, imported_at, kind, undone_by)
                        VALUES (?, 'x', 'f', 'ofx', 0, ?, ?)
                        """, arguments: [entry, kind, undoneBy])
                }
                for _ in 0..<Int.random(in: 0...200, using: &random) {
                    let entity = Int.random(in: 0..<10, using: &random) < 8 ? 2 : Int.random(in: 0...3, using: &random)
                    let importID: Int64? = Int.random(in: 0..<10, using: &random) == 0
                        ? nil : Int64.random(in: 1...Int64(entries), using: &random)
                    try db.execute(sql: """
                        INSERT INTO change_log(entity, op, entity_id, account_id, committed_at, import_id)
                        VALUES (?, ?, ?, ?, 0, ?)
                        """, arguments: [entity, Int.random(in: 0...2, using: &random), pool.randomElement(using: &random)!,
                                         UUID(), importID])
                }
            }
            let other = Int64.random(in: 1...Int64(entries), using: &random)
            let asked = Set(pool.filter { _ in Int.random(in: 0..<4, using: &random) > 0 })
            let history = try queue.read { try StoreWriter.insertionHistory($0, of: asked, other: other) }
            try queue.read { db in
                for id in asked {
                    let inserter = try Row.fetchOne(db, sql: """
                        SELECT l.undone_by FROM change_log c JOIN import_ledger l ON l.id = c.import_id
                        WHERE c.entity = 2 AND c.op = 0 AND c.entity_id = ? ORDER BY c.seq DESC LIMIT 1
                        """, arguments: [id])
                    let expectedUndone: Bool? = inserter.map { ($0[0] as Int64?) != nil }
                    let expectedChanged = try Bool.fetchOne(db, sql: """
                        SELECT EXISTS (SELECT 1 FROM change_log c JOIN import_ledger l ON l.id = c.import_id
                                       WHERE c.entity = 2 AND c.entity_id = ? AND c.import_id != ? AND l.undone_by IS NULL
                                       AND l.kind != 'undo')
                        """, arguments: [id, other]) ?? false
                    let got = history[id]
                    #expect(got?.lastInsertUndone == expectedUndone, "seed \(seed): \(id) last insert undone")
                    #expect((got?.changedByOthers ?? false) == expectedChanged, "seed \(seed): \(id) changed by others")
                    switch expectedUndone {
                    case true?: answered.undone += 1
                    case false?: answered.live += 1
                    case nil: answered.none += 1
                    }
                    if expectedChanged { answered.changed += 1 } else { answered.unchanged += 1 }
                }
            }
        }
        // Every kind of answer came up, so the comparison cannot pass on data that asks nothing.
        #expect(answered.undone > 20 && answered.live > 20 && answered.none > 20, "\(answered)")
        #expect(answered.changed > 20 && answered.unchanged > 20, "\(answered)")
    }
}
