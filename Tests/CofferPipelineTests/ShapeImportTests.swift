import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// The OFX shapes real institutions write (Tests/Golden/ofx-shapes), imported into a real store: each is read
/// with the count, signed total and warning, or refused with the located reason, that `expected.tsv` beside
/// them states (the same expectations scripts/compare-peers.sh holds the peers' readings to).
@Suite struct ShapeImportTests {
    static let folder = repositoryRoot + "/Tests/Golden/ofx-shapes"

    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var read: Bool
        var count: Int
        var total: Decimal
        var pattern: String
        var description: String { file }
    }

    static let expectations: [Expectation] = {
        guard let text = try? String(contentsOfFile: folder + "/expected.tsv", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 4 else { return nil }
            return Expectation(file: f[0], read: f[1] == "read", count: Int(f[2]) ?? 0,
                               total: Decimal(string: f[3]) ?? 0, pattern: f.count > 4 ? f[4] : "")
        }
    }()

    static func signedTotal(_ transactions: [Transaction]) -> Decimal {
        transactions.reduce(Decimal(0)) { sum, t in
            t.creditDebitIndicator == .credit ? sum + t.transactionAmount.amount : sum - t.transactionAmount.amount
        }
    }

    @Test func everyFixtureHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder)
            .filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".tsv") && !$0.hasSuffix(".events") }
        #expect(Set(files) == Set(Self.expectations.map(\.file)))
        #expect(files.count >= 30)
    }

    @Test(arguments: expectations) func importsAsExpected(_ expected: Expectation) async throws {
        let bench = try Workbench()
        let path = Self.folder + "/" + expected.file
        let report = try await bench.importer.importFile(path)
        let messages = ([report.error?.description].compactMap { $0 } + report.warnings).joined(separator: "\n")
        if expected.read {
            #expect(report.status == .imported, "\(messages)")
            let stored = try await bench.transactions()
            #expect(stored.count == expected.count)
            #expect(Self.signedTotal(stored) == expected.total)
        } else {
            #expect(report.status == .failed)
            let error = try #require(report.error)
            // Located: the file and a line.
            #expect(error.description.hasPrefix(path + ":"), "\(error.description)")
            #expect(error.location?.line != nil, "\(error.description)")
        }
        if !expected.pattern.isEmpty {
            #expect(messages.range(of: expected.pattern, options: [.regularExpression, .caseInsensitive]) != nil,
                    "expected /\(expected.pattern)/ in: \(messages)")
        }
    }

    // MARK: camt

    struct CamtExpectation: Sendable, CustomStringConvertible {
        var file: String
        var read: Bool
        /// (number, currency) → (count, signed total)
        var accounts: [String: (count: Int, total: Decimal)]
        var warnings: Int
        var pattern: String
        var description: String { file }
    }

    static let camtFolder = repositoryRoot + "/Tests/Golden/camt-shapes"

    static let camtExpectations: [CamtExpectation] = {
        guard let text = try? String(contentsOfFile: camtFolder + "/expected.tsv", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 5 else { return nil }
            var accounts: [String: (count: Int, total: Decimal)] = [:]
            for spec in f[2].split(separator: " ") where spec != "-" {
                let parts = spec.split(separator: "=")
                let numbers = parts[1].split(separator: ":")
                accounts[String(parts[0])] = (Int(numbers[0]) ?? -1, Decimal(string: String(numbers[1])) ?? -1)
            }
            return CamtExpectation(file: f[0], read: f[1] == "read", accounts: accounts, warnings: Int(f[3]) ?? 0,
                                   pattern: f[4])
        }
    }()

    @Test func everyCamtFixtureHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.camtFolder).filter { $0.hasSuffix(".xml") }
        #expect(Set(files) == Set(Self.camtExpectations.map(\.file)))
    }

    /// One account per (account number, currency), each with the transactions and total the fixture's README gives.
    @Test(arguments: camtExpectations) func camtImportsAsExpected(_ expected: CamtExpectation) async throws {
        let bench = try Workbench()
        let path = Self.camtFolder + "/" + expected.file
        let report = try await bench.importer.importFile(path)
        let messages = ([report.error?.description].compactMap { $0 } + report.warnings).joined(separator: "\n")
        if !expected.pattern.isEmpty {
            #expect(messages.range(of: expected.pattern, options: [.regularExpression, .caseInsensitive]) != nil,
                    "expected /\(expected.pattern)/ in: \(messages)")
        }
        guard expected.read else {
            #expect(report.status == .failed)
            #expect(report.error?.description.hasPrefix(path + ":") == true, "\(messages)")
            #expect(try await bench.transactions().isEmpty)
            return
        }
        #expect(report.status == .imported, "\(messages)")
        #expect(report.warnings.count == expected.warnings, "\(messages)")
        let accounts = try await bench.store.accounts(query: AccountQuery())
        let masked = try await bench.store.maskedAccountNumbers()
        let transactions = try await bench.transactions()
        var seen: [String: (count: Int, total: Decimal)] = [:]
        for account in accounts {
            let mine = transactions.filter { $0.accountID == account.id }
            seen[(masked[account.id] ?? "?") + "/" + account.currencyCode] = (mine.count, Self.signedTotal(mine))
        }
        let wanted = Dictionary(uniqueKeysWithValues: expected.accounts.map { key, value in
            let parts = key.split(separator: "/")
            let number = String(parts[0]).filter { $0.isLetter || $0.isNumber }
            return ("••••" + number.suffix(4) + "/" + parts[1], value)
        })
        #expect(Set(seen.keys) == Set(wanted.keys), "accounts \(seen.keys.sorted()) vs \(wanted.keys.sorted())")
        for (key, value) in wanted {
            #expect(seen[key]?.count == value.count, "\(key)")
            #expect(seen[key]?.total == value.total, "\(key)")
        }
        // Every transaction is in its account's currency.
        for account in accounts {
            #expect(transactions.filter { $0.accountID == account.id }
                .allSatisfy { $0.transactionAmount.currencyCode == account.currencyCode })
        }
    }

    @Test func aMultiCurrencyAccountStaysSplitAcrossImports() async throws {
        // The USD part of a multi-currency IBAN, imported first, then the whole statement: USD stays on its
        // account and EUR gets its own; the same file again changes nothing.
        let bench = try Workbench()
        let path = Self.camtFolder + "/multi-ccy-one-stmt-053-v08.xml"
        let first = try await bench.importer.importFile(path)
        #expect(first.accountsAdded == 2)
        let again = try await bench.importer.importFile(path, options: ImportOptions(force: true))
        #expect(again.status == .imported)
        #expect(again.inserted == 0 && again.updated == 0 && again.deleted == 0)
        #expect(again.unchanged == 5)
        #expect(try await bench.store.accounts(query: AccountQuery()).map(\.currencyCode).sorted() == ["EUR", "USD"])
    }

    // MARK: What the user can say when the statement does not

    @Test func emptyCurdefTakesTheCurrencyOption() async throws {
        let bench = try Workbench()
        let path = Self.folder + "/empty-curdef-sgml.ofx"
        let refused = try await bench.importer.importFile(path)
        #expect(refused.error?.message.contains("--currency") == true)
        let report = try await bench.importer.importFile(path, options: ImportOptions(currency: "USD"))
        #expect(report.status == .imported)
        let stored = try await bench.transactions()
        #expect(stored.count == 7)
        #expect(stored.allSatisfy { $0.transactionAmount.currencyCode == "USD" })
        #expect(try await bench.store.accounts(query: AccountQuery()).map(\.currencyCode) == ["USD"])
    }

    @Test func emptyCurdefUsesTheStoredAccountsCurrency() async throws {
        let bench = try Workbench()
        let text = try String(contentsOfFile: Self.folder + "/empty-curdef-sgml.ofx", encoding: .utf8)
        // The same account's statement with its currency, then the one without: it lands on the account, in GBP.
        guard let curdef = text.range(of: "<CURDEF>") else { Issue.record("no CURDEF in the fixture"); return }
        let withCurrency = text.replacingCharacters(in: curdef, with: "<CURDEF>GBP")
        #expect(try bench.importing("with.ofx", withCurrency).status == .imported)
        let report = try bench.importing("without.ofx", text)
        #expect(report.status == .imported, "\(report.error?.description ?? "")")
        #expect(report.inserted == 0)
        #expect(report.unchanged == 7)
        #expect(try await bench.store.accounts(query: AccountQuery()).map(\.currencyCode) == ["GBP"])
    }

    @Test func statementWithoutAccountNeedsTheAccountOption() async throws {
        let bench = try Workbench()
        let path = Self.folder + "/no-account-qbo.qbo"
        let refused = try await bench.importer.importFile(path)
        #expect(refused.status == .failed)
        #expect(refused.error?.message.contains("--account") == true)
        #expect(try await bench.store.accounts(query: AccountQuery()).isEmpty)

        let created = try await bench.importer.importFile(path, options: ImportOptions(account: .new(name: "Harlow card")))
        #expect(created.status == .imported)
        #expect(created.inserted == 6)
        let accounts = try await bench.store.accounts(query: AccountQuery())
        #expect(accounts.map(\.displayName) == ["Harlow card"])

        // The same download again, named by the stored account's id: nothing new, no second account.
        let again = try await bench.importer.importFile(path, options: ImportOptions(force: true, account: .existing(accounts[0].id)))
        #expect(again.status == .imported)
        #expect(again.inserted == 0)
        #expect(again.unchanged == 6)
        #expect(try await bench.store.accounts(query: AccountQuery()).count == 1)
    }

    @Test func anUnknownAccountIDIsAUsageError() throws {
        let bench = try Workbench()
        let report = bench.importer.importFile(Self.folder + "/no-account-qbo.qbo",
                                               options: ImportOptions(account: .existing(UUID())))
        #expect(report.status == .failed)
        #expect(report.error?.message.contains("no stored account") == true)
    }

    @Test func theAccountOptionDoesNotOverrideAStatementsOwnAccount() async throws {
        let bench = try Workbench()
        _ = try await bench.importer.importFile(Self.folder + "/no-account-qbo.qbo", options: ImportOptions(account: .new(name: "Other")))
        let other = try await bench.store.accounts(query: AccountQuery())
        let report = try await bench.importer.importFile(repositoryRoot + "/feeds/ofx/bank-ofx1-sgml.ofx",
                                               options: ImportOptions(account: .existing(other[0].id)))
        #expect(report.status == .imported)
        #expect(report.accountsAdded == 1)
    }
}
