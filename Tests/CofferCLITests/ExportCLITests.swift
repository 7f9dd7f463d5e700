import Foundation
import Testing

/// `coffer export` on the real binary: incremental export for cron across two imports with an update between, and
/// the refusals that keep a journal the user's own.
@Suite struct ExportCLITests {
    typealias R = ReconcileCLITests

    /// The whole month again, re-downloaded: the gas bill corrected from 64.20 to 64.50, and the rent added.
    static let corrected = R.ofx(start: "20260301", end: "20260331", ledger: "1285.50", rows: [
        ("B-1", "20260302", "500.00", "TRANSFER IN"), ("B-2", "20260306", "1800.00", "PAYROLL"), ("B-3", "20260311", "-64.50", "GAS CO"),
        ("B-4", "20260320", "-950.00", "RENT"),
    ])

    @Test func anIncrementalExportAppendsWhatIsNewAndListsWhatChanged() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite", journal = folder + "/books.journal", state = folder + "/hledger.state"
        try #require(try coffer(["import", "--store", store, try R.write(R.firstHalf, "march-1.ofx", in: folder)]).status == 0)
        let first = try coffer(["export", "--store", store, "--format", "hledger", "--state", state, "-o", journal])
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let before = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(before.hasPrefix("; Written by coffer export (hledger)"))
        #expect(before.contains("GAS CO") && before.contains("-64.20 USD\n") && before.contains(" 0.00 USD = 2235.80 USD\n"), "\(before)")

        try #require(try coffer(["import", "--store", store, try R.write(Self.corrected, "march.ofx", in: folder)]).status == 0)
        let gas = try jsonArray(try coffer(["transactions", "--store", store, "--text", "gas", "--format", "json"]).stdout)
        let gasID = try #require(gas.first?["id"] as? String)
        let second = try coffer(["export", "--store", store, "--format", "hledger", "--state", state, "-o", journal])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr == "coffer: export: \(gasID) updated since it was exported: 2026-03-11 -64.50 USD booked Gas Co\n")
        let after = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(after.hasPrefix(before), "what was written stays as it was: Coffer only appends")
        let appended = String(after.dropFirst(before.count))
        #expect(appended.contains("RENT") && appended.contains("-950.00 USD\n") && appended.contains(" 0.00 USD = 1285.50 USD\n"), "\(appended)")
        #expect(!appended.contains("PAYROLL") && !appended.contains("GAS CO") && !appended.contains("Written by"), "\(appended)")
        #expect(appended.components(separatedBy: "coffer-id:").count == 2, "one transaction appended")

        let third = try coffer(["export", "--store", store, "--format", "hledger", "--state", state, "-o", journal])
        #expect(third.status == 0 && third.stderr.isEmpty, "\(third.stderr)")
        #expect(try String(contentsOfFile: journal, encoding: .utf8) == after, "nothing new: nothing appended")
    }

    @Test func aJournalIsNeverOverwrittenAndAStateKeepsItsFormat() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite", journal = folder + "/books.beancount", state = folder + "/books.state"
        try #require(try coffer(["import", "--store", store, try R.write(R.firstHalf, "march-1.ofx", in: folder)]).status == 0)
        #expect(try coffer(["export", "--store", store, "--format", "beancount", "-o", journal]).status == 0)
        let again = try coffer(["export", "--store", store, "--format", "beancount", "-o", journal])
        #expect(again.status == 64 && again.stderr.contains("coffer never rewrites a journal"), "\(again.stderr)")
        #expect(try coffer(["export", "--store", store, "--format", "beancount", "--state", state]).status == 0)
        let other = try coffer(["export", "--store", store, "--format", "ledger", "--state", state])
        #expect(other.status == 64 && other.stderr.contains("the export state is for beancount, not ledger"), "\(other.stderr)")
    }

    @Test func eachFormatToStdoutWithItsIdsAndOnlyTheAccountAsked() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite"
        try #require(try coffer(["import", "--store", store, try R.write(R.firstHalf, "march-1.ofx", in: folder),
                                 try R.write(R.ofx(start: "20260301", end: "20260315", ledger: "10.00", rows: [("S-1", "20260305", "10.00", "INTEREST")],
                                                   account: "9988776655"), "other.ofx", in: folder)]).status == 0)
        let ids = try jsonArray(try coffer(["transactions", "--store", store, "--account", "5566", "--format", "json"]).stdout)
            .compactMap { $0["id"] as? String }
        for format in ["hledger", "ledger", "beancount", "csv", "ofx"] {
            let run = try coffer(["export", "--store", store, "--format", format, "--account", "5566"])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            for id in ids { #expect(run.stdout.contains(id), "\(format) lacks \(id)") }
            #expect(!run.stdout.contains("INTEREST"), "\(format): another account")
        }
    }
}
