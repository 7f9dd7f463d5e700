import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import GRDB
import Testing

/// `coffer imports undo` (docs/undo.md): an undo reverts exactly one import's changes, and the store after it is
/// the store of the imports left.
@Suite struct UndoTests {
    typealias Gen = OrderInvarianceTests

    /// What a store must hold for a set of statements: each true transaction some statement lists, once, dated by
    /// the earliest day a statement gives it.
    static func expected(_ truth: [Gen.Truth], _ statements: [Gen.Statement]) -> [String] {
        truth.compactMap { t in
            var days: [Int] = []
            for s in statements where t.day >= s.from && t.day <= s.through {
                days.append(s.format == .camt ? t.day + t.camtSkew : t.day)
            }
            guard let first = days.min() else { return nil }
            let (y, m, d) = Gen.day(first)
            return "\(y)-\(m)-\(d) \(t.credit ? t.cents : -t.cents)"
        }.sorted()
    }

    static func difference(_ stored: [String], _ expected: [String]) -> String {
        var counts: [String: Int] = [:]
        for row in expected { counts[row, default: 0] += 1 }
        for row in stored { counts[row, default: 0] -= 1 }
        let missing = counts.filter { $0.value > 0 }.map { "\($0.key) ×\($0.value)" }.sorted()
        let extra = counts.filter { $0.value < 0 }.map { "\($0.key) ×\(-$0.value)" }.sorted()
        return "missing \(missing), extra \(extra)"
    }

    /// The property: import a case's statements in a random order, undo a random one (with everything that
    /// depends on it): the store holds what the statements left give, the doctor finds nothing wrong, and
    /// importing the undone files again gives the store of all of them ("undo then redo is the identity").
    @Test func undoLeavesTheStoreOfTheImportsLeftAndRedoRestoresIt() async throws {
        for seed in Gen.cases.prefix(ProcessInfo.processInfo.environment["COFFER_PROPERTY_CASES"] == nil ? 100 : Int.max) {
            var rng = Gen.SplitMix(state: seed &* 7919)
            let truth = Gen.ledger(&rng)
            var statements: [Gen.Statement] = []
            for s in Gen.statements(truth, &rng) where !statements.contains(where: { $0.text == s.text }) { statements.append(s) }
            let order = Array(statements.indices).shuffled(using: &rng)
            let folder = NSTemporaryDirectory() + "coffer-undo-tests/" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = try FinanceStore(path: folder + "/store.sqlite")
            let importer = Importer(store: store, configuration: Gen.configuration)
            var ledgerID: [Int64: Int] = [:]
            for i in order {
                let path = folder + "/" + statements[i].name
                try statements[i].text.write(toFile: path, atomically: true, encoding: .utf8)
                let report = try await importer.importFile(path)
                try #require(report.status == .imported, "seed \(seed): \(report.error?.description ?? "")")
                if ProcessInfo.processInfo.environment["UNDO_DEBUG"] != nil { print("DEBUG import", statements[i].name, statements[i].from, statements[i].through, report.inserted, report.updated, report.deleted, report.unchanged, report.warnings) }
                ledgerID[try await store.imports(limit: 1)[0].id] = i
            }
            let victim = order[Int.random(in: 0..<order.count, using: &rng)]
            let victimID = ledgerID.first { $0.value == victim }!.key
            let context = "seed \(seed) order \(order.map { statements[$0].name }) undo \(statements[victim].name)"
            if let dump = ProcessInfo.processInfo.environment["UNDO_DEBUG"] { try? FileManager.default.copyItem(atPath: folder, toPath: dump) }
            let report = try store.undoImport(victimID, cascade: true)
            let undone = Set(report.reverted.map { ledgerID[$0.importID]! })
            if ProcessInfo.processInfo.environment["UNDO_DEBUG"] != nil { for r in report.reverted { print("DEBUG undo", statements[ledgerID[r.importID]!].name, r) } }
            #expect(undone.contains(victim), "\(context)")
            let left = statements.indices.filter { !undone.contains($0) }.map { statements[$0] }
            let stored = Gen.projection(try await store.transactions(query: TransactionQuery()))
            let want = Self.expected(truth, left)
            #expect(stored == want, "\(context) (undone: \(undone.map { statements[$0].name })): \(Self.difference(stored, want))")
            let doctor = FinanceStore.doctor(path: store.path)
            #expect(doctor.ok, "\(context): \(doctor.checks.filter { !$0.ok }.map(\.detail))")
            // Redo: the undone files import again (not skipped as imported) and the store is whole again.
            for i in order where undone.contains(i) {
                let report = try await importer.importFile(folder + "/" + statements[i].name)
                #expect(report.status == .imported, "\(context): redo \(statements[i].name) \(report.status)")
            }
            let redone = Gen.projection(try await store.transactions(query: TransactionQuery()))
            let all = Self.expected(truth, statements)
            #expect(redone == all, "\(context) redo: \(Self.difference(redone, all))")
            if stored != want || redone != all { return }
        }
    }

    /// Import A, B, C; undo B: the store equals importing A and C only, a monitor sees exactly the reverting
    /// changes, and B imports again afterwards.
    @Test func undoingTheMiddleImportEqualsNeverHavingImportedIt() async throws {
        let a = csv(["2026-03-01,REWE SAGT DANKE 1,-23.10,booked", "2026-03-03,SQ *BLUE BOTTLE COFFEE,-4.50,pending"])
        let b = csv(["2026-03-04,BLUE BOTTLE COFFEE OAKLAND,-4.50,booked", "2026-03-05,GEHALT MAERZ,2500.00,booked",
                     "2026-03-06,DM DROGERIE,-12.95,booked"])
        let c = csv(["2026-03-10,ALDI SUED,-31.40,booked"])
        let bench = try Workbench()
        _ = try bench.importing("a.csv", a)
        let pending = try #require(try await bench.transactions().first { $0.status == .pending })
        let b1 = try bench.importing("b.csv", b)
        #expect((b1.inserted, b1.updated) == (2, 1))
        _ = try bench.importing("c.csv", c)
        let token = try await bench.token()
        let ids = try await bench.store.imports()
        let bID = try #require(ids.first { $0.path.hasSuffix("b.csv") }).id

        let dry = try bench.store.undoImport(bID, dryRun: true)
        #expect(dry.reverted.map { "\($0.removed) \($0.restored)" } == ["2 1"])
        #expect(try await bench.transactions().count == 5, "a dry run changes nothing")

        let report = try bench.store.undoImport(bID)
        #expect(report.reverted.map { "\($0.importID) \($0.removed) \($0.restored) \($0.reinserted)" } == ["\(bID) 2 1 0"])
        // The store is the one A and C alone give, ids aside.
        let reference = try Workbench()
        _ = try reference.importing("a.csv", a)
        _ = try reference.importing("c.csv", c)
        func rows(_ ts: [Transaction]) -> [String] {
            ts.map { "\(CalendarDay.string($0.transactionDate)) \($0.transactionAmount.amount) \($0.status) \($0.transactionDescription)" }.sorted()
        }
        #expect(rows(try await bench.transactions()) == rows(try await reference.transactions()))
        // The pending coffee is pending again, with its id; the monitor saw exactly that and two deletions.
        let changes = try await bench.changes(since: token)
        #expect(changes.inserted.isEmpty)
        #expect(changes.updated.map(\.id) == [pending.id])
        #expect(changes.updated.first?.status == .pending)
        #expect(changes.deleted.count == 2)
        // The ledger says so, and B is no longer "already imported".
        let after = try await bench.store.imports()
        #expect(after.first { $0.id == bID }?.undoneBy == after.first?.id)
        #expect(after.first?.kind == .undo)
        // Its statement is no longer on record (coffer reconcile): A's and C's are.
        #expect(try await bench.store.reconcile().flatMap(\.statements).count == 2)
        let again = try bench.importing("b.csv", b)
        #expect((again.status, again.inserted, again.updated) == (.imported, 2, 1))
        #expect(try await bench.transactions().count == 5)
        #expect(FinanceStore.doctor(path: bench.store.path).ok)
    }

    @Test func undoBringsBackThePendingRowsAnImportRetired() async throws {
        let bench = try Workbench()
        _ = try bench.importing("a.csv", csv(["2026-03-01,REWE 1,-23.10,booked", "2026-03-02,KIOSK AM ECK,-3.00,pending"]))
        let pending = try #require(try await bench.transactions().first { $0.status == .pending })
        // A newer statement with pending rows that covers the day and no longer lists it: it is gone.
        let b = try bench.importing("b.csv", csv(["2026-03-01,REWE 1,-23.10,booked", "2026-03-03,BAECKEREI,-2.10,pending"]))
        #expect(b.deleted == 1)
        let token = try await bench.token()
        let id = try #require(try await bench.store.imports().first).id
        let report = try bench.store.undoImport(id)
        #expect(report.reverted.first.map { ($0.removed, $0.reinserted) } ?? (0, 0) == (1, 1))
        let changes = try await bench.changes(since: token)
        #expect(changes.inserted.map(\.id) == [pending.id], "back with its old id")
        #expect(changes.deleted.count == 1)
        // No tombstone is left behind: the pending row's statement imports again as before.
        let again = try bench.importing("b.csv", csv(["2026-03-01,REWE 1,-23.10,booked", "2026-03-03,BAECKEREI,-2.10,pending"]))
        #expect((again.inserted, again.deleted) == (1, 1))
    }

    @Test func laterImportsThatChangedTheRowsBlockAnUndoUnlessCascaded() async throws {
        let bench = try Workbench()
        _ = try bench.importing("a.csv", csv(["2026-03-03,SQ *BLUE BOTTLE COFFEE,-4.50,pending"]))
        _ = try bench.importing("b.csv", csv(["2026-03-04,BLUE BOTTLE COFFEE OAKLAND,-4.50,booked"]))
        let ledger = try await bench.store.imports()
        let (bID, aID) = (ledger[0].id, ledger[1].id)
        #expect(throws: CofferError.self) { try bench.store.undoImport(aID) }
        do {
            try bench.store.undoImport(aID)
        } catch let error as CofferError {
            #expect(error.message.contains("\(bID)") && error.message.contains("b.csv") && error.message.contains("--cascade"))
        }
        #expect(try await bench.transactions().count == 1, "a refused undo changes nothing")
        let report = try bench.store.undoImport(aID, cascade: true)
        #expect(report.reverted.map(\.importID) == [bID, aID], "newest first")
        #expect(try await bench.transactions().isEmpty)
        #expect(try await bench.store.accounts(query: AccountQuery()).isEmpty, "the account A created is gone with it")
        #expect(FinanceStore.doctor(path: bench.store.path).ok)
    }

    @Test func aRowALaterImportListsTooIsKept() async throws {
        let bench = try Workbench()
        _ = try bench.importing("a.csv", csv(["2026-03-01,REWE 1,-23.10,booked"]))
        _ = try bench.importing("b.csv", csv(["2026-03-01,REWE 1,-23.10,booked", "2026-03-02,DM 2,-5.00,booked"]))
        _ = try bench.importing("c.csv", csv(["2026-03-02,DM 2,-5.00,booked", "2026-03-03,ALDI 3,-7.00,booked"]))
        let bID = try #require(try await bench.store.imports().first { $0.path.hasSuffix("b.csv") }).id
        let report = try bench.store.undoImport(bID)
        #expect(report.reverted.first.map { ($0.removed, $0.kept) } ?? (0, 0) == (0, 1))
        #expect(try await bench.transactions().count == 3, "C lists DM 2: it stays")
    }

    @Test func importsMadeBeforeUndoOrBehindTheHorizonAreNotUndoable() async throws {
        let bench = try Workbench()
        _ = try bench.importing("a.csv", csv(["2026-03-01,REWE 1,-23.10,booked"]))
        let id = try #require(try await bench.store.imports().first).id
        try bench.store.compact(before: Date().addingTimeInterval(60))
        let record = try #require(try await bench.store.imports().first)
        #expect(!record.undoable && record.status?.contains("compaction horizon") == true)
        #expect(throws: CofferError.self) { try bench.store.undoImport(id) }
        #expect(throws: CofferError.self) { try bench.store.undoImport(999) }
    }

    /// Each undo mirror table holds every column of its table: a column added later without its mirror would
    /// be lost by an undo.
    @Test func everyJournaledTableHasAWholeMirror() throws {
        let bench = try Workbench()
        let queue = try DatabaseQueue(path: bench.store.path)
        try queue.read { db in
            for table in ["txn", "account", "balance", "open_listing", "account_alias"] {
                let columns = try db.columns(in: table).map(\.name)
                let mirror = try db.columns(in: "undo_" + table).map(\.name)
                #expect(mirror == ["image", "import_id"] + columns, "undo_\(table)")
            }
        }
    }
}
