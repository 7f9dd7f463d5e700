import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import GRDB
import Testing

/// The folded search column through imports: written at insert, kept in step when a later statement changes a
/// row's text and when an undo puts the old text back, and filled by migration v15-folded-text for a store the
/// previous release made.
@Suite struct FoldedSearchImportTests {
    static func statement(_ rows: [(String, String)]) -> String {
        (["Id,Date,Description,Amount"] + rows.enumerated().map { "\($1.0),2026-03-\(10 + $0),\($1.1),-12.50" })
            .joined(separator: "\n") + "\n"
    }

    func found(_ store: FinanceStore, _ text: String) async throws -> [String] {
        try await store.transactions(query: TransactionQuery(searchText: text)).map(\.originalTransactionDescription)
    }

    @Test func aLaterStatementsTextIsFoundAndAnUndoBringsTheOldOneBack() async throws {
        let bench = try Workbench()
        let first = try bench.importing("a.csv", Self.statement([("T1", "CAFÉ MÜLLER KÖLN"), ("T2", "Bäckerei Schäfer")]))
        #expect(first.status == .imported && first.inserted == 2)
        #expect(try await found(bench.store, "muller") == ["CAFÉ MÜLLER KÖLN"])
        #expect(try await found(bench.store, "koln") == ["CAFÉ MÜLLER KÖLN"])

        // The bank corrects the text of T1: the row (same id) is found by its new text, not its old.
        let second = try bench.importing("b.csv", Self.statement([("T1", "CAFÉ ØSTERGAARD ÅRHUS"), ("T2", "Bäckerei Schäfer")]))
        #expect(second.updated == 1, "\(second.changes ?? [])")
        #expect(try await found(bench.store, "muller") == [])
        #expect(try await found(bench.store, "ostergaard arhus") == ["CAFÉ ØSTERGAARD ÅRHUS"])

        // Undoing the correction restores the old text, and the search follows it.
        let latest = try #require(try await bench.store.imports(limit: 1).first)
        _ = try bench.store.undoImport(latest.id)
        #expect(try await found(bench.store, "muller") == ["CAFÉ MÜLLER KÖLN"])
        #expect(try await found(bench.store, "ostergaard") == [])
        #expect(try await found(bench.store, "BACKEREI") == ["Bäckerei Schäfer"])
    }

    @Test func theMigrationFillsTheColumnForAStoreOfThePreviousRelease() async throws {
        let folder = NSTemporaryDirectory() + "coffer-upgrade-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/coffer.sqlite"
        try FileManager.default.copyItem(atPath: StoreUpgradeTests.fixture + "/coffer.sqlite", toPath: path)
        let store = try FinanceStore(path: path)
        #expect(try await found(store, "muller").contains("Café Müller"))
        #expect(try await found(store, "koln") == ["Bargeldauszahlung GA Köln Hbf"])
        #expect(try await found(store, "overgaard") == ["Björn Øvergaard"])
        #expect(try await found(store, "yilmaz") == ["Selin Yılmaz", "Familie Yilmaz-Becker"])
        #expect(try await found(store, "DUSSELDORF") == ["Stadtwerke Düsseldorf AG"])
        // Every row with a text got its folded text.
        let queue = try DatabaseQueue(path: path)
        let empty = try await queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM txn WHERE folded_text = '' AND description != ''") }
        #expect(empty == 0)
        let all = try await store.transactions(query: TransactionQuery())
        #expect(all.count == 150)
        for query in ["e", "ü", "GMBH", "ø", "märz"] {
            let expected = all.filter { $0.matchesSearchText(query) }.map(\.originalTransactionDescription)
            #expect(try await found(store, query) == expected, "\(query)")
        }
    }
}
