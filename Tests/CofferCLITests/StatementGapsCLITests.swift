import Foundation
import Testing

/// `coffer import --account`, `--new-account` and `--currency`: what a user says when a statement does not (no
/// OFX account element, an empty CURDEF), through the real binary and a store on disk.
@Suite struct StatementGapsCLITests {
    static let shapes = packageRoot + "/Tests/Golden/ofx-shapes"

    @Test func aStatementWithoutAccountIsRefusedUntilTheUserNamesOne() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite"
        let file = Self.shapes + "/no-account-sgml-creditunion.ofx"

        let refused = try coffer(["import", "--store", store, file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(file + ":"))
        #expect(refused.stderr.contains("--account"))

        // A typo never creates an account: --account only names stored ones.
        let typo = try coffer(["import", "--store", store, "--account", "Chequing", file])
        #expect(typo.status != 0)
        #expect(typo.stderr.contains("no account matches 'Chequing'"))

        let created = try coffer(["import", "--store", store, "--new-account", "Credit union checking", "--json", file])
        #expect(created.status == 0, "\(created.stderr)")
        let summary = try jsonObject(created.stdout)
        #expect(summary["inserted"] as? Int == 7)

        let accounts = try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout)
        #expect(accounts.count == 1)

        // The next download of the same account, named by part of its name: nothing new, still one account.
        let again = try coffer(["import", "--store", store, "--force", "--account", "union", "--json", file])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try jsonObject(again.stdout)["inserted"] as? Int == 0)
        #expect(try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout).count == 1)
    }

    @Test func anEmptyCurdefNeedsTheCurrencyOnlyForANewAccount() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite"
        let file = Self.shapes + "/empty-curdef-xml.ofx"

        let refused = try coffer(["import", "--store", store, file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--currency"))

        let bad = try coffer(["import", "--store", store, "--currency", "pounds", file])
        #expect(bad.status == 64)

        let imported = try coffer(["import", "--store", store, "--currency", "gbp", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let rows = try coffer(["transactions", "--store", store, "--format", "ndjson"]).stdout
            .split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(rows.count == 6)
        #expect(rows.allSatisfy { ($0["transactionAmount"] as? [String: Any])?["currencyCode"] as? String == "GBP" })
    }

    @Test func bothAccountOptionsAtOnceIsAUsageError() throws {
        let run = try coffer(["import", "--account", "x", "--new-account", "y", Self.shapes + "/no-account-qbo.qbo"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("not both"))
    }
}
