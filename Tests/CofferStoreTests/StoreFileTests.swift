import CofferStore
import Foundation
import Testing

@Suite struct StoreFileTests {
    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "coffer-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs SQL statements on the file at `path` with Python's sqlite3 (another program than Coffer), committed.
    func sqlite(_ path: String, _ statements: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); [c.execute(s) for s in sys.argv[2:]]; c.commit()",
                             path] + statements
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    func expectError(_ code: CofferError.Code, _ path: String, access: FinanceStore.Access = .readWrite, containing text: String) {
        do {
            _ = try FinanceStore(path: path, access: access)
            Issue.record("expected \(code) for \(path)")
        } catch let error as CofferError {
            #expect(error.code == code)
            #expect(error.description.contains(text), "\(error.description)")
            #expect(!error.description.contains("\n"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func createsThePrivateFileInWALMode() throws {
        let path = try folder() + "/nested/coffer.sqlite"
        _ = try FinanceStore(path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(FinanceStore.isDataAvailable(.financialData, at: path))
        #expect(!FinanceStore.isDataAvailable(.financialData, at: path + ".missing"))
    }

    @Test func aFolderIsNotAStore() throws {
        expectError(.notAStore, try folder(), containing: "is a folder")
        expectError(.notAStore, try folder(), access: .readOnly, containing: "is a folder")
        expectError(.notAStore, try folder() + "/missing.sqlite", access: .readOnly, containing: "no Coffer store")
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndUntouched() throws {
        let path = try folder() + "/notes.sqlite"
        let bytes = Data("these are my notes, not a database\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        expectError(.notAStore, path, containing: "not a SQLite database")
        expectError(.notAStore, path, access: .readOnly, containing: "not a SQLite database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// A read-only open never writes: an empty file (from `touch`, or an import that has not written yet) and a
    /// SQLite file without tables stay as they are and are no store; opened for writing, each becomes one.
    @Test func aReadOnlyOpenDoesNotMakeAStoreOfAnEmptyFile() async throws {
        let empty = try folder() + "/empty.sqlite"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        expectError(.notAStore, empty, access: .readOnly, containing: "is empty, not a Coffer store yet")
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: empty + "-wal"))

        let bare = try folder() + "/bare.sqlite"
        try sqlite(bare, ["create table t(x)", "drop table t"])
        let before = try Data(contentsOf: URL(fileURLWithPath: bare))
        #expect(!before.isEmpty)
        expectError(.notAStore, bare, access: .readOnly, containing: "without tables, not a Coffer store yet")
        #expect(try Data(contentsOf: URL(fileURLWithPath: bare)) == before)

        for path in [empty, bare] {
            _ = try FinanceStore(path: path).close()
            #expect(try await FinanceStore(path: path, access: .readOnly).accounts(query: AccountQuery()).isEmpty)
        }
    }

    @Test func anotherProgramsDatabaseIsRefused() throws {
        let path = try folder() + "/other.sqlite"
        try sqlite(path, ["create table notes(x)"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        expectError(.notAStore, path, containing: "another program")
        // Read-only opens check on a reader connection of their own: the same answer.
        expectError(.notAStore, path, access: .readOnly, containing: "another program")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aStoreFromANewerSchemaIsRefused() throws {
        let path = try folder() + "/newer.sqlite"
        _ = try FinanceStore(path: path)
        try sqlite(path, ["insert into grdb_migrations values ('v99-future')"])
        expectError(.storeTooNew, path, containing: "newer Coffer")
        expectError(.storeTooNew, path, access: .readOnly, containing: "newer Coffer")
    }

    @Test func aReadOnlyStoreIsRefusedForWritesAndReadableForQueries() async throws {
        let path = try folder() + "/ro.sqlite"
        let store = try FinanceStore(path: path)
        try addAccount(store)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path) }
        if getuid() != 0 {  // root can write anyway
            expectError(.storeReadOnly, path, containing: "read-only")
        }
        let reader = try FinanceStore(path: path, access: .readOnly)
        #expect(try await reader.accounts(query: AccountQuery()).count == 1)
        #expect(throws: CofferError.self) { try reader.write { _ in } }
    }

    @Test func defaultPathFollowsXDGAndOverrides() {
        #expect(FinanceStore.defaultPath(environment: ["HOME": "/home/ana"]) == "/home/ana/.local/share/coffer/coffer.sqlite")
        #expect(FinanceStore.defaultPath(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/data"]) == "/data/coffer/coffer.sqlite")
        #expect(FinanceStore.defaultPath(environment: ["HOME": "/h", "COFFER_STORE": "/x/s.sqlite"]) == "/x/s.sqlite")
    }
}

@Suite struct StoreUpgradeTests {
    @Test func aReadOnlyOpenUpgradesAnOlderStoreItCanWrite() async throws {
        let (store, path) = try makeStore()
        try addAccount(store)
        // Pretend the store predates the newest migration.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3,sys
            c=sqlite3.connect(sys.argv[1]); c.execute("drop index balance_account_id")
            c.execute("drop index txn_fingerprint")
            c.execute("create unique index txn_fingerprint on txn(account_id, fingerprint, occurrence) where fingerprint is not null")
            c.execute("delete from grdb_migrations where identifier like 'v3-%' or identifier like 'v4-%'"); c.commit()
            """, path]
        try process.run()
        process.waitUntilExit()
        let reader = try FinanceStore(path: path, access: .readOnly)
        #expect(try await reader.accounts(query: AccountQuery()).count == 1)
        #expect(try await reader.info().schemaVersion.hasPrefix("v4"))
    }
}
