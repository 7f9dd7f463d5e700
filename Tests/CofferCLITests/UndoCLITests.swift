import Foundation
import Testing

/// `coffer imports undo` with the real binary on real files: a dry run changes nothing, an undo reverts exactly
/// one import, the file imports again afterwards, and what cannot be undone says why.
@Suite struct UndoCLITests {
    static let march = """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102

        <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260331<FI><ORG>Undo Bank<FID>9</FI></SONRS></SIGNONMSGSRSV1>
        <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
        <BANKACCTFROM><BANKID>9<ACCTID>55501234<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20260301<DTEND>20260331
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260303<TRNAMT>-4.50<FITID>M1<NAME>BLUE BOTTLE COFFEE</STMTTRN>
        <STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260315<TRNAMT>2500.00<FITID>M2<NAME>PAYROLL</STMTTRN>
        </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

        """

    static var april: String {
        march.replacingOccurrences(of: "20260331", with: "20260430").replacingOccurrences(of: "20260301", with: "20260401")
            .replacingOccurrences(of: "202603", with: "202604").replacingOccurrences(of: "<FITID>M", with: "<FITID>A")
    }

    @Test func undoRevertsOneImportAndTheFileImportsAgain() throws {
        let folder = try temporaryFolder()
        let store = folder + "/store.sqlite"
        try Self.march.write(toFile: folder + "/march.ofx", atomically: true, encoding: .utf8)
        try Self.april.write(toFile: folder + "/april.ofx", atomically: true, encoding: .utf8)
        #expect(try coffer(["import", "--store", store, folder + "/march.ofx", folder + "/april.ofx"]).status == 0)
        let ledger = try jsonArray(try coffer(["imports", "--store", store, "--format", "json"]).stdout)
        let marchID = try #require(ledger.first { ($0["path"] as? String)?.hasSuffix("march.ofx") == true }?["id"] as? Int)
        #expect(ledger.allSatisfy { $0["undoable"] as? Bool == true })

        let dry = try coffer(["imports", "undo", "--store", store, "--dry-run", String(marchID)])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would undo import \(marchID)") && dry.stdout.contains("2 transaction(s) removed"))
        #expect(try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout).count == 4)

        let undo = try coffer(["imports", "undo", "--store", store, String(marchID)])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("undid import \(marchID)"))
        let left = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        #expect(left.count == 2)
        #expect(left.allSatisfy { ($0["transactionDate"] as? String)?.hasPrefix("2026-04") == true })
        let table = try coffer(["imports", "--store", store]).stdout
        #expect(table.contains("undone by") && table.contains("reverts \(marchID)"))

        // Not skipped as already imported any more.
        let again = try coffer(["import", "--store", store, "--json", folder + "/march.ofx"])
        #expect(again.status == 0)
        #expect(try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout).count == 4)

        // An undone import, an undo entry and an unknown id are refused with a reason, and change nothing.
        let twice = try coffer(["imports", "undo", "--store", store, String(marchID)])
        #expect(twice.status != 0 && twice.stderr.contains("undone by"))
        let unknown = try coffer(["imports", "undo", "--store", store, "999"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no entry 999"))
        #expect(try coffer(["doctor", "--store", store]).status == 0)
    }

    @Test func theLedgerKeepsEachImportsWarnings() throws {
        let folder = try temporaryFolder()
        let store = folder + "/store.sqlite"
        _ = try coffer(["import", "--store", store, packageRoot + "/feeds/camt/not-reconciling-053-v02.xml"])
        let entry = try #require(try jsonArray(try coffer(["imports", "--store", store, "--format", "json"]).stdout).first)
        #expect(entry["warningCount"] as? Int == 1)
        #expect((entry["warnings"] as? [String])?.first?.contains("does not reconcile") == true)
        let table = try coffer(["imports", "--store", store]).stdout
        #expect(table.contains("WARNINGS"))
    }

    /// Two accounts (two numbers: Coffer would never join them by itself) linked with the binary, the link listed
    /// in the ledger and undone.
    @Test func accountsLinkAndItsUndo() throws {
        let folder = try temporaryFolder()
        let store = folder + "/store.sqlite"
        try Self.march.write(toFile: folder + "/march.ofx", atomically: true, encoding: .utf8)
        try Self.april.replacingOccurrences(of: "55501234", with: "55509999")
            .write(toFile: folder + "/other.ofx", atomically: true, encoding: .utf8)
        #expect(try coffer(["import", "--store", store, folder + "/march.ofx", folder + "/other.ofx"]).status == 0)
        let accounts = try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout)
        try #require(accounts.count == 2)
        let dry = try coffer(["accounts", "link", "--store", store, "--dry-run", "1234", "9999"])
        #expect(dry.status == 0 && dry.stdout.contains("would link") && dry.stdout.contains("2 transaction(s) moved"))
        #expect(try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout).count == 2)
        let link = try coffer(["accounts", "link", "--store", store, "1234", "9999"])
        #expect(link.status == 0, "\(link.stderr)")
        #expect(link.stdout.contains("2 transaction(s) moved") && link.stdout.contains("coffer imports undo"))
        #expect(try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout).count == 1)
        #expect(try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout).count == 4)
        let entry = try #require(try jsonArray(try coffer(["imports", "--store", store, "--format", "json"]).stdout).first)
        #expect(entry["kind"] as? String == "link")
        let undo = try coffer(["imports", "undo", "--store", store, String(try #require(entry["id"] as? Int))])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout).count == 2)
        #expect(try coffer(["doctor", "--store", store]).status == 0)
    }
}
