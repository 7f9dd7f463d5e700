@testable import CofferStore
import Foundation
import GRDB
import Testing

/// Migrations are history (docs/schema.md): each shipped migration's effect on the schema is pinned, and stores made
/// by earlier releases — one per distinct schema that shipped (Tests/Golden/schema-history) — upgrade to exactly the
/// schema of a new store, keeping their rows.
@Suite struct MigrationHistoryTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/schema-history").path
    static let pinsPath = folder + "/migrations.txt"

    // MARK: - Pinned migrations

    /// Each migration's effect, in order: the schema objects it added (`+`), changed (`~`) and removed (`-`), run on
    /// a new store. A shipped migration is never edited, so its block never changes. A new migration is appended with
    /// `MIGRATIONS_UPDATE_GOLDEN=1 swift test --filter MigrationHistoryTests`, which writes only the blocks of
    /// migrations not pinned yet: a changed block fails even then.
    @Test func everyShippedMigrationKeepsItsEffect() throws {
        let effects = try Self.effectsOfEveryMigration()
        let pinned = try Self.readPins()
        let names = effects.map(\.name)
        for (index, pin) in pinned.enumerated() {
            guard index < names.count, names[index] == pin.name else {
                Issue.record("""
                    migration \(pin.name) was shipped as number \(index + 1) but the migrator now has \
                    \(index < names.count ? names[index] : "nothing") there. Migrations are append-only: never rename, \
                    reorder or remove one (docs/schema.md)
                    """)
                return
            }
            #expect(effects[index].lines == pin.lines, """
                migration \(pin.name) no longer does what it did when it shipped (pinned in \
                Tests/Golden/schema-history/migrations.txt). Migrations are append-only: put the change in a new \
                migration appended at the end, and leave this one as it was (docs/schema.md)
                """)
        }
        let unpinned = effects.dropFirst(pinned.count)
        guard !unpinned.isEmpty else { return }
        if ProcessInfo.processInfo.environment["MIGRATIONS_UPDATE_GOLDEN"] == "1" {
            let text = (pinned + unpinned).map(Self.render).joined()
            try text.write(toFile: Self.pinsPath, atomically: true, encoding: .utf8)
        } else {
            Issue.record("""
                migrations not pinned yet: \(unpinned.map(\.name).joined(separator: ", ")). Pin them once with \
                MIGRATIONS_UPDATE_GOLDEN=1 swift test --filter MigrationHistoryTests, and review the diff
                """)
        }
    }

    struct Effect: Equatable {
        let name: String
        let lines: [String]
    }

    /// Runs the migrator one migration at a time on an empty database and records what each changed.
    static func effectsOfEveryMigration() throws -> [Effect] {
        let queue = try DatabaseQueue()
        let migrator = Schema.migrator
        var before: [String: String] = [:]
        var effects: [Effect] = []
        for name in migrator.migrations {
            try migrator.migrate(queue, upTo: name)
            let after = try queue.read { try schema($0) }
            effects.append(Effect(name: name, lines: difference(from: before, to: after)))
            before = after
        }
        return effects
    }

    /// `+ kind name: sql`, `~ kind name: sql`, `- kind name`, sorted by kind and name.
    static func difference(from old: [String: String], to new: [String: String]) -> [String] {
        var lines: [String] = []
        for key in Set(old.keys).union(new.keys).sorted() {
            switch (old[key], new[key]) {
            case (nil, let sql?): lines.append("+ \(key): \(sql)")
            case (let was?, let sql?) where was != sql: lines.append("~ \(key): \(sql)")
            case (_?, nil): lines.append("- \(key)")
            default: break
            }
        }
        return lines
    }

    /// The schema as `"kind name"` → its SQL with runs of white space made one space (SQLite keeps a statement's
    /// own line breaks). The statistics table of ANALYZE is left out: it is data, not schema.
    static func schema(_ db: Database) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%'") {
            let type: String = row[0], name: String = row[1], sql: String? = row[2]
            result["\(type) \(name)"] = (sql ?? "(automatic)").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        return result
    }

    static func render(_ effect: Effect) -> String {
        "## \(effect.name)\n" + effect.lines.map { $0 + "\n" }.joined() + "\n"
    }

    static func readPins() throws -> [Effect] {
        guard FileManager.default.fileExists(atPath: pinsPath) else { return [] }
        var effects: [Effect] = []
        for block in try String(contentsOfFile: pinsPath, encoding: .utf8).components(separatedBy: "## ").dropFirst() {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            effects.append(Effect(name: lines[0], lines: Array(lines.dropFirst())))
        }
        return effects
    }

    /// The schema after `migration`, from the pins: what a store that stopped there has.
    static func pinnedSchema(through migration: String) throws -> [String: String] {
        var schema: [String: String] = [:]
        for effect in try readPins() {
            for line in effect.lines {
                let body = line.dropFirst(2)
                if line.hasPrefix("- ") {
                    schema[String(body)] = nil
                } else if let colon = body.range(of: ": ") {
                    schema[String(body[..<colon.lowerBound])] = String(body[colon.upperBound...])
                }
            }
            if effect.name == migration { return schema }
        }
        throw CofferError(.notAStore, "\(migration) is not pinned")
    }

    // MARK: - Stores of earlier releases

    struct Fixture: CustomStringConvertible, Sendable {
        /// The folder under Tests/Golden/schema-history.
        let name: String
        /// The newest migration the release that made it had.
        let newest: String
        /// Whether its schema is the one the pins give for `newest` (not so for the first three versions of v4).
        let asPinned: Bool
        var description: String { name }
    }

    static let fixtures = [
        Fixture(name: "v1", newest: "v1-store", asPinned: true),
        Fixture(name: "v2", newest: "v2-delivery", asPinned: true),
        Fixture(name: "v3", newest: "v3-history-and-match-indexes", asPinned: true),
        Fixture(name: "v4-70f790b", newest: "v4-leaner-transaction-indexes", asPinned: false),
        Fixture(name: "v4-9ffbbaa", newest: "v4-leaner-transaction-indexes", asPinned: false),
        Fixture(name: "v4-7f0da9a", newest: "v4-leaner-transaction-indexes", asPinned: false),
        Fixture(name: "v4-93ff4ff", newest: "v4-leaner-transaction-indexes", asPinned: true),
        Fixture(name: "v5", newest: "v5-per-currency-accounts", asPinned: true),
        Fixture(name: "v6", newest: "v6-open-row-listings", asPinned: true),
    ]

    /// What the fixture holds, read with plain SQLite before anything migrates it.
    struct Contents {
        let applied: [String]
        let schema: [String: String]
        let transactionIDs: [UUID]
        let accountIDs: [UUID]
    }

    static func contents(_ path: String) throws -> Contents {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read { db in
            Contents(applied: try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                     schema: try schema(db),
                     transactionIDs: try UUID.fetchAll(db, sql: "SELECT id FROM txn").sorted(by: { $0.uuidString < $1.uuidString }),
                     accountIDs: try UUID.fetchAll(db, sql: "SELECT id FROM account").sorted(by: { $0.uuidString < $1.uuidString }))
        }
    }

    static func copyToTemporaryFolder(_ fixture: Fixture) throws -> String {
        let folder = NSTemporaryDirectory() + "coffer-schema-history/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/coffer.sqlite"
        try FileManager.default.copyItem(atPath: Self.folder + "/\(fixture.name)/coffer.sqlite", toPath: path)
        return path
    }

    static func freshSchema() throws -> [String: String] {
        let folder = NSTemporaryDirectory() + "coffer-schema-history/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/fresh.sqlite"
        _ = try FinanceStore(path: path).close()
        return try contents(path).schema
    }

    @Test(arguments: fixtures) func anEarlierReleasesStoreUpgradesToTodaysSchemaWithItsRows(_ fixture: Fixture) async throws {
        let path = try Self.copyToTemporaryFolder(fixture)
        let before = try Self.contents(path)
        // It is what it says: made by a release whose newest migration was `newest`, with rows in it.
        #expect(before.applied.last == fixture.newest)
        #expect(before.applied == Array(Schema.migrator.migrations.prefix(before.applied.count)))
        #expect(!before.transactionIDs.isEmpty && !before.accountIDs.isEmpty)
        let pinned = try Self.pinnedSchema(through: fixture.newest)
        let asPinned = before.schema.filter { $0.key != "table grdb_migrations" } == pinned.filter { $0.key != "table grdb_migrations" }
        #expect(asPinned == fixture.asPinned, "differences from the pins: \(Self.difference(from: pinned, to: before.schema))")

        let store = try FinanceStore(path: path)
        let transactions = try await store.transactions(query: TransactionQuery())
        let accounts = try await store.accounts(query: AccountQuery())
        #expect(store.close())
        #expect(transactions.count == before.transactionIDs.count)
        #expect(transactions.map(\.id).sorted(by: { $0.uuidString < $1.uuidString }) == before.transactionIDs)
        #expect(accounts.count == before.accountIDs.count)
        #expect(accounts.map(\.id).sorted(by: { $0.uuidString < $1.uuidString }) == before.accountIDs)

        let report = FinanceStore.doctor(path: path)
        #expect(report.ok, "\(report.failed.map { "\($0.name): \($0.detail)" })")
        let after = try Self.contents(path)
        #expect(after.applied == Schema.migrator.migrations)
        // v21 marks every account holding rows or tombstones as one whose rows may be numbered over a whole file.
        let marks = try await DatabaseQueue(path: path).read { db in
            (try UUID.fetchSet(db, sql: "SELECT account_id FROM file_wide_occurrence_account"),
             try UUID.fetchSet(db, sql: "SELECT account_id FROM txn UNION SELECT account_id FROM tombstone"))
        }
        #expect(!marks.0.isEmpty && marks.0 == marks.1)
        let fresh = try Self.freshSchema()
        // Exactly a new store's schema: what differs, as the pins write it (none).
        #expect(Self.difference(from: fresh, to: after.schema) == [])
    }

    /// Every fixture in the folder is one the test above opens.
    @Test func everyFixtureIsTested() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.folder)
            .filter { FileManager.default.fileExists(atPath: Self.folder + "/\($0)/coffer.sqlite") }
        #expect(Set(folders) == Set(Self.fixtures.map(\.name)))
    }
}
