import CofferModel
import CofferPipeline
import Foundation
import Testing

/// An MT940 file and a camt.053 file of one account and one month (`feeds/camt/de-musterbank-053-v02.xml` and
/// its MT940 twin in `Tests/Golden/mt940-shapes`) land on one account — the MT940's bank code and account number
/// become the camt file's IBAN — and give each transaction once, in either order.
@Suite struct CrossFormatMT940Tests {
    static let camt = repositoryRoot + "/feeds/camt/de-musterbank-053-v02.xml"
    static let mt940 = repositoryRoot + "/Tests/Golden/mt940-shapes/same-account-as-camt-de-musterbank.sta"

    struct Row: Hashable { var day: String; var amount: String; var indicator: String }

    static func rows(_ bench: Workbench) async throws -> [Row] {
        try await bench.transactions().map {
            Row(day: CalendarDay.string(CalendarDay.startOfDay($0.transactionDate)), amount: $0.transactionAmount.amountText,
                indicator: $0.creditDebitIndicator.name)
        }
    }

    @Test(arguments: [[camt, mt940], [mt940, camt]])
    func anMT940AndACamtStatementOfOneAccountGiveNoDoubles(_ order: [String]) async throws {
        let bench = try Workbench()
        let first = try await bench.importer.importFile(order[0])
        #expect(first.status == .imported, "\(String(describing: first.error))")
        #expect(first.inserted == 8)
        let second = try await bench.importer.importFile(order[1])
        #expect(second.status == .imported, "\(String(describing: second.error))")
        #expect(second.inserted == 0, "\(second.warnings)")
        #expect(second.deleted == 0)
        #expect(second.attention.isEmpty, "\(second.attention)")
        let accounts = try await bench.store.accounts(query: AccountQuery())
        #expect(accounts.count == 1)
        let rows = try await Self.rows(bench)
        #expect(rows.count == 8)
        #expect(Set(rows).count == 8)
        #expect(rows.contains(Row(day: "2026-03-02", amount: "2850.00", indicator: "credit")))
        #expect(rows.contains(Row(day: "2026-03-31", amount: "6.50", indicator: "debit")))
    }

    /// The same store whichever came first: the same transactions with the same amounts, days and texts.
    @Test func eitherOrderEndsInTheSameStore() async throws {
        func snapshot(_ order: [String]) async throws -> [String] {
            let bench = try Workbench()
            for file in order { #expect(try await bench.importer.importFile(file).status == .imported) }
            return try await bench.transactions().map {
                "\(CalendarDay.string(CalendarDay.startOfDay($0.transactionDate))) \($0.transactionAmount.amountText) "
                    + "\($0.creditDebitIndicator.name) \($0.originalTransactionDescription) \($0.status.name)"
            }.sorted()
        }
        #expect(try await snapshot([Self.camt, Self.mt940]) == snapshot([Self.mt940, Self.camt]))
    }
}
