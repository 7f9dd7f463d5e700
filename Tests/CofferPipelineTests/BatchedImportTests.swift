import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing
import CofferTestSupport

/// Statements long enough that the writer's batches fill (`InsertBatch`, 128 rows): the first statement of an
/// account is written many rows to a statement, later ones interleave inserts with look-ups. Whatever the order of
/// three overlapping statements of two formats, the store holds each transaction once; history lists a statement's
/// new rows in the statement's order; and a re-import finds everything unchanged.
@Suite struct BatchedImportTests {
    typealias O = OrderInvarianceTests

    /// 600 transactions, three a day, each amount its own.
    static let truth: [O.Truth] = (0..<600).map { i in
        O.Truth(index: i, day: i / 3, merchant: i % 7, cents: 1_000 + 7 * i, credit: i % 7 == 5, camtSkew: 0,
                ofxTime: i % 3)
    }

    static func slice(_ range: Range<Int>) -> [O.Truth] { Array(truth[range]) }

    static let statements: [O.Statement] = [
        O.Statement(name: "a.ofx", format: .ofx, from: 0, through: 133, text: O.ofx(slice(0..<400), from: 0, through: 133)),
        O.Statement(name: "b.ofx", format: .ofx, from: 67, through: 199, text: O.ofx(slice(200..<600), from: 67, through: 199)),
        O.Statement(name: "c.csv", format: .csv, from: 100, through: 166, text: O.csv(slice(300..<500))),
    ]

    @Test(arguments: [[0, 1, 2], [2, 1, 0], [1, 2, 0]])
    func anyOrderOfLongStatementsGivesTheSameStore(order: [Int]) async throws {
        let stored = try await O.importAll(Self.statements, order: order, seed: 0)
        #expect(stored == O.expected(Self.truth, Self.statements), "order \(order)")
    }

    @Test func historyListsAStatementsRowsInItsOrder() async throws {
        let bench = try Workbench()
        try O.profile.write(toFile: bench.folder + "/config/profiles/prop-bank.yaml", atomically: true, encoding: .utf8)
        let importer = Importer(store: bench.store, configuration: O.configuration)
        let path = try bench.file("a.ofx", Self.statements[0].text)
        let first = try await importer.importFile(path)
        #expect(first.inserted == 400)

        var inserted: [Transaction] = []
        for try await changes in bench.store.allTransactionHistory(isMonitoring: false) { inserted += changes.inserted }
        #expect(inserted.map { NSDecimalNumber(decimal: $0.transactionAmount.amount * 100).intValue }
                == Self.slice(0..<400).map(\.cents))

        let again = try await importer.importFile(path, options: ImportOptions(force: true))
        #expect(again.inserted == 0 && again.unchanged == 400)
        // The second statement: 200 rows stored, 200 new, the new ones after the stored ones in the file.
        let second = try await importer.importFile(try bench.file("b.ofx", Self.statements[1].text))
        #expect(second.inserted == 200 && second.unchanged == 200)
        #expect(try await bench.transactions().count == 600)
    }
}
