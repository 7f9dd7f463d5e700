@testable import CofferStore
import Foundation
import GRDB
import Testing

/// A new store is made in one step from `Schema.snapshotStatements` (Schema+NewStore.swift). The migrations stay the
/// definition: the snapshot must be exactly what they leave, and a store made from it exactly one they migrated.
///
/// After appending a migration, `COFFER_SCHEMA_SNAPSHOT_UPDATE=1 swift test --filter SchemaSnapshotTests` writes
/// the snapshot again (Sources/CofferStore/Schema/Schema+Snapshot.swift); until then new stores are migrated step
/// by step and the first test here fails.
@Suite struct SchemaSnapshotTests {
    static let snapshotPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CofferStore/Schema/Schema+Snapshot.swift").path

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "coffer-schema-snapshot/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A database file migrated one migration at a time, as before the snapshot.
    static func migratedStepByStep() throws -> String {
        let path = try folder() + "/migrated.sqlite"
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue)
        try queue.close()
        return path
    }

    @Test func theSnapshotIsWhatTheMigrationsLeave() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue)
        let statements = try queue.read { try Schema.schemaStatements($0) }
        let migrations = Schema.migrator.migrations
        #expect(!statements.isEmpty)
        if statements == Schema.snapshotStatements, migrations == Schema.snapshotMigrations { return }
        if ProcessInfo.processInfo.environment["COFFER_SCHEMA_SNAPSHOT_UPDATE"] == "1" {
            try Self.render(migrations: migrations, statements: statements)
                .write(toFile: Self.snapshotPath, atomically: true, encoding: .utf8)
            return
        }
        let old = Set(Schema.snapshotStatements), new = Set(statements)
        Issue.record("""
            the schema snapshot is not what the migrations leave (migrations \(Schema.snapshotMigrations.last ?? "none") \
            → \(migrations.last ?? "none"); \(new.subtracting(old).count) statements new or changed, \
            \(old.subtracting(new).count) gone), so new stores are migrated step by step. Write it again with \
            COFFER_SCHEMA_SNAPSHOT_UPDATE=1 swift test --filter SchemaSnapshotTests, and review the diff
            """)
    }

    /// Every schema object as `type name on table` → its SQL, exactly (SQLite's own objects included).
    static func objects(_ db: Database) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master") {
            let type: String = row[0], name: String = row[1], table: String = row[2], sql: String? = row[3]
            result["\(type) \(name) on \(table)"] = sql ?? "(automatic)"
        }
        return result
    }

    /// Every row of every table, keyed by table, in a stable order; store_meta's per-store values (id, token key,
    /// creation time) are left out.
    static func rows(_ db: Database) throws -> [String: [[DatabaseValue]]] {
        var result: [String: [[DatabaseValue]]] = [:]
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
            let filter = table == "store_meta" ? " WHERE key NOT IN ('store_id', 'token_key', 'created_at')" : ""
            result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"\(filter)")
                .map { Array($0.databaseValues) }
                .sorted { "\($0)" < "\($1)" }
        }
        return result
    }

    struct Made {
        var objects: [String: String]
        var rows: [String: [[DatabaseValue]]]
        var applied: [String]
        /// Schema statements in the order SQLite stores them: the snapshot's order only when it made the store.
        var creationOrder: [String]
        var identity: [String: DatabaseValue]
    }

    static func made(_ path: String) throws -> Made {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read { db in
            Made(objects: try objects(db), rows: try rows(db),
                 applied: try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                 creationOrder: try String.fetchAll(db, sql: """
                    SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid
                    """),
                 identity: Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                    SELECT key, value FROM store_meta WHERE key IN ('store_id', 'token_key', 'created_at')
                    """).map { ($0[0] as String, $0[1] as DatabaseValue) }))
        }
    }

    @Test func aNewStoreIsExactlyAStoreTheMigrationsMade() async throws {
        let folder = try Self.folder()
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let first = folder + "/new.sqlite", second = folder + "/other.sqlite"
        #expect(try FinanceStore(path: first).close())
        #expect(try FinanceStore(path: second).close())
        let made = try Self.made(first), other = try Self.made(second)
        let migrated = try Self.made(Self.migratedStepByStep())

        // Made from the snapshot, in its order (a migrated store lists its objects in the order the migrations made
        // them, which is not the snapshot's).
        #expect(made.creationOrder == Schema.snapshotStatements)
        #expect(migrated.creationOrder != Schema.snapshotStatements)
        // The same schema, byte for byte, the same rows, the same migrations on record.
        #expect(made.objects == migrated.objects, """
            differs: \(Set(made.objects.map { "\($0.key): \($0.value)" }).symmetricDifference(migrated.objects.map { "\($0.key): \($0.value)" }).sorted())
            """)
        #expect(made.rows == migrated.rows)
        #expect(made.applied == Schema.migrator.migrations && migrated.applied == made.applied)
        #expect(made.rows["store_meta"]?.isEmpty == false)
        // Its own identity, as v1-store makes one: a 16-byte id, a 32-byte token key, the creation time.
        #expect(Set(made.identity.keys) == ["store_id", "token_key", "created_at"])
        #expect(Set(migrated.identity.keys) == Set(made.identity.keys))
        if case .blob(let id) = made.identity["store_id"]?.storage { #expect(id.count == 16) } else { Issue.record("store_id is not a blob") }
        if case .blob(let key) = made.identity["token_key"]?.storage { #expect(key.count == 32) } else { Issue.record("token_key is not a blob") }
        let createdAt = Int64.fromDatabaseValue(made.identity["created_at"] ?? .null) ?? 0
        #expect(createdAt >= before && createdAt <= Int64(Date().timeIntervalSince1970 * 1000))
        #expect(made.identity["store_id"] != other.identity["store_id"])
        #expect(made.identity["token_key"] != other.identity["token_key"])

        // A store, for every check Coffer has.
        let report = FinanceStore.doctor(path: first)
        #expect(report.ok, "\(report.failed.map { "\($0.name): \($0.detail)" })")
    }

    /// The snapshot is used only for an empty database and only when it is that of the migrator's list.
    @Test func anyOtherDatabaseIsLeftToTheMigrator() throws {
        let queue = try DatabaseQueue()
        let migrations = Schema.migrator.migrations
        try queue.write { db in
            #expect(!(try Schema.createFromSnapshot(db, migrations: migrations + ["v99-not-in-the-snapshot"])))
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0)
            try db.execute(sql: "CREATE TABLE someone_elses (x)")
            #expect(!(try Schema.createFromSnapshot(db, migrations: migrations)))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") == ["someone_elses"])
        }
        let empty = try DatabaseQueue()
        let made = try empty.write { db in try Schema.createFromSnapshot(db, migrations: migrations) }
        #expect(made)
    }

    // MARK: - Writing the snapshot

    static func render(migrations: [String], statements: [String]) -> String {
        var out = """
            // Generated by `COFFER_SCHEMA_SNAPSHOT_UPDATE=1 swift test --filter SchemaSnapshotTests` from the migrations; do not
            // edit. See Schema+NewStore.swift.

            extension Schema {
                /// The migrations the snapshot is the result of, in order.
                static let snapshotMigrations: [String] = [

            """
        for name in migrations { out += "        \(literal(name)),\n" }
        out += """
                ]

                /// The schema they leave in a new store, as `Schema.schemaStatements` lists it.
                static let snapshotStatements: [String] = [

            """
        for sql in statements { out += literal(sql, indent: "        ") + ",\n" }
        out += "    ]\n}\n"
        return out
    }

    /// A Swift literal of `text`: a raw multi-line string when that keeps every character as it is, else an
    /// escaped one-line string.
    static func literal(_ text: String, indent: String = "") -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let multiLine = lines.count > 1 && !text.contains("\"\"\"") && !text.contains("\"#") && !text.contains("\r")
            && lines.allSatisfy { !$0.isEmpty && $0.last != " " && $0.last != "\t" }
        if multiLine {
            return indent + "##\"\"\"\n" + lines.map { indent + $0 + "\n" }.joined() + indent + "\"\"\"##"
        }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return indent + "\"" + escaped + "\""
    }
}
