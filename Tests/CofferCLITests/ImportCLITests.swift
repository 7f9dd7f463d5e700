import Foundation
import Testing

@Suite struct ImportCLITests {
    @Test func importingFeedsIsQuietUnderCronAndIdempotent() throws {
        let store = try temporaryFolder() + "/coffer.sqlite"
        let first = try coffer(["import", "--store", store, "feeds"])
        #expect(first.status == 0, "\(first.stderr)")
        // Cron mails whatever is printed: nothing, except what a person should look at — the one sample
        // statement that does not reconcile.
        #expect(first.stdout.isEmpty)
        let lines = first.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(first.stderr)")
        #expect(lines.first?.hasPrefix("coffer: warning: feeds/camt/not-reconciling-053-v02.xml:") == true)
        #expect(lines.first?.contains("does not reconcile") == true)
        let again = try coffer(["import", "--store", store, "feeds", "--json"])
        #expect(again.status == 0)
        let summary = try jsonObject(again.stdout)
        #expect(summary["inserted"] as? Int == 0)
        let files = try #require(summary["files"] as? [[String: Any]])
        #expect(files.count >= 20)
        #expect(files.allSatisfy { $0["status"] as? String == "already-imported" })
        let forced = try jsonObject(try coffer(["import", "--store", store, "feeds", "--json", "--force"]).stdout)
        #expect(forced["inserted"] as? Int == 0 && forced["updated"] as? Int == 0 && forced["deleted"] as? Int == 0)
    }

    @Test func aBadFileFailsAloneWithExitOneAndTheOthersCommit() throws {
        let folder = try temporaryFolder()
        let inbox = folder + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/feeds/ofx/bank-ofx1-sgml.ofx", toPath: inbox + "/good.ofx")
        try "OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>9</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNAMT>-1.00"
            .write(toFile: inbox + "/truncated.ofx", atomically: true, encoding: .utf8)
        let run = try coffer(["import", "--store", folder + "/s.sqlite", inbox])
        #expect(run.status == 1)
        #expect(run.stderr.contains("truncated.ofx"))
        #expect(run.stderr.split(separator: "\n").count == 1, "one line per failed file: \(run.stderr)")
        let list = try coffer(["transactions", "--store", folder + "/s.sqlite", "--format", "json"])
        #expect(try jsonArray(list.stdout).count == 4)
    }

    @Test func dryRunShowsChangesAndWritesNothing() throws {
        let folder = try temporaryFolder()
        let run = try coffer(["import", "--store", folder + "/s.sqlite", "--dry-run", "feeds/ofx/bank-ofx1-sgml.ofx"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("4 new"))
        #expect(run.stdout.contains("insert"))
        #expect(run.stdout.contains("dry run"))
        let info = try jsonObject(try coffer(["info", "--store", folder + "/s.sqlite", "--format", "json"]).stdout)
        #expect(info["transactions"] as? Int == 0)
    }

    @Test func usageErrorsExitSixtyFour() throws {
        #expect(try coffer(["import"]).status == 64)
        #expect(try coffer(["transactions", "--from", "yesterday"]).status == 64)
        #expect(try coffer(["frobnicate"]).status == 64)
        #expect(try coffer(["compact", "--keep", "forever"]).status == 64)
    }

    @Test func twoImportsAtOnceBothSucceedWithoutDoubles() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        let processes = try (0..<2).map { _ -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: cofferBinary)
            p.arguments = ["import", "--store", store, "--force", "feeds"]
            p.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let one = try temporaryFolder() + "/one.sqlite"
        try coffer(["import", "--store", one, "feeds"])
        let both = try jsonObject(try coffer(["info", "--store", store, "--format", "json"]).stdout)
        let single = try jsonObject(try coffer(["info", "--store", one, "--format", "json"]).stdout)
        #expect(both["transactions"] as? Int == single["transactions"] as? Int)
        #expect(both["accounts"] as? Int == single["accounts"] as? Int)
    }
}
