import Foundation
import Testing

/// The store as a file on the real binary: every command leaves the `.sqlite` file alone holding the whole store,
/// `coffer backup` copies it consistently while another process imports or monitors, `coffer doctor` finds each
/// kind of damage, `coffer imports` lists the ledger.
@Suite struct StoreMaintenanceCLITests {
    static let fm = FileManager.default

    static func size(_ path: String) -> Int64 {
        ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// No `-wal` or `-shm` beside the store: nothing but the file.
    static func aloneOnDisk(_ store: String) -> Bool {
        !fm.fileExists(atPath: store + "-wal") && !fm.fileExists(atPath: store + "-shm")
    }

    /// Copies only the `.sqlite` file into a folder of its own.
    static func copyFileAlone(_ store: String) throws -> String {
        let copy = try temporaryFolder() + "/copy.sqlite"
        try fm.copyItem(atPath: store, toPath: copy)
        return copy
    }

    /// The store's transaction count, as `coffer info` reports it.
    static func transactions(_ store: String) throws -> Int {
        let run = try coffer(["info", "--store", store, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try jsonObject(run.stdout)["transactions"] as? Int)
    }

    /// The token of the last batch of `coffer history` on the store.
    static func lastToken(_ store: String) throws -> String {
        let run = try coffer(["history", "--store", store])
        #expect(run.status == 0, "\(run.stderr)")
        let last = try #require(run.stdout.split(separator: "\n").last)
        return try #require(try jsonObject(String(last))["token"] as? String)
    }

    /// A `coffer` process left running (a monitor, a long import), its stdout read line by line.
    final class Background: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var lines: [String] = []

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: cofferBinary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
            var env = ProcessInfo.processInfo.environment
            env["COFFER_STORE"] = nil
            process.environment = env
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let handle = out.fileHandleForReading
            Thread.detachNewThread { [self] in
                var buffer = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return }
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: 10) {
                        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                        buffer.removeSubrange(buffer.startIndex...newline)
                        lock.withLock { lines.append(line) }
                    }
                }
            }
        }

        var lineCount: Int { lock.withLock { lines.count } }

        /// Waits until `condition` holds (true) or `seconds` pass (false), without holding a thread of the
        /// test runner's small pool (other suites' timings depend on it).
        static func wait(seconds: Double, until condition: () -> Bool) async -> Bool {
            // Polls with a blocking sleep on the thread it holds: `Task.sleep` resumes only when the cooperative
            // pool has a free thread, and beside the suite's CPU-heavy tests that took longer than a whole import,
            // so the moment "the import is running" was missed.
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                usleep(50_000)  // sleep justified: polls another process's state, with a deadline
            }
            return condition()
        }

        /// Waits for the process to end by itself.
        func finish() async {
            _ = await Self.wait(seconds: 600) { !process.isRunning }
            process.waitUntilExit()
        }

        /// SIGTERM, then waits for it to end.
        func stop() async {
            if process.isRunning { process.terminate() }
            await finish()
        }

        /// SIGTERM without waiting (for `defer`).
        func kill() {
            if process.isRunning { process.terminate() }
        }
    }

    /// Runs a helper program (python3) to its end.
    static func run(_ arguments: [String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        _ = await Background.wait(seconds: 120) { !process.isRunning }
        process.waitUntilExit()
        return process.terminationStatus
    }

    // MARK: The file is the store

    @Test func afterEveryCommandTheSqliteFileAloneIsTheStore() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        let imported = try coffer(["import", "--store", store, "feeds/ofx"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(Self.aloneOnDisk(store))
        let count = try Self.transactions(store)
        #expect(count > 0)
        #expect(try Self.transactions(Self.copyFileAlone(store)) == count)

        // A command that fails (one file of two) closes the store the same way; its good file is in the copy.
        let junk = folder + "/junk.csv"
        try Data("no,statement\nhere,at all\n".utf8).write(to: URL(fileURLWithPath: junk))
        let failing = try coffer(["import", "--store", store, junk, "feeds/camt/nl-053-v08.xml"])
        #expect(failing.status == 1 && failing.stderr.contains("junk.csv"), "\(failing.stderr)")
        #expect(Self.aloneOnDisk(store))
        let more = try Self.transactions(store)
        #expect(more > count)
        #expect(try Self.transactions(Self.copyFileAlone(store)) == more)

        // A command that ends in an error, and read-only commands: nothing left beside the file either.
        let badToken = try coffer(["history", "--store", store, "--since", "garbage"])
        #expect(badToken.status == 1)
        #expect(Self.aloneOnDisk(store))
        for arguments in [["transactions", "--limit", "3"], ["accounts"], ["history"], ["imports"], ["doctor"], ["info"]] {
            let run = try coffer(arguments + ["--store", store])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(Self.aloneOnDisk(store), "\(arguments) left a -wal or -shm file")
        }
    }

    @Test func anImportWhileAMonitorRunsStillCheckpointsAndDoesNotWait() async throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx"]).status == 0)
        let monitor = try Background(["history", "--store", store, "--follow"])
        defer { monitor.kill() }
        #expect(await Background.wait(seconds: 20) { monitor.lineCount >= 1 })

        let started = Date()
        let imported = try coffer(["import", "--store", store, "feeds/ofx/creditcard-ofx2.qfx", "feeds/ofx/foreign.ofx"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(Date().timeIntervalSince(started) < 15)
        // The monitor holds the store open but reads only for milliseconds at a time: the checkpoint completed.
        let count = try Self.transactions(store)
        #expect(try Self.transactions(Self.copyFileAlone(store)) == count)
        #expect(Self.size(store + "-wal") == 0)
        #expect(await Background.wait(seconds: 20) { monitor.lineCount >= 2 }, "the monitor saw the import")
        #expect(monitor.process.isRunning)

        // Ctrl-C (or SIGTERM) ends the monitor; the file still holds everything.
        await monitor.stop()
        #expect(monitor.process.terminationReason == .uncaughtSignal)
        #expect(try Self.transactions(Self.copyFileAlone(store)) == count)
    }

    // MARK: Backup

    @Test func aBackupTakenDuringAnImportHoldsTheStoreBeforeOrAfterItAndRefusesTheOriginalsTokens() async throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        // Big enough that SQLite's page cache spills into the log while the import runs (a smaller import can
        // keep every page in memory until it commits, and be over before the log grows).
        let big = folder + "/big.ofx"
        #expect(try await Self.run(["python3", packageRoot + "/scripts/gen-ofx.py", "--count", "250000", "--out", big]) == 0)

        #expect(try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx", "feeds/ofx/foreign.ofx"]).status == 0)
        let before = try Self.transactions(store)
        let token = try Self.lastToken(store)

        let importer = try Background(["import", "--store", store, big])
        defer { importer.kill() }
        // Inside the import's transaction: its pages are going into the log.
        #expect(await Background.wait(seconds: 60) { Self.size(store + "-wal") > 1_000_000 || !importer.process.isRunning })
        #expect(importer.process.isRunning, "the import is still running when the backup starts")

        let destination = folder + "/backup.sqlite"
        let backup = try coffer(["backup", "--store", store, destination, "--json"])
        #expect(backup.status == 0, "\(backup.stderr)")
        let result = try jsonObject(backup.stdout)

        await importer.finish()
        #expect(importer.process.terminationStatus == 0)
        let after = try Self.transactions(store)
        #expect(after == before + 250_000)
        let copied = try Self.transactions(destination)
        #expect(copied == before || copied == after, "the backup holds \(copied): neither \(before) nor \(after)")
        #expect(result["transactions"] as? Int == copied)

        // One private file, a store of its own.
        #expect((try Self.fm.attributesOfItem(atPath: destination)[.posixPermissions] as? Int) == 0o600)
        #expect(Self.aloneOnDisk(destination))
        let original = try jsonObject(try coffer(["info", "--store", store, "--format", "json"]).stdout)
        let copy = try jsonObject(try coffer(["info", "--store", destination, "--format", "json"]).stdout)
        #expect(copy["storeID"] as? String == result["storeID"] as? String)
        #expect(copy["storeID"] as? String != original["storeID"] as? String)
        #expect(try coffer(["doctor", "--store", destination]).status == 0)

        // The original's token: still good on the original, refused by the copy, which starts again from nil.
        #expect(try coffer(["history", "--store", store, "--since", token]).status == 0)
        let refused = try coffer(["history", "--store", destination, "--since", token])
        #expect(refused.status == 1 && refused.stderr.contains("not valid"), "\(refused.stderr)")
        let fromNil = try coffer(["history", "--store", destination])
        #expect(fromNil.status == 0)
        let inserted = fromNil.stdout.split(separator: "\n").compactMap { (try? jsonObject(String($0)))?["inserted"] as? [Any] }
        #expect(inserted.map(\.count).reduce(0, +) == copied)

        // An existing destination is kept unless --force.
        let again = try coffer(["backup", "--store", store, destination])
        #expect(again.status == 64 && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try Self.transactions(destination) == copied)
        let forced = try coffer(["backup", "--store", store, destination, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Self.transactions(destination) == after)
        let itself = try coffer(["backup", "--store", store, store, "--force"])
        #expect(itself.status == 64 && itself.stderr.contains("the store itself"), "\(itself.stderr)")
    }

    @Test func aBackupWhileAMonitorRuns() async throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, "feeds/ofx", "feeds/camt"]).status == 0)
        let monitor = try Background(["history", "--store", store, "--follow"])
        defer { monitor.kill() }
        #expect(await Background.wait(seconds: 20) { monitor.lineCount >= 1 })

        let started = Date()
        let destination = folder + "/b.sqlite"
        let backup = try coffer(["backup", "--store", store, destination])
        #expect(backup.status == 0 && backup.stdout.isEmpty, "\(backup.stderr)")
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(monitor.process.isRunning)
        #expect(try Self.transactions(destination) == Self.transactions(store))
        #expect(Self.aloneOnDisk(destination))

        // The monitor carries on: a later import reaches it; the backup stays as it was.
        let lines = monitor.lineCount
        #expect(try coffer(["import", "--store", store, "feeds/csv/activity.csv"]).status == 0)
        #expect(await Background.wait(seconds: 20) { monitor.lineCount > lines })
        #expect(try Self.transactions(destination) < Self.transactions(store))
    }

    // MARK: Doctor

    @Test func doctorPassesAHealthyStoreLinePerCheck() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, "feeds"]).status == 0)
        let run = try coffer(["doctor", "--store", store])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines.prefix(9).allSatisfy { $0.hasPrefix("ok      ") }, "\(run.stdout)")
        #expect(lines.last?.hasSuffix("all 9 checks passed") == true)

        let json = try jsonObject(try coffer(["doctor", "--store", store, "--json"]).stdout)
        #expect(json["ok"] as? Bool == true)
        let checks = try #require(json["checks"] as? [[String: Any]])
        #expect(checks.compactMap { $0["name"] as? String } == ["integrity", "foreign-keys", "change-log-sequence", "import-ledger",
                                                                "transaction-accounts", "balance-accounts", "account-aliases", "tombstones",
                                                                "store-identity"])

        let missing = try coffer(["doctor", "--store", folder + "/none.sqlite"])
        #expect(missing.status == 1 && missing.stdout.contains("FAILED") && missing.stdout.contains("no Coffer store"))
    }

    /// Damage done with Python's sqlite3 module (a tool other than Coffer), and the check that must catch it.
    static let damages: [(check: String, sql: String)] = [
        ("integrity", """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = 'CREATE INDEX txn_date ON txn(posted_date)' WHERE name = 'txn_date';
            PRAGMA writable_schema = OFF;
            """),
        ("foreign-keys", "INSERT INTO account_legacy_currency(account_id, currency_code) VALUES (randomblob(16), 'XXX');"),
        ("change-log-sequence", "UPDATE sqlite_sequence SET seq = 3 WHERE name = 'change_log';"),
        ("import-ledger", "UPDATE import_ledger SET deleted = deleted + 2 WHERE id = 2;"),
        ("transaction-accounts", "UPDATE txn SET account_id = randomblob(16) WHERE rowid = 7;"),
        ("balance-accounts", "UPDATE balance SET account_id = randomblob(16) WHERE rowid = 2;"),
        ("account-aliases", "INSERT INTO account_alias(identity_key, account_id, created_at) VALUES ('k', randomblob(16), 0);"),
        ("tombstones", """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq)
            SELECT id, account_id, external_id, NULL, NULL, created_seq FROM txn WHERE external_id IS NOT NULL LIMIT 1;
            """),
        ("store-identity", "DELETE FROM store_meta WHERE key = 'token_key';"),
    ]

    @Test(arguments: damages.map(\.check)) func doctorCatchesEachDamage(_ check: String) async throws {
        let sql = try #require(Self.damages.first { $0.check == check }?.sql)
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, "feeds/ofx", "feeds/camt"]).status == 0)
        let damaged = try await Self.run(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.close()",
                                          store, sql])
        #expect(damaged == 0)

        let run = try coffer(["doctor", "--store", store])
        #expect(run.status == 1)
        let failed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("FAILED  ") }
        #expect(!failed.isEmpty && run.stdout.contains("checks FAILED"), "\(run.stdout)")
        let json = try jsonObject(try coffer(["doctor", "--store", store, "--json"]).stdout)
        let checks = try #require(json["checks"] as? [[String: Any]])
        let names = checks.filter { $0["ok"] as? Bool == false }.compactMap { $0["name"] as? String }
        #expect(names.first == check || names.contains(check), "\(names)")
        // Only references to missing accounts also break the foreign keys.
        let expected: Set<String> = check.hasSuffix("-accounts") || check == "account-aliases" ? [check, "foreign-keys"] : [check]
        #expect(Set(names) == expected, "\(run.stdout)")
        #expect(failed.count == expected.count)
    }

    // MARK: Imports

    @Test func importsListsTheLedger() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx"]).status == 0)
        #expect(try coffer(["import", "--store", store, "feeds/csv/Chase1234_Activity_20260315.CSV"]).status == 0)
        #expect(try coffer(["import", "--store", store, "--force", "feeds/ofx/bank-ofx1-sgml.ofx"]).status == 0)

        let table = try coffer(["imports", "--store", store])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.first?.hasPrefix("ID") == true && lines[0].contains("UNCHANGED") && lines[0].contains("FILE"))
        // Newest first: the forced re-import changed nothing.
        #expect(lines[1].hasPrefix("3 ") && lines[1].hasSuffix("feeds/ofx/bank-ofx1-sgml.ofx"), "\(table.stdout)")
        #expect(lines[2].contains("csv/chase-checking"), "\(table.stdout)")

        let json = try jsonArray(try coffer(["imports", "--store", store, "--format", "json"]).stdout)
        #expect(json.compactMap { $0["id"] as? Int } == [3, 2, 1])
        let first = try #require(json.last)
        #expect(first["path"] as? String == "feeds/ofx/bank-ofx1-sgml.ofx" && first["format"] as? String == "ofx")
        #expect(first["inserted"] as? Int == 4 && first["updated"] as? Int == 0 && first["deleted"] as? Int == 0)
        #expect((first["sha256"] as? String)?.count == 64 && first["importedAt"] is String)
        #expect(json[0]["inserted"] as? Int == 0 && json[0]["unchanged"] as? Int == 4)
        #expect(json[1]["profile"] as? String == "chase-checking")

        let newest = try jsonArray(try coffer(["imports", "list", "--store", store, "--limit", "1", "--format", "json"]).stdout)
        #expect(newest.compactMap { $0["id"] as? Int } == [3])
        let none = try coffer(["imports", "--store", folder + "/none.sqlite"])
        #expect(none.status == 1 && none.stderr.contains("no Coffer store"))
    }
}
