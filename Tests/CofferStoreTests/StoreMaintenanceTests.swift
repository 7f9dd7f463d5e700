@testable import CofferStore
import Foundation
import GRDB
import Testing

/// "The file is the store" (close and checkpoint), `backup(to:)` and its token epoch, and `doctor(path:)` with a
/// deliberately damaged store per check.
@Suite struct StoreMaintenanceTests {
    /// The code of the `CofferError` `body` throws, nil when it throws none.
    static func code(_ body: () throws -> Void) -> CofferError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CofferError)?.code
        }
    }

    static func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static func size(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// A copy of just the `.sqlite` file in a folder of its own, as a person copying "the store" would make.
    static func copyFileAlone(_ path: String) throws -> String {
        let folder = NSTemporaryDirectory() + "coffer-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: folder + "/copy.sqlite")
        return folder + "/copy.sqlite"
    }

    /// A store holding what an import leaves: an account, a balance, transactions, a deletion (tombstone), all
    /// under an import-ledger entry; closed.
    static func filledStore() throws -> String {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        let other = try addAccount(store, number: "55554444", name: "Savings")
        try store.write { w in
            try w.beginImport(sha256: "aa", path: "statement.ofx", format: "ofx", profile: nil)
            let ts = (1...5).map { makeTransaction(account.id, "\($0).50", on: "2026-01-0\($0)") }
            for t in ts { try w.insert(t, keys: DedupeKeys(externalID: "FIT\(t.transactionDate)")) }
            try w.insert(makeTransaction(other.id, "9", on: "2026-01-09", "Cash"),
                         keys: DedupeKeys(fingerprint: "v2|2026-01-09|cash", occurrence: 1))
            let balance = AccountBalance(id: .timeOrdered(), accountID: account.id, currentBalance: .booked(
                Balance(amount: money("100"), asOfDate: day("2026-01-05"), creditDebitIndicator: .credit)))
            try w.insertBalance(balance, dedupeKey: "b1")
            try w.finishImport(unchanged: 0)
        }
        try store.write { w in
            try w.beginImport(sha256: "bb", path: "later.ofx", format: "ofx", profile: nil)
            let first = try #require(try w.transaction(accountID: account.id, externalID: "FIT\(day("2026-01-01"))"))
            try w.delete(first)
            var second = try #require(try w.transaction(accountID: account.id, externalID: "FIT\(day("2026-01-02"))"))
            second.transaction.transactionDescription = "Coffee, corrected"
            try w.update(second.transaction, keys: second.keys)
            // Another source's identity of the savings account (a CSV export's masked number, say).
            try w.addAccountAlias(w.accountIdentity(institution: "institution:bank", number: "4444").key, accountID: other.id)
            try w.finishImport(unchanged: 3)
        }
        #expect(store.close())
        return path
    }

    // MARK: Close

    @Test func closeCheckpointsSoTheFileAloneIsTheStore() async throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...50).map { makeTransaction(account.id, "\($0)", on: "2026-02-0\($0 % 9 + 1)") })
        #expect(Self.size(path + "-wal") > 0, "the commits are in the log before closing")

        #expect(store.close())
        #expect(!Self.fileExists(path + "-wal") || Self.size(path + "-wal") == 0)
        // Closed: reads and writes throw; a second close does nothing.
        await #expect(throws: (any Error).self) { _ = try await store.transactions(query: TransactionQuery()) }
        #expect(throws: (any Error).self) { try insert(store, [makeTransaction(account.id, "1", on: "2026-03-01")]) }
        #expect(store.close())

        let copy = try FinanceStore(path: Self.copyFileAlone(path), access: .readOnly)
        #expect(try await copy.transactions(query: TransactionQuery()).count == 50)
        #expect(try await copy.accounts(query: AccountQuery()).map(\.id) == [account.id])
        copy.close()
    }

    @Test func closeWhileAnotherConnectionReadsStillCheckpointsWhole() async throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        let reader = try FinanceStore(path: path, access: .readOnly)
        #expect(try await reader.transactions(query: TransactionQuery()).isEmpty)
        try insert(store, (1...20).map { makeTransaction(account.id, "\($0)", on: "2026-02-01") })
        // The reader keeps its connections open (idle): the checkpoint completes; the log stays, empty.
        #expect(store.close())
        #expect(Self.size(path + "-wal") == 0)
        let copy = try FinanceStore(path: Self.copyFileAlone(path), access: .readOnly)
        #expect(try await copy.transactions(query: TransactionQuery()).count == 20)
        #expect(try await reader.transactions(query: TransactionQuery()).count == 20)
        reader.close()
        copy.close()
    }

    /// A write that leaves more than 4 MB of log (an import) empties it at once, while the store stays open: the
    /// `.sqlite` file alone holds it (before, the log was copied at the commit and again at `close`). A reader in
    /// another connection that holds an older snapshot keeps the log; the write does not wait for it, and `close`
    /// empties the log once the reader is done.
    @Test func aLargeWriteEmptiesTheLogWithoutWaitingForReaders() async throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        let rows = { (month: Int) in (1...15_000).map { makeTransaction(account.id, "\($0)", on: "2026-0\(month)-0\($0 % 9 + 1)") } }
        try insert(store, rows(2))
        #expect(Self.size(path + "-wal") == 0, "the log is emptied after a large write")
        let copy = try FinanceStore(path: Self.copyFileAlone(path), access: .readOnly)
        #expect(try await copy.transactions(query: TransactionQuery()).count == 15_000)
        copy.close()

        // A reader holding a snapshot from before the next write.
        let (reading, readingSignal) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let reader = Thread {
            try? DatabaseQueue(path: path).read { db in
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn")
                readingSignal.finish()
                release.wait()
            }
        }
        reader.start()
        for await _ in reading {}
        let clock = ContinuousClock()
        let begun = clock.now
        try insert(store, rows(3))
        // The busy timeout is 30 s: a write waiting for the reader would take that long.
        #expect(clock.now - begun < .seconds(20))
        #expect(Self.size(path + "-wal") > 4 << 20, "the reader's snapshot keeps the log")
        release.signal()
        #expect(store.close())
        #expect(!Self.fileExists(path + "-wal") || Self.size(path + "-wal") == 0)
    }

    @Test func aCheckpointDoesNotWaitForAnotherWriter() async throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        // A writer that holds the write lock until the test lets it commit.
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (committed, committedSignal) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? store.write { w in
                try w.insert(makeTransaction(account.id, "1", on: "2026-02-01"), keys: DedupeKeys(externalID: "x"))
                startedSignal.finish()
                release.wait()
            }
            committedSignal.finish()
        }
        writer.start()
        for await _ in started {}
        let clock = ContinuousClock()
        let begun = clock.now
        // Another connection holds the write lock: copy what is committed, report it incomplete, do not wait.
        #expect(!FinanceStore.checkpoint(path: path, waitingAtMost: .seconds(10)))
        #expect(clock.now - begun < .seconds(1))
        release.signal()
        for await _ in committed {}
        #expect(store.close())
        let copy = try FinanceStore(path: Self.copyFileAlone(path), access: .readOnly)
        #expect(try await copy.transactions(query: TransactionQuery()).count == 1)
        copy.close()
    }

    // MARK: Backup

    @Test func backupIsOneConsistentPrivateFileWithANewTokenEpoch() async throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...30).map { makeTransaction(account.id, "\($0)", on: "2026-02-01") })
        let token = try #require(try await collect(store.allTransactionHistory(isMonitoring: false)).last?.newToken)

        let destination = try StoreFileTests().folder() + "/backup.sqlite"
        let result = try store.backup(to: destination)
        #expect(result.transactions == 30 && result.accounts == 1)
        #expect(result.sourceStoreID == store.storeID && result.storeID != store.storeID)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(!Self.fileExists(destination + "-wal"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (destination as NSString).deletingLastPathComponent)
        #expect(leftovers == ["backup.sqlite"])

        let copy = try FinanceStore(path: destination)
        #expect(copy.storeID == result.storeID)
        #expect(try await copy.transactions(query: TransactionQuery()).count == 30)
        // The original's tokens are refused by the copy; the copy's own history starts from nil and loses nothing.
        await #expect(throws: FinanceError.historyTokenInvalid) {
            _ = try await collect(copy.allTransactionHistory(since: token, isMonitoring: false))
        }
        #expect(try await collect(copy.allTransactionHistory(isMonitoring: false)).flatMap(\.inserted).count == 30)
        // The original still takes its own token.
        #expect(try await collect(store.allTransactionHistory(since: token, isMonitoring: false)).isEmpty)
        // Account ids derive from the same key: the same account number lands on the same account in the copy.
        let inOriginal = try store.write { $0.accountIdentity(institution: "Test Bank", number: "12345678") }
        let inCopy = try copy.write { $0.accountIdentity(institution: "Test Bank", number: "12345678") }
        #expect(inOriginal.id == inCopy.id && inCopy.id == account.id)
        #expect(FinanceStore.doctor(path: destination).ok)
        copy.close()

        // An existing destination is refused unless replacing; the store itself always.
        #expect(throws: CofferError.self) { try store.backup(to: destination) }
        let again = try store.backup(to: destination, replacing: true)
        #expect(again.storeID != result.storeID)
        #expect(Self.code { try store.backup(to: path, replacing: true) } == .usage)
        #expect(Self.code { try store.backup(to: "/nonexistent-folder/b.sqlite") } == .io)
        #expect(Self.code { try store.backup(to: NSTemporaryDirectory()) } == .usage)
        store.close()
    }

    @Test func aBackupOfAReadOnlyOpenedStoreWorksToo() async throws {
        let path = try Self.filledStore()
        let store = try FinanceStore(path: path, access: .readOnly)
        let destination = try StoreFileTests().folder() + "/b.sqlite"
        let result = try store.backup(to: destination)
        #expect(result.transactions == 5 && result.balances == 1 && result.accounts == 2)
        store.close()
    }

    // MARK: Doctor

    @Test func aHealthyStorePassesEveryCheck() throws {
        let path = try Self.filledStore()
        let report = FinanceStore.doctor(path: path)
        #expect(report.ok, "\(report.failed)")
        #expect(report.checks.map(\.name) == ["integrity", "foreign-keys", "change-log-sequence", "import-ledger",
                                              "transaction-accounts", "balance-accounts", "account-aliases", "tombstones",
                                              "store-identity"])
        let ledger = try #require(report.checks.first { $0.name == "import-ledger" })
        #expect(ledger.detail.contains("2 import(s) agree"), "\(ledger.detail)")
        let aliases = try #require(report.checks.first { $0.name == "account-aliases" })
        #expect(aliases.detail == "all 1 alias(es) lead to a stored account", "\(aliases.detail)")
        let tombstones = try #require(report.checks.first { $0.name == "tombstones" })
        #expect(tombstones.detail.hasPrefix("1 tombstone"), "\(tombstones.detail)")
    }

    @Test func aCompactedStoreStillPassesAndSaysWhatItCouldNotCheck() async throws {
        let path = try Self.filledStore()
        let store = try FinanceStore(path: path)
        try store.compact(before: Date().addingTimeInterval(60))
        let account = try #require(try await store.accounts(query: AccountQuery()).first)
        try store.write { w in
            try w.beginImport(sha256: "cc", path: "third.ofx", format: "ofx", profile: nil)
            try w.insert(makeTransaction(account.id, "7", on: "2026-03-01"), keys: DedupeKeys(externalID: "new"))
            try w.finishImport(unchanged: 0)
        }
        store.close()
        let report = FinanceStore.doctor(path: path)
        #expect(report.ok, "\(report.failed)")
        let ledger = try #require(report.checks.first { $0.name == "import-ledger" })
        #expect(ledger.detail.contains("1 import(s) agree") && ledger.detail.contains("2 older than the compaction horizon"), "\(ledger.detail)")
    }

    /// A damage done with raw SQL (foreign keys off, as any SQLite tool has them), and the checks it must fail.
    struct Damage: Sendable, CustomTestStringConvertible {
        let name: String
        let sql: String
        /// The check built for this damage, then any other that must also see it.
        let fails: [String]
        var testDescription: String { name }
    }

    static let damages: [Damage] = [
        Damage(name: "an index out of step with its table", sql: """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = 'CREATE INDEX txn_date ON txn(posted_date)' WHERE name = 'txn_date';
            PRAGMA writable_schema = OFF;
            """, fails: ["integrity"]),
        Damage(name: "a legacy-currency row of no account",
               sql: "INSERT INTO account_legacy_currency(account_id, currency_code) VALUES (randomblob(16), 'EUR')",
               fails: ["foreign-keys"]),
        Damage(name: "the sequence counter set back",
               sql: "UPDATE sqlite_sequence SET seq = 2 WHERE name = 'change_log'", fails: ["change-log-sequence"]),
        Damage(name: "the history horizon moved over live entries",
               sql: "UPDATE store_meta SET value = (SELECT MAX(seq) - 1 FROM change_log) WHERE key = 'horizon_seq'",
               fails: ["change-log-sequence"]),
        Damage(name: "a ledger count changed",
               sql: "UPDATE import_ledger SET inserted = inserted + 1 WHERE id = 1", fails: ["import-ledger"]),
        Damage(name: "a change-log row lost",
               sql: "DELETE FROM change_log WHERE seq = (SELECT MAX(seq) FROM change_log WHERE entity = 2 AND op = 1)",
               fails: ["import-ledger"]),
        Damage(name: "a transaction moved to no account",
               sql: "UPDATE txn SET account_id = randomblob(16) WHERE rowid = (SELECT MIN(rowid) FROM txn)",
               fails: ["transaction-accounts", "foreign-keys"]),
        Damage(name: "a balance moved to no account",
               sql: "UPDATE balance SET account_id = randomblob(16)", fails: ["balance-accounts", "foreign-keys"]),
        Damage(name: "an alias of no account",
               sql: "INSERT INTO account_alias(identity_key, account_id, created_at, ledger_id) VALUES ('k1', randomblob(16), 0, 1)",
               fails: ["account-aliases", "foreign-keys"]),
        Damage(name: "an alias that is another account's own identity", sql: """
            INSERT INTO account_alias(identity_key, account_id)
            SELECT a.identity_key, b.id FROM account a JOIN account b ON a.id != b.id LIMIT 1
            """, fails: ["account-aliases"]),
        Damage(name: "a tombstone on a live transaction's institution id", sql: """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq)
            SELECT id, account_id, external_id, NULL, NULL, created_seq FROM txn WHERE external_id IS NOT NULL LIMIT 1
            """, fails: ["tombstones"]),
        Damage(name: "a tombstone on a live transaction's fingerprint", sql: """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq)
            SELECT randomblob(16), account_id, NULL, fingerprint, occurrence, created_seq FROM txn WHERE fingerprint IS NOT NULL LIMIT 1
            """, fails: ["tombstones"]),
        Damage(name: "the token key deleted", sql: "DELETE FROM store_meta WHERE key = 'token_key'", fails: ["store-identity"]),
        Damage(name: "the store id mangled", sql: "UPDATE store_meta SET value = 'not a uuid' WHERE key = 'store_id'",
               fails: ["store-identity"]),
    ]

    @Test(arguments: damages) func eachCheckCatchesItsDamage(_ damage: Damage) throws {
        let path = try Self.filledStore()
        var config = Configuration()
        config.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in try db.execute(sql: damage.sql) }
        try queue.close()

        let report = FinanceStore.doctor(path: path)
        #expect(!report.ok)
        #expect(Set(report.failed.map(\.name)) == Set(damage.fails), "\(report.failed.map { "\($0.name): \($0.detail)" })")
        let check = try #require(report.checks.first { $0.name == damage.fails[0] })
        #expect(!check.problems.isEmpty && !check.detail.isEmpty && !check.detail.contains("\n"))
    }

    @Test func aFileThatIsNoStoreFailsToOpenPlainly() throws {
        let folder = try StoreFileTests().folder()
        try Data("just notes\n".utf8).write(to: URL(fileURLWithPath: folder + "/notes.sqlite"))
        for (path, text) in [(folder + "/notes.sqlite", "not a SQLite database"), (folder + "/missing.sqlite", "no Coffer store"),
                             (folder, "is a folder")] {
            let report = FinanceStore.doctor(path: path)
            #expect(!report.ok && report.checks.map(\.name) == ["open"])
            #expect(report.checks[0].detail.contains(text), "\(report.checks[0].detail)")
        }
    }
}
