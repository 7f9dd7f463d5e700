@testable import CofferStore
import CofferTestSupport
import Foundation
import GRDB
import Testing

/// `BoundStatement` hands SQLite its texts and ids in place (`SQLITE_STATIC`), from blocks it reuses after each
/// step: what is stored is still exactly what was bound, across blocks, for values too long to stage, and a
/// parameter not bound again reads as NULL, never as bytes written over since. A failure prints its seed.
@Suite struct BoundStatementTests {
    @Test func storedValuesAreTheBoundOnesOverManyStepsAndBlocks() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(step INTEGER, k INTEGER, s TEXT, u BLOB)")
            let rows = 40
            let sql = "INSERT INTO t(step, k, s, u) VALUES "
                + Array(repeating: "(?, ?, ?, ?)", count: rows).joined(separator: ", ")
            let statement = try BoundStatement(db, sql: sql)
            let pieces = ["", "a", "Zürich ", "€", "🧾", "\u{301}", "x", String(repeating: "long ", count: 300)]
            for seed in UInt64(1)...60 {
                var rng = SplitMix64(state: seed)
                var expected: [(String?, UUID)] = []
                for k in 0..<rows {
                    // Up to ~6 KB a value: some fill a block's end, some are handed to SQLite to copy.
                    let text: String? = Int.random(in: 0..<8, using: &rng) == 0 ? nil
                        : (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
                    var bytes = [UInt8](repeating: 0, count: 16)
                    for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
                    let id = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
                    let base = CInt(k * 4)
                    try statement.bind(base + 1, Int64(seed))
                    try statement.bind(base + 2, Int64(k))
                    try statement.bind(base + 3, text)
                    try statement.bind(base + 4, id)
                    expected.append((text, id))
                }
                try statement.step()
                let stored = try Row.fetchAll(db, sql: "SELECT s, u FROM t WHERE step = ? ORDER BY k", arguments: [seed])
                #expect(stored.count == rows, "seed \(seed)")
                for (k, row) in stored.enumerated() {
                    #expect(row["s"] as String? == expected[k].0, "seed \(seed), row \(k)")
                    let blob: Data = row["u"]
                    #expect(blob.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) } == expected[k].1,
                            "seed \(seed), row \(k)")
                }
            }
        }
    }

    @Test func aParameterNotBoundAgainIsNullAfterAStep() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(a TEXT, b TEXT)")
            let statement = try BoundStatement(db, sql: "INSERT INTO t(a, b) VALUES (?, ?)")
            try statement.bind(1, "first")
            try statement.bind(2, "kept only for the first row")
            try statement.step()
            try statement.bind(1, "second")  // `b` left unbound: NULL, not the first row's bytes
            try statement.step()
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
            #expect(rows.map { $0["a"] as String? } == ["first", "second"])
            #expect(rows.map { $0["b"] as String? } == ["kept only for the first row", nil])
        }
    }
}
