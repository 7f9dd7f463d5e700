import CofferModel
import CofferStore
import Foundation
import GRDB
import Testing
@testable import CofferPipeline

/// Rows an earlier version numbered over the whole file (docs/dedupe.md): an import looks for them in the accounts
/// migration v21 marked, and only there, so an import into any other account keeps no file-wide set.
@Suite struct FileWideOccurrenceTests {
    static let both = csv(["2026-03-28,Salary Hollis,2500.00,booked", "2026-04-28,Salary Hollis,2500.00,booked"])

    static func marked(_ path: String) throws -> [UUID] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try UUID.fetchAll($0, sql: "SELECT account_id FROM file_wide_occurrence_account") }
    }

    /// A store as a version before 2026-11 left it after importing `both`: the April salary stored as occurrence 2
    /// of its content over the file. `marked`: as migration v21 then finds it (its account holds rows).
    static func oldStore(marked: Bool) throws -> Workbench {
        let bench = try Workbench()
        #expect(try bench.importing("q1.csv", both).inserted == 2)
        #expect(try Self.marked(bench.store.path) == [], "an account a new store makes is numbered per day only")
        let queue = try DatabaseQueue(path: bench.store.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE txn SET occurrence = 2 WHERE transaction_date = (SELECT MAX(transaction_date) FROM txn)")
            if marked { try db.execute(sql: "INSERT INTO file_wide_occurrence_account SELECT DISTINCT account_id FROM txn") }
        }
        try queue.close()
        return bench
    }

    static func occurrences(_ bench: Workbench) throws -> [Int] {
        let queue = try DatabaseQueue(path: bench.store.path)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchAll($0, sql: "SELECT occurrence FROM txn ORDER BY transaction_date") }
    }

    @Test func aRowNumberedOverTheFileIsFoundInAMarkedAccountAndRenumbered() async throws {
        let bench = try Self.oldStore(marked: true)
        #expect(try Self.occurrences(bench) == [1, 2])
        let again = try bench.importing("q1.csv", Self.both, force: true)
        #expect((again.inserted, again.unchanged) == (0, 2))
        #expect(try await bench.transactions().count == 2)
        #expect(try Self.occurrences(bench) == [1, 1], "renumbered per day")
    }

    @Test func anUnmarkedAccountIsNumberedPerDayOnly() async throws {
        // The mark is what the import goes by: without it, the row numbered the old way is not looked for under
        // that number. (No store of a version before 2026-11 is like this: v21 marks every account with rows.)
        let bench = try Self.oldStore(marked: false)
        let again = try bench.importing("q1.csv", Self.both, force: true)
        #expect(again.inserted == 1)
    }

    @Test func aLinkCarriesTheMarkToTheAccountItKeeps() async throws {
        let (bench, _, ofx, csv) = try await AccountLinkTests.twoAccounts()
        let queue = try DatabaseQueue(path: bench.store.path)
        try await queue.write { try $0.execute(sql: "INSERT INTO file_wide_occurrence_account VALUES (?)", arguments: [csv.id]) }
        try queue.close()
        _ = try await bench.store.linkAccounts(keep: ofx.id, other: csv.id)
        #expect(Set(try Self.marked(bench.store.path)) == [csv.id, ofx.id])

        // Linking an unmarked account into another leaves both as they were.
        let (plain, _, plainOFX, plainCSV) = try await AccountLinkTests.twoAccounts()
        _ = try await plain.store.linkAccounts(keep: plainOFX.id, other: plainCSV.id)
        #expect(try Self.marked(plain.store.path) == [])
    }
}
