import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// "A monitor never sees one transaction as two" (issue 12), as a property: the cases of
/// `OrderInvarianceTests.anyImportOrderGivesTheSameStoreWithPendingRows` (pending rows that book, with tips and other
/// texts, or are cancelled; OFX, CSV and camt sources) are imported one statement at a time in a random order, and
/// after each import a client that follows `allTransactionHistory(since: token, isMonitoring: false)` applies the
/// inserted, updated and deleted rows to its mirror, keyed by id. After every import the mirror must equal the store
/// (same ids, same values), and it must never hold two rows for one true transaction.
///
/// A row is traced to its true transactions by what a user sees: the merchant in its text, its direction, an amount
/// the transaction had (pending or booked) and a day within the days its listings give. Same-day twins are two
/// transactions alike: a row of theirs may be either, and they may have two rows, not three.
///
/// `COFFER_PROPERTY_CASES=N` runs N cases (default 40); a failure prints the seed, the order and the import.
@Suite struct MonitorPropertyTests {
    typealias Gen = OrderInvarianceTests

    /// The true transactions a stored row may be.
    static func candidates(_ t: Transaction, _ truth: [Gen.Truth]) -> Set<Int> {
        let text = t.originalTransactionDescription.lowercased()
        let cents = NSDecimalNumber(decimal: t.transactionAmount.amount * 100).intValue
        return Set(truth.filter { row in
            guard text.contains(Gen.merchants[row.merchant].lowercased()), row.credit == (t.creditDebitIndicator == .credit),
                  cents == row.cents || (row.fate != .booked && cents == row.pendingCents) else { return false }
            var last = row.day + row.camtSkew
            if case .booksOn(let b) = row.fate { last = b }
            return t.localDay >= CalendarDay.dayNumber(Gen.base) + row.day && t.localDay <= CalendarDay.dayNumber(Gen.base) + last
        }.map(\.index))
    }

    @Test func aMonitorNeverSeesOneTransactionAsTwo() async throws {
        let count = ProcessInfo.processInfo.environment["COFFER_PROPERTY_CASES"] == nil ? 40 : Int.max
        for seed in Gen.cases.prefix(count) {
            var rng = Gen.SplitMix(state: seed &* 31 &+ 17)
            let truth = Gen.ledger(&rng, pending: true)
            let statements = Gen.pendingStatements(truth, &rng)
            let order = Array(statements.indices).shuffled(using: &rng)
            let folder = NSTemporaryDirectory() + "coffer-monitor-tests/" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = try FinanceStore(path: folder + "/store.sqlite")
            let importer = Importer(store: store, configuration: Gen.configuration)
            var token: HistoryToken?
            var mirror: [UUID: Transaction] = [:]
            for (step, i) in order.enumerated() {
                let context = "seed \(seed) order \(order.map { statements[$0].name }) after import \(step + 1) (\(statements[i].name))"
                let path = folder + "/" + statements[i].name
                try statements[i].text.write(toFile: path, atomically: true, encoding: .utf8)
                let report = try await importer.importFile(path)
                #expect(report.status == .imported || report.status == .alreadyImported,
                        "\(context): \(report.error?.description ?? "")")
                for try await changes in store.allTransactionHistory(since: token, isMonitoring: false) {
                    for t in changes.inserted {
                        #expect(mirror[t.id] == nil, "\(context): inserted \(t.id) again")
                        mirror[t.id] = t
                    }
                    for t in changes.updated {
                        #expect(mirror[t.id] != nil, "\(context): updated \(t.id), never inserted")
                        mirror[t.id] = t
                    }
                    for id in changes.deleted { mirror[id] = nil }
                    token = changes.newToken
                }
                let stored = try await store.transactions(query: TransactionQuery())
                let current = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
                if mirror != current {
                    Issue.record("\(context): the mirror differs from the store: \(Set(mirror.keys).symmetricDifference(current.keys).count) ids, \(mirror.filter { current[$0.key] != $0.value }.count) values")
                    return
                }
                var byCandidates: [Set<Int>: Int] = [:]
                for t in mirror.values {
                    let found = Self.candidates(t, truth)
                    if found.isEmpty {
                        Issue.record("\(context): a row no true transaction explains: \(t.originalTransactionDescription) \(t.transactionAmount.amount) \(CalendarDay.string(day: t.localDay))")
                        return
                    }
                    byCandidates[found, default: 0] += 1
                }
                for (found, rows) in byCandidates where rows > found.count {
                    let names = found.sorted().map { "#\($0) \(Gen.merchants[truth[$0].merchant]) day \(truth[$0].day) \(truth[$0].fate)" }
                    Issue.record("\(context): \(rows) rows for \(names)")
                    return
                }
            }
        }
    }
}
