@testable import CofferStore
import CofferTestSupport
import Foundation
import GRDB
import Testing

/// What an import asks about an account before matching (`StoreWriter.facts` and its neighbours) answers exactly as
/// the passes over the account's rows it replaced, on random accounts, and with index look-ups only: an import's
/// cost must not grow with the account it adds to.
@Suite struct AccountFactsTests {
    typealias Seeded = SplitMix64

    /// The statements before migration v20, each a pass over the account's rows: the oracle.
    enum Scan {
        static func exists(_ db: Database, _ account: UUID, _ condition: String, _ more: [(any DatabaseValueConvertible)?] = []) throws -> Bool {
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM txn WHERE account_id = ? AND \(condition))",
                              arguments: StatementArguments([account] + more)) ?? false
        }
        static func facts(_ db: Database, _ a: UUID) throws -> [Bool] {
            [try exists(db, a, "1"), try exists(db, a, "external_id IS NOT NULL"), try exists(db, a, "external_id IS NULL"),
             try exists(db, a, "status IN (0, 3)")]
        }
        static func postedLater(_ db: Database, _ a: UUID) throws -> Bool {
            try exists(db, a, "posted_date >= transaction_date + 86400000")
        }
        static func idless(_ db: Database, _ a: UUID, outside source: String) throws -> Bool {
            try exists(db, a, "external_id IS NULL AND source IS NOT NULL AND source != ?", [source])
        }
        static func ids(_ db: Database, _ a: UUID, outside prefix: String) throws -> Bool {
            try exists(db, a, "external_id IS NOT NULL AND substr(external_id, 1, ?) != ?", [prefix.unicodeScalars.count, prefix])
        }
    }

    /// Ids and sources chosen to sit on the ranges' edges: a namespace's own prefix, the text just above it
    /// (`ofx;`), shorter texts that sort below it, bare ids from before namespaces, and text beyond ASCII.
    static let idShapes = ["ofx:", "ofx;", "ofx", "of", "ofx:é", "ofx:\u{10FFFF}", "camt:", "csv:a:", "csv:a;", "csv:", "é:",
                           "ofx~", "ofx\u{7F}", ""]
    static let sources: [String?] = [nil, "ofx", "camt", "csv:a", "", "ofx\u{0}", "é"]
    static let namespaces = ["ofx:", "camt:", "csv:a:", "csv:", "of", "é:", "ofx~", "ofx\u{7F}", "", "z"]

    @Test func theAnswersEqualThePassesTheyReplaced() throws {
        let runs = 60
        /// How often each question was answered yes and no: a question always answered alike tests nothing.
        var answers: [String: Set<Bool>] = [:]
        for run in 0..<runs {
            let seed = UInt64(0xFAC7_0000) &+ UInt64(run)
            var random = Seeded(seed: seed)
            let (store, _) = try makeStore()
            let accounts = try (0..<3).map { try addAccount(store, number: "9000000\($0)") }
            try store.write { w in
                for account in accounts {
                    var used = Set<String>()
                    for n in 0..<Int(random.next() % 30) {
                        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(random.next() % 10_000_000))
                        var t = makeTransaction(account.id, "1.00", on: "2026-03-01",
                                                status: [.booked, .pending, .authorized, .booked][Int(random.next() % 4)])
                        t.transactionDate = start
                        let later: [TimeInterval?] = [nil, 0, 86_400, 86_399.999, -172_800, 864_000, 90_000]
                        t.postedDate = later[Int(random.next() % UInt64(later.count))].map { start.addingTimeInterval($0) }
                        var id: String? = nil
                        if random.next() % 3 != 0 {
                            let shape = Self.idShapes[Int(random.next() % UInt64(Self.idShapes.count))]
                            id = random.next() % 3 == 0 && !used.contains(shape) ? shape : shape + "\(n)"
                        }
                        if let candidate = id, used.contains(candidate) { id = nil }
                        if let id { used.insert(id) }
                        w.recordSource = Self.sources[Int(random.next() % UInt64(Self.sources.count))]
                        try w.insert(t, keys: DedupeKeys(externalID: id, fingerprint: id == nil && random.next() % 4 != 0 ? "fp\(n)" : nil,
                                                         occurrence: 1))
                    }
                }
            }
            try store.write { w in
                for account in accounts {
                    let f = try w.facts(accountID: account.id)
                    let expected = try Scan.facts(w.db, account.id)
                    for (name, answer) in zip(["any", "ids", "idless", "open"], expected) { answers[name, default: []].insert(answer) }
                    answers["postedLater", default: []].insert(try Scan.postedLater(w.db, account.id))
                    #expect([f.hasTransactions, f.hasExternalIDs, f.hasRecordsWithoutExternalID, f.hasOpenTransactions] == expected,
                            "seed \(seed)")
                    #expect(try w.hasRowsPostedLater(accountID: account.id) == Scan.postedLater(w.db, account.id), "seed \(seed)")
                    for source in Self.sources.compactMap({ $0 }) + ["z", "csv"] {
                        answers["idless " + source, default: []].insert(try Scan.idless(w.db, account.id, outside: source))
                        #expect(try w.hasRecordsWithoutExternalID(accountID: account.id, outside: source)
                                == Scan.idless(w.db, account.id, outside: source), "seed \(seed), source \(source.debugDescription)")
                    }
                    for prefix in Self.namespaces {
                        answers["ids " + prefix, default: []].insert(try Scan.ids(w.db, account.id, outside: prefix))
                        #expect(try w.hasExternalIDs(accountID: account.id, outside: prefix)
                                == Scan.ids(w.db, account.id, outside: prefix), "seed \(seed), namespace \(prefix.debugDescription)")
                    }
                }
            }
        }
        // Every id begins with the empty namespace: only that question has one answer.
        for (question, seen) in answers.sorted(by: { $0.key < $1.key }) where question != "ids " {
            #expect(seen.count == 2, "\(question.debugDescription) was always answered \(seen)")
        }
    }

    /// Each question is answered from an index (SQLite's own plan, read by another program): none reads the
    /// account's rows one by one.
    @Test func everyAnswerIsAnIndexLookUp() throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...5).map { makeTransaction(account.id, "1.00", on: "2026-03-1\($0)") })
        typealias SQL = StoreWriter.AccountFactSQL
        let expected: [(String, [String])] = [
            (SQL.facts, ["txn_external_id", "txn_idless_source", "txn_open (account_id=?)"]),
            (SQL.postedLater, ["txn_posted_later"]),
            (SQL.idlessOutside, ["txn_idless_source (account_id=? AND source<?)", "txn_idless_source (account_id=? AND source>?)"]),
            // (`IS NOT NULL` shows as `external_id>?`: above NULL.)
            (SQL.idsOutside, ["txn_external_id (account_id=? AND external_id>? AND external_id<?)", "txn_external_id (account_id=? AND external_id>?)"]),
        ]
        for (sql, indexes) in expected {
            let plan = try sqliteQueryPlan(path, sql: sql)
            #expect(!plan.contains("SCAN txn"), "\(plan)")
            for index in indexes { #expect(plan.contains(index), "\(index) in \(plan)") }
        }
    }

    /// The open-row reads walk `txn_open` only: the import's retirement pass and `coffer reconcile` no longer read
    /// every booked row of the dates they cover.
    @Test func openRowsAreReadFromTheirIndex() throws {
        let (store, path) = try makeStore()
        let account = try addAccount(store)
        try insert(store, (1...5).map { makeTransaction(account.id, "1.00", on: "2026-03-1\($0)") })
        for sql in [OpenRowSQL.inDays, OpenRowSQL.all] {
            let plan = try sqliteQueryPlan(path, sql: sql)
            #expect(plan.contains("USING INDEX txn_open (account_id=?"), "\(plan)")
        }
    }

    @Test func theLeastTextAboveANamespace() {
        #expect(StoreWriter.nextPrefix(after: "ofx:") == "ofx;")
        #expect(StoreWriter.nextPrefix(after: "csv:chase-checking:") == "csv:chase-checking;")
        #expect(StoreWriter.nextPrefix(after: "ofx~") == "ofx\u{7F}")
        #expect(StoreWriter.nextPrefix(after: "ofx\u{7F}") == nil)
        #expect(StoreWriter.nextPrefix(after: "é") == nil)
        #expect(StoreWriter.nextPrefix(after: "") == nil)
    }
}
