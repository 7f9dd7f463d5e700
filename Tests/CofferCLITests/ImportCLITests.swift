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

    @Test("--json names each failure's stable code and place; exit codes by code class: usage 64, the rest 1")
    func failuresCarryTheirCode() throws {
        let folder = try temporaryFolder()
        try "OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>9</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNAMT>twelve\n"
            .write(toFile: folder + "/bad.ofx", atomically: true, encoding: .utf8)
        try Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: URL(fileURLWithPath: folder + "/noise.ofx"))
        let run = try coffer(["import", "--store", folder + "/s.sqlite", "--json", folder + "/bad.ofx", folder + "/noise.ofx"])
        #expect(run.status == 1)
        let files = try #require(try jsonObject(run.stdout)["files"] as? [[String: Any]])
        let errors = files.compactMap { $0["error"] as? [String: Any] }
        #expect(errors.count == 2)
        #expect(errors.map { $0["code"] as? String } == ["bad-input", "unknown-format"], "\(errors)")
        for error in errors {
            #expect(Set(error.keys).isSubset(of: ["code", "message", "file", "line", "column", "element", "description"]), "\(error.keys)")
            #expect((error["file"] as? String)?.hasPrefix(folder) == true && error["message"] is String && error["description"] is String)
        }
        #expect(errors.first?["line"] is Int, "the bad amount's line: \(errors)")

        // A whole-command failure exits by its code: not a store 1, wrong use 64.
        try "not a database".write(toFile: folder + "/text.sqlite", atomically: true, encoding: .utf8)
        let notAStore = try coffer(["transactions", "--store", folder + "/text.sqlite"])
        #expect(notAStore.status == 1 && notAStore.stderr.contains("not a SQLite database"), "\(notAStore.stderr)")
        let usage = try coffer(["import", "--store", folder + "/s.sqlite", "--profile", "no-such-profile", folder + "/bad.ofx"])
        #expect(usage.status == 64, "\(usage.stderr)")
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
