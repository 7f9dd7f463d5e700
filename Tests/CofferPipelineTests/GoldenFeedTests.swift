import CofferPipeline
import Foundation
import Testing

/// Every statement in feeds/ imports, into a fresh store with the shipped configuration, to exactly the result
/// in the `.expected.json` beside it: the report, the accounts, balances and normalized transactions.
///
/// After a deliberate change, `COFFER_UPDATE_GOLDEN=1 swift test --filter GoldenFeedTests` rewrites the files;
/// review the diff before committing it.
@Suite struct GoldenFeedTests {
    static let samples: [String] = (try? Importer.expand([repositoryRoot + "/feeds"]))?.map {
        String($0.dropFirst(repositoryRoot.count + 1))
    } ?? []

    struct Expected: Codable, Equatable {
        struct Row: Codable, Equatable {
            var account: String
            var date: String
            var postedDate: String?
            var amount: String
            var currency: String
            var indicator: String
            var foreign: String?
            var rate: String?
            var status: String
            var type: String
            var mcc: Int16?
            var merchant: String?
            var description: String
            var original: String
        }
        struct BalanceRow: Codable, Equatable {
            var account: String
            var available: String?
            var booked: String?
        }
        struct AccountRow: Codable, Equatable {
            var kind: String
            var displayName: String
            var institutionName: String
            var currencyCode: String
            var accountDescription: String?
        }
        var status: String
        var format: String?
        var profile: String?
        var inserted: Int
        var updated: Int
        var deleted: Int
        var warnings: [String]
        var accounts: [AccountRow]
        var balances: [BalanceRow]
        var transactions: [Row]
    }

    static func day(_ date: Date) -> String {
        CalendarDay.isMidnightUTC(date) ? CalendarDay.string(date) : ISO8601DateFormatter().string(from: date)
    }

    static func side(_ b: Balance?) -> String? {
        b.map { "\($0.creditDebitIndicator == .debit ? "-" : "")\($0.amount.amountText) \($0.amount.currencyCode) as of \(day($0.asOfDate))" }
    }

    /// The import of `sample`, a path under `root` (the repository, or a copy of feeds/ elsewhere).
    static func snapshot(of sample: String, root: String = repositoryRoot) async throws -> Expected {
        let bench = try Workbench()
        let report = try await bench.importer.importFile(root + "/" + sample)
        let accounts = try await bench.store.accounts(query: AccountQuery())
        let names = Dictionary(accounts.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
        let balances = try await bench.store.accountBalances(query: AccountBalanceQuery())
        let transactions = try await bench.transactions()
        let rows = transactions.map { t in
            Expected.Row(account: names[t.accountID] ?? "?", date: day(t.transactionDate), postedDate: t.postedDate.map(day),
                         amount: t.transactionAmount.amountText, currency: t.transactionAmount.currencyCode,
                         indicator: t.creditDebitIndicator.name,
                         foreign: t.foreignCurrencyAmount.map { "\($0.amountText) \($0.currencyCode)" },
                         rate: t.foreignCurrencyExchangeRate.map { ExactDecimal.text($0) }, status: t.status.name,
                         type: t.transactionType.name, mcc: t.merchantCategoryCode?.rawValue, merchant: t.merchantName,
                         description: t.transactionDescription, original: t.originalTransactionDescription)
        }.sorted { ($0.account, $0.date, $0.original, $0.amount) < ($1.account, $1.date, $1.original, $1.amount) }
        return Expected(
            status: report.status.rawValue, format: report.format, profile: report.profile, inserted: report.inserted,
            updated: report.updated, deleted: report.deleted,
            warnings: report.warnings.map { $0.replacingOccurrences(of: root + "/", with: "") },
            accounts: accounts.map { Expected.AccountRow(kind: $0.kind.rawValue, displayName: $0.displayName, institutionName: $0.institutionName,
                                                         currencyCode: $0.currencyCode, accountDescription: $0.accountDescription) },
            balances: balances.map { Expected.BalanceRow(account: names[$0.accountID] ?? "?", available: side($0.available), booked: side($0.booked)) }
                .sorted { ($0.account, $0.booked ?? $0.available ?? "") < ($1.account, $1.booked ?? $1.available ?? "") },
            transactions: rows)
    }

    @Test func thereAreSamplesOfEveryFormat() {
        #expect(Self.samples.contains { $0.hasSuffix(".ofx") })
        #expect(Self.samples.contains { $0.hasSuffix(".qfx") })
        #expect(Self.samples.contains { $0.hasSuffix(".xml") })
        #expect(Self.samples.filter { $0.lowercased().hasSuffix(".csv") }.count >= 6)
        #expect(Self.samples.contains { $0.hasPrefix("feeds/mt940/") })
        #expect(Self.samples.contains { $0.hasSuffix(".qif") })
    }

    @Test(arguments: samples)
    func sampleImportsToItsExpectedResult(_ sample: String) async throws {
        let actual = try await Self.snapshot(of: sample)
        let path = repositoryRoot + "/" + sample + ".expected.json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if ProcessInfo.processInfo.environment["COFFER_UPDATE_GOLDEN"] == "1" {
            try (String(decoding: try encoder.encode(actual), as: UTF8.self) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(actual.status == "imported", "\(sample): \(actual.warnings)")
        #expect(actual == expected, "\(sample) differs from \(sample).expected.json")
    }
}
