import CofferModel
import Foundation
import GRDB

/// One check of `FinanceStore.doctor(path:)`.
public struct DoctorCheck: Sendable, Codable, Equatable {
    /// A stable name: `integrity`, `foreign-keys`, `change-log-sequence`, `import-ledger`, `transaction-accounts`,
    /// `balance-accounts`, `account-aliases`, `tombstones`, `store-identity` (or `open` when the store could not be
    /// opened).
    public let name: String
    /// What is checked, in words.
    public let title: String
    /// Whether the check passed.
    public let ok: Bool
    /// One line: what was found (and, when failed, how much and where).
    public let detail: String
    /// Each problem found, with where it is (at most `DoctorReport.problemLimit`).
    public let problems: [String]

    /// A check's result.
    public init(name: String, title: String, ok: Bool, detail: String, problems: [String] = []) {
        self.name = name
        self.title = title
        self.ok = ok
        self.detail = detail
        self.problems = problems
    }
}

/// What `coffer doctor` found.
public struct DoctorReport: Sendable, Codable {
    /// The store file checked.
    public let path: String
    /// Whether every check passed.
    public let ok: Bool
    /// Every check, in the order they ran.
    public let checks: [DoctorCheck]

    /// Problems listed per check at most.
    public static let problemLimit = 20

    /// The checks that failed.
    public var failed: [DoctorCheck] { checks.filter { !$0.ok } }
}

extension FinanceStore {
    /// Checks the store at `path` without changing it, each check reported on its own (a Coffer addition):
    ///
    /// - `integrity`: SQLite's `PRAGMA integrity_check` (pages, indexes, constraints);
    /// - `foreign-keys`: `PRAGMA foreign_key_check` (every reference names an existing row);
    /// - `change-log-sequence`: the change log's sequence only grows: no entry at or below the history horizon,
    ///   the sequence counter (which history tokens are measured against) at or above every entry, the horizon and
    ///   every row's creation sequence, so a new change can never reuse a number a token already names;
    /// - `import-ledger`: each import's inserted/updated/deleted counts equal the transaction changes the change
    ///   log records for it, and every change names an import the ledger has (imports whose changes were
    ///   compacted away cannot be checked and are counted as such);
    /// - `transaction-accounts`, `balance-accounts`: every transaction's and balance's account exists;
    /// - `account-aliases`: every alias (another identity of an account: `account_alias`) leads to an existing
    ///   account, and none is the own identity key of another account (which the alias could then never reach);
    /// - `tombstones`: no tombstone (a deleted or retired dedupe key) carries a key a live transaction of its
    ///   account still has — it would make re-imports skip that transaction's records as deleted;
    /// - `store-identity`: the store id and the token key (which signs history tokens and derives account ids)
    ///   are present and well formed.
    ///
    /// All checks read one snapshot, so an import committing meanwhile cannot make counts disagree. A file that
    /// cannot be opened as a Coffer store gives one failed check, `open`.
    public static func doctor(path: String) -> DoctorReport {
        let checks: [DoctorCheck]
        do {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CofferError(.notAStore, "no Coffer store at \(path)")
            }
            if isFolder.boolValue { throw CofferError(.notAStore, "\(path) is a folder; the store is a file") }
            // SQLite itself reads the file (a foreign file fails with "not a database"): no descriptor of the file
            // is opened and closed beside SQLite's, which would drop the locks of a store this process has open.
            var config = Configuration()
            config.readonly = true
            config.label = "coffer.doctor"
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            checks = try queue.read { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                let applied = tables.contains("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
                if tables.isEmpty { throw CofferError(.notAStore, "\(path) is empty, not a Coffer store") }
                if let problem = StoreFile.verdict(path: path, tables: tables, applied: applied) { throw problem }
                return Doctor(db: db).run()
            }
        } catch {
            let problem = StoreFile.describe(error, path: path).message
            checks = [DoctorCheck(name: "open", title: "the store opens", ok: false, detail: problem, problems: [problem])]
        }
        return DoctorReport(path: path, ok: checks.allSatisfy(\.ok), checks: checks)
    }
}

/// The checks, on one read transaction.
private struct Doctor {
    let db: Database
    let limit = DoctorReport.problemLimit

    func run() -> [DoctorCheck] {
        [
            check("integrity", "SQLite integrity_check", integrity),
            check("foreign-keys", "SQLite foreign_key_check", foreignKeys),
            check("change-log-sequence", "the change log's sequence only grows", changeLogSequence),
            check("import-ledger", "import ledger counts equal the change log", importLedger),
            check("transaction-accounts", "every transaction's account exists", transactionAccounts),
            check("balance-accounts", "every balance's account exists", balanceAccounts),
            check("account-aliases", "every account alias leads to an existing account", accountAliases),
            check("tombstones", "no tombstone shadows a live transaction", tombstones),
            check("store-identity", "store id and token key present", storeIdentity),
        ]
    }

    /// A check's outcome: the one-line detail, and the problems (none when it passed).
    typealias Outcome = (detail: String, problems: [String])

    func check(_ name: String, _ title: String, _ body: () throws -> Outcome) -> DoctorCheck {
        do {
            let outcome = try body()
            return DoctorCheck(name: name, title: title, ok: outcome.problems.isEmpty, detail: outcome.detail,
                               problems: Array(outcome.problems.prefix(limit)))
        } catch {
            // A table or column missing, or SQLite refusing to read: that is what this check found.
            let message = (error as? DatabaseError)?.message ?? "\(error)"
            return DoctorCheck(name: name, title: title, ok: false, detail: "could not be checked: \(message)", problems: [message])
        }
    }

    func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
    }

    /// `problems` as a one-line summary: the count, then the first few.
    func summary(_ what: String, _ problems: [String], total: Int? = nil) -> String {
        let total = total ?? problems.count
        let shown = problems.prefix(3).joined(separator: "; ")
        return "\(total) \(what): \(shown)" + (total > 3 ? "; …" : "")
    }

    static func uuid(_ value: DatabaseValue) -> String {
        if case .blob(let data) = value.storage, data.count == 16 {
            return UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString
        }
        return value.description
    }

    // MARK: The checks

    func integrity() throws -> Outcome {
        let rows = try String.fetchAll(db, sql: "PRAGMA integrity_check(\(limit))")
        if rows == ["ok"] { return ("the database file is sound", []) }
        let what = rows.count >= limit ? "or more problems in the database file" : "problem(s) in the database file"
        return (summary(what, rows), rows)
    }

    func foreignKeys() throws -> Outcome {
        let rows = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        if rows.isEmpty { return ("every reference names an existing row", []) }
        let problems = rows.map { row -> String in
            let table: String = row[0]
            let rowid: Int64? = row[1]
            let parent: String = row[2]
            return "\(table) row \(rowid.map(String.init) ?? "?") refers to a missing \(parent)"
        }
        return (summary("reference(s) to missing rows", problems), problems)
    }

    func changeLogSequence() throws -> Outcome {
        var problems: [String] = []
        let horizonValue = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'horizon_seq'")
        let horizon = horizonValue.flatMap { Int64.fromDatabaseValue($0) }
        if horizon == nil { problems.append("store_meta has no horizon_seq (the history horizon)") }
        let counter = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'change_log'") ?? 0
        let range = try Row.fetchOne(db, sql: "SELECT COUNT(*), MIN(seq), MAX(seq) FROM change_log")!
        let entries: Int = range[0]
        let newest: Int64? = range[2]
        if let horizon {
            let below = try Row.fetchOne(db, sql: "SELECT COUNT(*), MIN(seq), MAX(seq) FROM change_log WHERE seq <= ?", arguments: [horizon])!
            let n: Int = below[0]
            if n > 0 {
                let low: Int64 = below[1], high: Int64 = below[2]
                problems.append("\(n) change-log entries (sequence \(low)…\(high)) at or below the history horizon \(horizon): "
                                + "compaction should have removed them, or the horizon moved back")
            }
            if counter < horizon {
                problems.append("the sequence counter (sqlite_sequence, \(counter)) is behind the history horizon \(horizon): "
                                + "new changes would reuse sequence numbers tokens already name")
            }
        }
        if let newest, counter < newest {
            problems.append("the sequence counter (sqlite_sequence, \(counter)) is behind the newest change-log entry \(newest): "
                            + "history tokens would be measured against the wrong end of the log")
        }
        let top = max(counter, newest ?? 0)
        for (table, column, what) in [("account", "created_seq", "accounts"), ("balance", "created_seq", "balances"),
                                      ("txn", "created_seq", "transactions"), ("tombstone", "deleted_seq", "tombstones")] {
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), MAX(\(column)) FROM \(table) WHERE \(column) > ?", arguments: [top])!
            let n: Int = row[0]
            if n > 0 {
                let high: Int64 = row[1]
                problems.append("\(n) \(what) with a \(column) after the newest sequence number \(top) (up to \(high))")
            }
        }
        if problems.isEmpty {
            let span = newest.map { "entries up to \($0)" } ?? "no entries"
            return ("\(entries) change-log \(span), counter \(counter), horizon \(horizon ?? 0)", [])
        }
        return (summary("problem(s) with the sequence", problems), problems)
    }

    func importLedger() throws -> Outcome {
        let horizon = try Int64.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'horizon_seq'") ?? 0
        // Transaction changes per import and operation (0 insert, 1 update, 2 delete).
        var logged: [Int64: [Int]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT import_id, op, COUNT(*) FROM change_log WHERE entity = 2 AND import_id IS NOT NULL GROUP BY import_id, op
            """) {
            let id: Int64 = row[0], op: Int = row[1], n: Int = row[2]
            if (0...2).contains(op) { logged[id, default: [0, 0, 0]][op] += n }
        }
        let firstLogged = try Int64.fetchOne(db, sql: "SELECT MIN(import_id) FROM change_log WHERE import_id IS NOT NULL")
        var problems: [String] = []
        var checked = 0
        var compacted = 0
        var ledgerIDs = Set<Int64>()
        for row in try Row.fetchAll(db, sql: "SELECT id, path, inserted, updated, deleted FROM import_ledger ORDER BY id") {
            let id: Int64 = row[0]
            let path: String = row[1]
            ledgerIDs.insert(id)
            let recorded = [row[2] as Int, row[3] as Int, row[4] as Int]
            guard let counts = logged[id] else {
                if recorded == [0, 0, 0] {
                    checked += 1
                } else if horizon > 0, firstLogged.map({ id < $0 }) ?? true {
                    // Its changes were older than the compaction horizon: nothing left to compare with.
                    compacted += 1
                } else {
                    problems.append("import \(id) (\(path)) records \(recorded[0]) inserted, \(recorded[1]) updated, "
                                    + "\(recorded[2]) deleted, but the change log has no transaction changes of it")
                }
                continue
            }
            checked += 1
            if counts != recorded {
                problems.append("import \(id) (\(path)) records \(recorded[0]) inserted, \(recorded[1]) updated, \(recorded[2]) deleted; "
                                + "the change log has \(counts[0]), \(counts[1]), \(counts[2])")
            }
        }
        let orphans = try Row.fetchAll(db, sql: """
            SELECT import_id, COUNT(*) FROM change_log WHERE import_id IS NOT NULL GROUP BY import_id ORDER BY import_id
            """).filter { !ledgerIDs.contains($0[0]) }
        for row in orphans {
            let id: Int64 = row[0], n: Int = row[1]
            problems.append("\(n) change-log entries name import \(id), which the ledger does not have")
        }
        if problems.isEmpty {
            let behind = compacted > 0 ? "; \(compacted) older than the compaction horizon (their changes are gone), not checkable" : ""
            return ("\(checked) import(s) agree with the change log\(behind)", [])
        }
        return (summary("import(s) disagree with the change log", problems), problems)
    }

    func orphans(_ table: String, _ what: String) throws -> Outcome {
        let total = try count("SELECT COUNT(*) FROM \(table) t WHERE NOT EXISTS (SELECT 1 FROM account a WHERE a.id = t.account_id)")
        if total == 0 {
            return ("all \(try count("SELECT COUNT(*) FROM \(table)")) \(what)s belong to a stored account", [])
        }
        let rows = try Row.fetchAll(db, sql: """
            SELECT t.id, t.account_id FROM \(table) t WHERE NOT EXISTS (SELECT 1 FROM account a WHERE a.id = t.account_id)
            ORDER BY t.rowid LIMIT ?
            """, arguments: [limit])
        let problems = rows.map { "\(what) \(Self.uuid($0[0])) belongs to account \(Self.uuid($0[1])), which does not exist" }
        return (summary("\(what)(s) of missing accounts", problems, total: total), problems)
    }

    func transactionAccounts() throws -> Outcome { try orphans("txn", "transaction") }

    func balanceAccounts() throws -> Outcome { try orphans("balance", "balance") }

    func accountAliases() throws -> Outcome {
        // Stores made before aliases (v9-account-aliases) have none: nothing to check.
        guard try count("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'account_alias'") > 0 else {
            return ("no aliases (the store predates them)", [])
        }
        let total = try count("SELECT COUNT(*) FROM account_alias")
        let missing = try Row.fetchAll(db, sql: """
            SELECT x.identity_key, x.account_id, x.ledger_id FROM account_alias x
            WHERE NOT EXISTS (SELECT 1 FROM account a WHERE a.id = x.account_id) ORDER BY x.rowid LIMIT ?
            """, arguments: [limit])
        let shadowed = try Row.fetchAll(db, sql: """
            SELECT x.identity_key, x.account_id, a.id FROM account_alias x JOIN account a ON a.identity_key = x.identity_key
            WHERE a.id != x.account_id ORDER BY x.rowid LIMIT ?
            """, arguments: [limit])
        func key(_ value: String) -> String { String(value.prefix(12)) + "…" }
        let problems = missing.map { row -> String in
            let importID: Int64? = row[2]
            return "alias \(key(row[0])) leads to account \(Self.uuid(row[1])), which does not exist"
                + (importID.map { " (recorded by import \($0))" } ?? "")
        } + shadowed.map {
            "alias \(key($0[0])) of account \(Self.uuid($0[1])) is the own identity of account \(Self.uuid($0[2])): it never applies"
        }
        if problems.isEmpty { return ("all \(total) alias(es) lead to a stored account", []) }
        return (summary("alias(es) that lead nowhere", problems), problems)
    }

    func tombstones() throws -> Outcome {
        // The import matcher skips a record whose institution id, or whose fingerprint and occurrence, has a
        // tombstone in its account; a live transaction holding the same key would have its records skipped.
        let byID = try Row.fetchAll(db, sql: """
            SELECT x.id, t.account_id, t.external_id FROM tombstone t
            JOIN txn x ON x.account_id = t.account_id AND x.external_id = t.external_id
            WHERE t.external_id IS NOT NULL ORDER BY x.rowid
            """)
        let byContent = try Row.fetchAll(db, sql: """
            SELECT x.id, t.account_id, t.fingerprint, t.occurrence FROM tombstone t
            JOIN txn x ON x.account_id = t.account_id AND x.fingerprint = t.fingerprint AND x.occurrence = t.occurrence
                AND x.fingerprint IS NOT NULL AND x.external_id IS NULL
            WHERE t.fingerprint IS NOT NULL ORDER BY x.rowid
            """)
        let problems = byID.map { "transaction \(Self.uuid($0[0])) (account \(Self.uuid($0[1]))) still has the deleted institution id \($0[2] as String)" }
            + byContent.map { "transaction \(Self.uuid($0[0])) (account \(Self.uuid($0[1]))) still has the deleted fingerprint \($0[2] as String) #\($0[3] as Int64)" }
        if problems.isEmpty {
            return ("\(try count("SELECT COUNT(*) FROM tombstone")) tombstone(s), none on a live transaction's key", [])
        }
        return (summary("tombstone(s) on a live transaction's key", problems), problems)
    }

    func storeIdentity() throws -> Outcome {
        var problems: [String] = []
        let values = Dictionary(try Row.fetchAll(db, sql: "SELECT key, value FROM store_meta WHERE key IN ('store_id', 'token_key')")
            .map { ($0[0] as String, $0[1] as DatabaseValue) }, uniquingKeysWith: { a, _ in a })
        switch values["store_id"]?.storage {
        case .blob(let data) where data.count == 16: break
        case nil: problems.append("store_meta has no store_id")
        default: problems.append("store_meta's store_id is not a 16-byte UUID")
        }
        switch values["token_key"]?.storage {
        case .blob(let data) where data.count == 32: break
        case nil: problems.append("store_meta has no token_key (history tokens and account ids cannot be made)")
        default: problems.append("store_meta's token_key is not a 32-byte key")
        }
        if problems.isEmpty {
            return ("store id \(Self.uuid(values["store_id"]!)), token key present", [])
        }
        return (summary("problem(s) with the store's identity", problems), problems)
    }
}
