import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// A person's own export lands in the person's own account: the shipped profiles take the account from the file,
/// so a second account's export is a second account, and short numbers are told apart by their institution.
@Suite struct CSVSecondAccountTests {
    static let second = repositoryRoot + "/Tests/Golden/csv-accounts"
    static let feeds = repositoryRoot + "/feeds/csv"

    static func accounts(_ bench: Workbench) async throws -> [String] {
        let masked = try await bench.store.maskedAccountNumbers()
        return try await bench.store.accounts(query: AccountQuery()).map { "\($0.institutionName) \(masked[$0.id] ?? "-")" }.sorted()
    }

    @Test(arguments: [
        ("Chase1234_Activity_20260315.CSV", "Chase9876_Activity_20260405.CSV",
         ["JPMorgan Chase Bank ••••1234", "JPMorgan Chase Bank ••••9876"]),
        ("capital-one-2026-03.csv", "capital-one-2026-04-two-cards.csv", ["Capital One ••••0042", "Capital One ••••7731"]),
        ("dkb-giro-2026-03.csv", "dkb-giro-2026-04-second-account.csv", ["Deutsche Kreditbank ••••2051", "Deutsche Kreditbank ••••7890"]),
        ("Umsaetze_DE27100777770209299700_2026.03.15.csv", "Umsaetze_DE35100777770355001122_2026.04.05.csv",
         ["Volksbank Musterstadt eG ••••9700", "Volksbank Musterstadt eG ••••1122"].sorted()),
    ])
    func aSecondAccountsExportLandsInASecondAccount(_ sample: String, _ other: String, _ expected: [String]) async throws {
        let bench = try Workbench()
        #expect(try await bench.importer.importFile(Self.feeds + "/" + sample).status == .imported)
        let report = try await bench.importer.importFile(Self.second + "/" + other)
        #expect(report.status == .imported, "\(report.error?.description ?? "")")
        #expect(try await Self.accounts(bench) == expected)
        // The same files again: nothing new, no third account.
        #expect(try await bench.importer.importFile(Self.second + "/" + other, options: ImportOptions(force: true)).inserted == 0)
        #expect(try await Self.accounts(bench).count == 2)
    }

    @Test func capitalOnesTwoCardsInOneFileAreGroupedPerCard() async throws {
        let bench = try Workbench()
        let report = try await bench.importer.importFile(Self.second + "/capital-one-2026-04-two-cards.csv")
        #expect(report.accountsAdded == 2)
        let accounts = try await bench.store.accounts(query: AccountQuery())
        let masked = try await bench.store.maskedAccountNumbers()
        let card7731 = try #require(accounts.first { masked[$0.id] == "••••7731" })
        let rows = try await bench.store.transactions(query: TransactionQuery(predicate: #Predicate { $0.accountID == card7731.id }))
        #expect(rows.map(\.transactionAmount.amount).sorted() == [Decimal(string: "59.94")!, Decimal(string: "321.40")!])
    }

    @Test func theSameShortNumberAtTwoInstitutionsIsTwoAccounts() async throws {
        // Chase ••••1234 (from the file name) and a Capital One card ••••1234 (from its column).
        let bench = try Workbench()
        #expect(try await bench.importer.importFile(Self.feeds + "/Chase1234_Activity_20260315.CSV").status == .imported)
        let card = "Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit\n2026-03-12,2026-03-13,1234,SHOP,Merchandise,5.00,\n"
        #expect(try bench.importing("capital-one-1234.csv", card).accountsAdded == 1)
        #expect(try await Self.accounts(bench) == ["Capital One ••••1234", "JPMorgan Chase Bank ••••1234"])
    }

    @Test func aRenamedChaseDownloadSaysWhyItsAccountIsUnknown() throws {
        let bench = try Workbench()
        let text = try String(contentsOfFile: Self.feeds + "/Chase1234_Activity_20260315.CSV", encoding: .utf8)
        let report = try bench.importing("checking (1).csv", text, profile: "chase-checking")
        #expect(report.status == .failed)
        #expect(report.error?.message.contains("does not match account.number_from.file_name") == true)
    }
}
