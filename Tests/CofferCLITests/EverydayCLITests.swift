import Foundation
import Testing

/// The small things a new user tripped on (issue 14), each as that user would notice it.
@Suite struct EverydayCLITests {
    /// A one-account OFX 1.x statement of Lakeside Credit Union's checking account ••••4321.
    static func ofx(end: String, transactions: [(id: String, day: String, amount: String, name: String)],
                    ledger: String?, available: String?) -> String {
        var text = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD\n"
            + "<BANKACCTFROM><BANKID>123456789<ACCTID>7777654321<ACCTTYPE>CHECKING</BANKACCTFROM>\n"
            + "<BANKTRANLIST><DTSTART>20260301<DTEND>\(end)\n"
        for t in transactions {
            text += "<STMTTRN><TRNTYPE>POS<DTPOSTED>\(t.day)<TRNAMT>\(t.amount)<FITID>\(t.id)<NAME>\(t.name)</STMTTRN>\n"
        }
        text += "</BANKTRANLIST>\n"
        if let ledger { text += "<LEDGERBAL><BALAMT>\(ledger)<DTASOF>\(end)</LEDGERBAL>\n" }
        if let available { text += "<AVAILBAL><BALAMT>\(available)<DTASOF>\(end)</AVAILBAL>\n" }
        return text + "</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    }

    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func profileOnAFolderAppliesToItsCSVFilesOnly() throws {
        let folder = try temporaryFolder()
        let inbox = folder + "/march"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        for file in ["ofx/bank-ofx1-sgml.ofx", "camt/nl-053-v08.xml", "csv/Chase1234_Activity_20260315.CSV"] {
            try FileManager.default.copyItem(atPath: packageRoot + "/feeds/" + file, toPath: inbox + "/" + (file as NSString).lastPathComponent)
        }
        let run = try coffer(["import", "--store", folder + "/s.sqlite", "--profile", "chase-checking", "--json", inbox])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try #require(try jsonObject(run.stdout)["files"] as? [[String: Any]])
        #expect(files.count == 3)
        #expect(files.allSatisfy { $0["status"] as? String == "imported" }, "\(run.stdout)")
        #expect(Set(files.compactMap { $0["format"] as? String }) == ["ofx", "camt.053.001.08", "csv"])
        // A misspelt profile is still an error, even though only OFX and camt files would be left to read.
        let misspelt = try coffer(["import", "--store", folder + "/t.sqlite", "--profile", "chase-checkng", packageRoot + "/feeds/ofx"])
        #expect(misspelt.status == 64)
        #expect(misspelt.stderr.contains("no CSV profile 'chase-checkng' (known: amex,"), "\(misspelt.stderr)")
    }

    @Test func enumFlagsListTheirValidValues() throws {
        let status = try coffer(["transactions", "--status", "posted"])
        #expect(status.status == 64)
        #expect(status.stderr.contains("--status: 'posted' is not a known value; expected one of authorized, booked, memo, pending, rejected"),
                "\(status.stderr)")
        let type = try coffer(["transactions", "--type", "pointOfSale,pos"])
        #expect(type.status == 64)
        #expect(type.stderr.contains("'pos' is not a known value; expected one of adjustment, atm, billPayment,"), "\(type.stderr)")
        #expect(type.stderr.contains("pointOfSale"))
        let format = try coffer(["balances", "--format", "xml"])
        #expect(format.status == 64)
        #expect(format.stderr.contains("'table', 'json', 'ndjson' or 'csv'"), "\(format.stderr)")
        let mcc = try coffer(["transactions", "--mcc", "grocery"])
        #expect(mcc.stderr.contains("expected a four-digit merchant category code"), "\(mcc.stderr)")
    }

    /// Three accounts: Maple Ridge ••••6789 (OFX), Chase ••••1234 (CSV) and a Dutch camt account ••••4300.
    static func threeAccounts() throws -> String {
        let store = try temporaryFolder() + "/s.sqlite"
        let run = try coffer(["import", "--store", store, packageRoot + "/feeds/ofx/bank-ofx1-sgml.ofx",
                              packageRoot + "/feeds/csv/Chase1234_Activity_20260315.CSV", packageRoot + "/feeds/camt/nl-053-v08.xml"])
        #expect(run.status == 0, "\(run.stderr)")
        return store
    }

    @Test func accountTakesACommaListAndRepeats() throws {
        let store = try Self.threeAccounts()
        func accounts(_ arguments: [String]) throws -> Set<String> {
            let run = try coffer(["transactions", "--store", store, "--format", "json"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            return Set(try jsonArray(run.stdout).compactMap { $0["accountID"] as? String })
        }
        let all = try accounts([])
        #expect(all.count == 3)
        let two = try accounts(["--account", "6789,1234"])
        #expect(two.count == 2)
        #expect(try accounts(["--account", "6789", "--account", "1234"]) == two, "a repeat adds, the last does not win")
        #expect(try accounts(["--account", "6789", "--account", "Vries"]).count == 2)
        // Balances and reconcile take the same.
        let balances = try coffer(["balances", "--store", store, "--format", "json", "--account", "6789,Vries"])
        #expect(Set(try jsonArray(balances.stdout).compactMap { $0["accountID"] as? String }).count == 2)
        let reconcile = try coffer(["reconcile", "--store", store, "--format", "json", "--account", "1234", "--account", "Vries"])
        #expect((try jsonObject(reconcile.stdout)["accounts"] as? [Any])?.count == 2, "\(reconcile.stdout)")
        // Where one account is meant, more than one is an error that says why, not a silent choice.
        let history = try coffer(["history", "--store", store, "--account", "6789,1234"])
        #expect(history.status == 64)
        #expect(history.stderr.contains("history follows one account"), "\(history.stderr)")
        let importing = try coffer(["import", "--store", store, "--account", "6789", "--account", "1234", packageRoot + "/feeds/ofx/quirks.ofx"])
        #expect(importing.status == 64)
        #expect(importing.stderr.contains("--account names the one account these statements are for; found 2"), "\(importing.stderr)")
    }

    @Test func anEmptyFolderOrOneOfTemporaryFilesSaysSo() throws {
        let folder = try temporaryFolder()
        let empty = folder + "/empty", temporary = folder + "/downloads"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        for name in [".DS_Store", "statement.ofx.crdownload", "export.csv.part", "notes.txt"] {
            try Self.write("x", temporary + "/" + name)
        }
        let run = try coffer(["import", "--store", folder + "/s.sqlite", "-v", empty])
        #expect(run.status == 0)
        #expect(run.stdout == "0 statement files found in \(empty)\n", "\(run.stdout)")
        let skipped = try coffer(["import", "--store", folder + "/s.sqlite", "-v", temporary])
        #expect(skipped.status == 0)
        #expect(skipped.stdout.hasPrefix("0 statement files found in \(temporary) (4 hidden, temporary or note file(s) skipped"), "\(skipped.stdout)")
        // Under cron (no terminal, no -v) an empty inbox is nothing to mail about.
        let quiet = try coffer(["import", "--store", folder + "/s.sqlite", empty])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    @Test func aPDFOrAWebPageSavedAsOFXIsNamedAsSuch() throws {
        let folder = try temporaryFolder()
        try Self.write("%PDF-1.7\n%\u{e2}\u{e3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", folder + "/in/march.ofx")
        try Self.write("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>
              Session expired | Lakeside Online Banking</title></head>
            <body><p>Your session has expired. Please sign in again.</p></body></html>
            """, folder + "/in/april.ofx")
        let run = try coffer(["import", "--store", folder + "/s.sqlite", folder + "/in"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(run.stderr)")
        #expect(lines.contains { $0.hasPrefix("coffer: \(folder)/in/march.ofx: a PDF document, not a statement file") }, "\(run.stderr)")
        #expect(lines.contains {
            $0.hasPrefix("coffer: \(folder)/in/april.ofx: an HTML web page (\"Session expired | Lakeside Online Banking\"), not a statement file")
        }, "\(run.stderr)")
        #expect(!run.stderr.contains("profile"), "no advice to add a CSV profile: \(run.stderr)")
    }

    @Test func watchOnceLogsEachFileItLeavesInTheInboxAndWhy() throws {
        let folder = try temporaryFolder()
        let inbox = folder + "/inbox"
        try Self.write("x", inbox + "/.~lock.export.csv#")
        try Self.write("x", inbox + "/statement.ofx.crdownload")
        try FileManager.default.copyItem(atPath: packageRoot + "/feeds/ofx/bank-ofx1-sgml.ofx", toPath: inbox + "/march.ofx")
        let run = try coffer(["watch", inbox, "--once", "--settle", "0", "--store", folder + "/s.sqlite", "--log-format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").compactMap { try? jsonObject(String($0)) }
        let left = lines.filter { $0["message"] as? String == "left in the inbox" }
        #expect(left.count == 2, "\(run.stderr)")
        let reasons = Dictionary(left.compactMap { line in (line["file"] as? String).map { ($0, line["reason"] as? String ?? "") } },
                                 uniquingKeysWith: { a, _ in a })
        #expect(reasons[inbox + "/.~lock.export.csv#"]?.hasPrefix("hidden file") == true, "\(reasons)")
        #expect(reasons[inbox + "/statement.ofx.crdownload"]?.hasPrefix("temporary name (.crdownload): still being written") == true, "\(reasons)")
        #expect(lines.contains { $0["message"] as? String == "imported" })
    }

    @Test func deliveryRunRunsAHookNow() throws {
        let store = try Self.threeAccounts()
        let folder = (store as NSString).deletingLastPathComponent
        let received = folder + "/received.json"
        #expect(try coffer(["delivery", "add", "budget", "--store", store, "--types", "transactions", "--frequency", "weekly",
                            "--exec", "cat > '\(received)'"]).status == 0)
        // New transactions after the hook was added: it is due for them, but a weekly hook would wait.
        try Self.write(Self.ofx(end: "20260320", transactions: [("L1", "20260318", "-9.99", "Corner Bakery")], ledger: "500.00", available: nil),
                       folder + "/lakeside.ofx")
        #expect(try coffer(["import", "--store", store, folder + "/lakeside.ofx"]).status == 0)
        let run = try coffer(["delivery", "run", "budget", "--store", store])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("budget: ok (types transactions, token "), "\(run.stdout)")
        let input = try jsonObject(try String(contentsOfFile: received, encoding: .utf8))
        #expect(input["hook"] as? String == "budget")
        let token = try #require(input["token"] as? String)
        // The token reads exactly what changed since the hook was added: the one new transaction.
        let history = try coffer(["history", "--store", store, "--since", token])
        let batches = history.stdout.split(separator: "\n").map { try? jsonObject(String($0)) }
        #expect(batches.compactMap { ($0?["inserted"] as? [Any])?.count }.reduce(0, +) == 1, "\(history.stdout)")
        // A failing hook exits 1; an unknown name lists the hooks.
        #expect(try coffer(["delivery", "add", "broken", "--store", store, "--types", "transactions", "--exec", "exit 3"]).status == 0)
        let broken = try coffer(["delivery", "run", "broken", "--store", store])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("broken: exit 3"), "\(broken.stdout)")
        let unknown = try coffer(["delivery", "run", "nope", "--store", store])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no delivery hook named nope (hooks: broken, budget)") || unknown.stderr.contains("(hooks: budget, broken)"),
                "\(unknown.stderr)")
    }

    @Test func latestBalancesGiveTheLatestBookedAndAvailableEachWithItsDate() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        // March: both balances. April: the bank sends only the booked one.
        try Self.write(Self.ofx(end: "20260315", transactions: [("A1", "20260310", "-20.00", "Grocer")], ledger: "1000.00", available: "950.00"),
                       folder + "/march.ofx")
        try Self.write(Self.ofx(end: "20260415", transactions: [("A2", "20260410", "-30.00", "Grocer")], ledger: "970.00", available: nil),
                       folder + "/april.ofx")
        #expect(try coffer(["import", "--store", store, folder + "/march.ofx", folder + "/april.ofx"]).status == 0)
        let table = try coffer(["balances", "--store", store, "--latest"])
        let lines = table.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(lines.first == ["ACCOUNT", "BOOKED", "BOOKED", "AS", "OF", "AVAILABLE", "AVAILABLE", "AS", "OF", "CURRENCY"], "\(table.stdout)")
        #expect(lines.count == 2)
        #expect(lines.last?.suffix(5) == ["970.00", "2026-04-15", "950.00", "2026-03-15", "USD"], "\(table.stdout)")
        let json = try jsonArray(try coffer(["balances", "--store", store, "--latest", "--format", "json"]).stdout)
        #expect(json.count == 1)
        let balance = try #require(json.first?["currentBalance"] as? [String: Any])
        #expect((balance["booked"] as? [String: Any])?["asOfDate"] as? String == "2026-04-15", "\(json)")
        #expect((balance["available"] as? [String: Any])?["asOfDate"] as? String == "2026-03-15", "\(json)")
    }

    @Test func infoPrintsEachFormatItNames() throws {
        let store = try Self.threeAccounts()
        let json = try jsonObject(try coffer(["info", "--store", store, "--format", "json"]).stdout)
        #expect(json["transactions"] as? Int == 14)
        let ndjson = try coffer(["info", "--store", store, "--format", "ndjson"]).stdout
        #expect(ndjson.split(separator: "\n").count == 1)
        #expect(try jsonObject(ndjson)["transactions"] as? Int == 14)
        let csv = try coffer(["info", "--store", store, "--format", "csv"]).stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(csv.count == 2)
        let row = Dictionary(uniqueKeysWithValues: zip(csv[0], csv[1]))
        #expect(row["transactions"] == "14" && row["accounts"] == "3" && row["path"] == store, "\(csv)")
    }

    @Test func transactionsCSVCarriesIdsDatesMerchantAndOriginalText() throws {
        let store = try Self.threeAccounts()
        let csv = try coffer(["transactions", "--store", store, "--format", "csv", "--account", "6789", "--text", "Müller"]).stdout
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.first == ["ID", "DATE", "POSTED", "ACCOUNT ID", "ACCOUNT", "AMOUNT", "CURRENCY", "STATUS", "TYPE", "MCC",
                                "MERCHANT", "DESCRIPTION", "ORIGINAL DESCRIPTION"], "\(csv)")
        #expect(lines.count == 2, "\(csv)")
        let row = Dictionary(uniqueKeysWithValues: zip(lines[0], lines[1]))
        let json = try #require(try jsonArray(try coffer(["transactions", "--store", store, "--format", "json", "--account", "6789",
                                                          "--text", "Müller"]).stdout).first)
        #expect(row["ID"] == json["id"] as? String)
        #expect(row["ACCOUNT ID"] == json["accountID"] as? String)
        #expect(row["DATE"] == "2026-03-01" && row["POSTED"]?.hasPrefix("2026-03-02") == true, "\(row)")
        #expect(row["AMOUNT"] == "-4.50")
        #expect(row["MERCHANT"] == json["merchantName"] as? String && row["MERCHANT"]?.isEmpty == false)
        #expect(row["ORIGINAL DESCRIPTION"] == json["originalTransactionDescription"] as? String)
    }
}
