import Foundation
import Testing

@Suite struct QueryCLITests {
    static func seeded() throws -> String {
        let store = try temporaryFolder() + "/s.sqlite"
        let run = try coffer(["import", "--store", store, "feeds"])
        #expect(run.status == 0, "\(run.stderr)")
        return store
    }

    @Test func transactionsFilterSortPageAndFormat() throws {
        let store = try Self.seeded()
        let all = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        #expect(all.count > 50)
        // JSON: FinanceKit names, case names, exact positive decimal strings beside the indicator.
        let first = try #require(all.first)
        #expect(first["creditDebitIndicator"] as? String == "credit" || first["creditDebitIndicator"] as? String == "debit")
        let amount = try #require((first["transactionAmount"] as? [String: Any])?["amount"] as? String)
        #expect(!amount.hasPrefix("-") && amount.contains("."))
        #expect(first["transactionType"] is String && first["status"] is String)

        let march = try jsonArray(try coffer(["transactions", "--store", store, "--from", "2026-03-01", "--to", "2026-03-05", "--format", "json"]).stdout)
        #expect(!march.isEmpty)
        #expect(march.allSatisfy { (($0["transactionDate"] as? String) ?? "") >= "2026-03-01" && (($0["transactionDate"] as? String) ?? "").prefix(10) <= "2026-03-05" })

        let groceries = try jsonArray(try coffer(["transactions", "--store", store, "--mcc", "5411", "--format", "json"]).stdout)
        #expect(!groceries.isEmpty && groceries.allSatisfy { $0["merchantCategoryCode"] as? Int == 5411 })

        let pending = try jsonArray(try coffer(["transactions", "--store", store, "--status", "pending", "--format", "json"]).stdout)
        #expect(pending.allSatisfy { $0["status"] as? String == "pending" })

        let big = try coffer(["transactions", "--store", store, "--sort", "amount:desc", "--limit", "3", "--format", "ndjson"])
        let lines = big.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let amounts = try lines.map { line -> Decimal in
            let object = try jsonObject(String(line))
            return Decimal(string: (object["transactionAmount"] as? [String: Any])?["amount"] as? String ?? "0") ?? 0
        }
        #expect(amounts == amounts.sorted(by: >))

        let page1 = try jsonArray(try coffer(["transactions", "--store", store, "--limit", "10", "--format", "json"]).stdout)
        let page2 = try jsonArray(try coffer(["transactions", "--store", store, "--limit", "10", "--offset", "10", "--format", "json"]).stdout)
        #expect(Set(page1.compactMap { $0["id"] as? String }).isDisjoint(with: page2.compactMap { $0["id"] as? String }))
        #expect(page1.compactMap { $0["id"] as? String } + page2.compactMap { $0["id"] as? String } == Array(all.prefix(20)).compactMap { $0["id"] as? String })

        let text = try jsonArray(try coffer(["transactions", "--store", store, "--text", "blue bottle", "--format", "json"]).stdout)
        #expect(!text.isEmpty)
        #expect(text.allSatisfy { (($0["originalTransactionDescription"] as? String) ?? "").lowercased().contains("blue bottle")
            || (($0["transactionDescription"] as? String) ?? "").lowercased().contains("blue bottle") })

        let table = try coffer(["transactions", "--store", store, "--limit", "5"])
        #expect(table.stdout.hasPrefix("DATE"))
        #expect(table.stdout.contains("-"), "debits show as minus for people")
        let csv = try coffer(["transactions", "--store", store, "--limit", "2", "--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").count == 3)

        let explain = try coffer(["transactions", "--store", store, "--from", "2026-03-01", "--status", "booked", "--explain"])
        #expect(explain.stdout.contains("transaction_date >= ?") && explain.stdout.contains("predicate: in SQLite"))
    }

    /// `--limit` pages print the cursor that continues them on stderr; `--after` walks every row once, in order,
    /// in any format, and a cursor is refused by another --sort.
    @Test func pagesWalkByCursor() throws {
        let store = try Self.seeded()
        func cursor(_ run: Run) -> String? {
            run.stderr.split(separator: "\n").last { $0.hasPrefix("coffer: next page: --after ") }
                .map { String($0.dropFirst("coffer: next page: --after ".count)) }
        }
        for sort in ["date", "amount:desc", "posted"] {
            let all = try jsonArray(try coffer(["transactions", "--store", store, "--sort", sort, "--format", "json"]).stdout)
                .compactMap { $0["id"] as? String }
            var walked: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let run = try coffer(["transactions", "--store", store, "--sort", sort, "--limit", "7", "--format", "ndjson"]
                                     + (after.map { ["--after", $0] } ?? []))
                #expect(run.status == 0, "\(run.stderr)")
                let lines = run.stdout.split(separator: "\n")
                walked += try lines.map { try jsonObject(String($0))["id"] as? String ?? "" }
                after = cursor(run)
                #expect(after == nil || lines.count == 7)
                pages += 1
            } while after != nil && pages < 100
            #expect(walked == all, "--sort \(sort): walking pages of 7 gives every row once, in order")
        }
        // Table output too: the cursor on stderr, the table alone on stdout.
        let first = try coffer(["transactions", "--store", store, "--limit", "3"])
        let next = try #require(cursor(first))
        #expect(!first.stdout.contains(next))
        let second = try coffer(["transactions", "--store", store, "--limit", "3", "--after", next, "--format", "json"])
        let firstIDs = try jsonArray(try coffer(["transactions", "--store", store, "--limit", "6", "--format", "json"]).stdout)
            .compactMap { $0["id"] as? String }
        #expect(try jsonArray(second.stdout).compactMap { $0["id"] as? String } == Array(firstIDs.suffix(3)))

        let otherSort = try coffer(["transactions", "--store", store, "--sort", "amount", "--after", next])
        #expect(otherSort.status != 0)
        #expect(otherSort.stderr.contains("another order"), "\(otherSort.stderr)")
        let garbled = try coffer(["transactions", "--store", store, "--after", "nonsense!"])
        #expect(garbled.status != 0)
        #expect(garbled.stderr.contains("not a cursor Coffer made"), "\(garbled.stderr)")
    }

    @Test func accountsBalancesAndInfo() throws {
        let store = try Self.seeded()
        let accounts = try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout)
        #expect(accounts.contains { $0["kind"] as? String == "liability" })
        let table = try coffer(["accounts", "--store", store]).stdout
        #expect(table.contains("••••"))
        #expect(!table.contains("5550001234"), "full account numbers are never shown")
        let balances = try jsonArray(try coffer(["balances", "--store", store, "--format", "json"]).stdout)
        #expect(!balances.isEmpty && balances.allSatisfy { $0["currentBalance"] is [String: Any] })
        let info = try coffer(["info", "--store", store])
        #expect(info.stdout.range(of: #"schema\s+v[0-9]+-"#, options: .regularExpression) != nil, "\(info.stdout)")
    }

    @Test func badStorePathsGiveOneLineAndNonZeroExit() throws {
        let folder = try temporaryFolder()
        let notes = folder + "/notes.txt"
        try "not a database".write(toFile: notes, atomically: true, encoding: .utf8)
        for (store, text) in [(folder, "is a folder"), (notes, "not a SQLite database"), (folder + "/missing.sqlite", "no Coffer store")] {
            let run = try coffer(["transactions", "--store", store])
            #expect(run.status == 1)
            #expect(run.stderr.contains(text), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "not a database")
        let importing = try coffer(["import", "--store", notes, "feeds/ofx/foreign.ofx"])
        #expect(importing.status == 1 && importing.stderr.contains("not a SQLite database"))
        // COFFER_STORE picks the store when --store is absent.
        let viaEnvironment = try coffer(["info"], environment: ["COFFER_STORE": folder])
        #expect(viaEnvironment.status == 1 && viaEnvironment.stderr.contains("is a folder"))
    }
}

/// The bank's own day in `coffer transactions`: a time is shown and filtered on the day of its own offset.
@Suite struct LocalDayCLITests {
    static let ofx = """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102

        <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
        <BANKACCTFROM><BANKID>1<ACCTID>555000111<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20260329<DTEND>20260402
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260331200000[-8:PST]<TRNAMT>-42.00<FITID>E1<NAME>NORTHWIND GROCERY</STMTTRN>
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260401<TRNAMT>-3.00<FITID>D1<NAME>DAY ONLY</STMTTRN>
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260330203000[-8:PST]<TRNAMT>-5.00<FITID>E0<NAME>DAY BEFORE</STMTTRN>
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260401003000[+2:CEST]<TRNAMT>-6.00<FITID>E2<NAME>EARLY IN BERLIN</STMTTRN>
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260314190000[-5:EST]<TRNAMT>-9.00<FITID>M1<NAME>LATE SHOW</STMTTRN>
        </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
        """

    @Test func anEveningInPSTIsDatedAndFoundOnItsOwnDay() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        try Self.ofx.write(toFile: folder + "/march.ofx", atomically: true, encoding: .utf8)
        let run = try coffer(["import", "--store", store, folder + "/march.ofx"])
        #expect(run.status == 0, "\(run.stderr)")

        let table = try coffer(["transactions", "--store", store, "--from", "2026-03-31", "--to", "2026-03-31"])
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(table.stdout)")
        #expect(lines.last?.hasPrefix("2026-03-31T20:00:00-08:00") == true, "\(table.stdout)")
        #expect(lines.last?.contains("Northwind") == true || lines.last?.contains("NORTHWIND") == true)

        // Sorted by the bank's day, then the instant: March 31 in Los Angeles (04:00 UTC on April 1) before April 1;
        // within April 1, 00:30 in Berlin (22:30 UTC the day before) before the date-only row (midnight UTC).
        let all = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        let dates = all.compactMap { $0["transactionDate"] as? String }
        #expect(dates == ["2026-03-14T19:00:00-05:00", "2026-03-30T20:30:00-08:00", "2026-03-31T20:00:00-08:00",
                          "2026-04-01T00:30:00+02:00", "2026-04-01"])
        // 19:00 EST is midnight UTC and still a time: JSON says so, with its offset.
        #expect(all.first?["timeZoneOffset"] as? Int == -18_000)

        // Every range finds exactly the rows whose own day is in it (what TransactionQuery.predicate(fromDay:
        // throughDay:) returns: LocalDayTests checks the library against the same rule).
        for (from, to) in [("2026-03-30", "2026-03-30"), ("2026-03-31", "2026-03-31"), ("2026-04-01", "2026-04-01"),
                           ("2026-03-31", "2026-04-01"), ("2026-03-14", "2026-03-14"), ("2026-03-15", "2026-03-29")] {
            let found = try jsonArray(try coffer(["transactions", "--store", store, "--from", from, "--to", to, "--format", "json"]).stdout)
            let expected = dates.filter { $0.prefix(10) >= from && $0.prefix(10) <= to }
            #expect(found.compactMap { $0["transactionDate"] as? String } == expected, "\(from)…\(to)")
        }
        let explain = try coffer(["transactions", "--store", store, "--from", "2026-03-31", "--to", "2026-03-31", "--explain"])
        #expect(explain.stdout.contains("local_day") && explain.stdout.contains("predicate: in SQLite"), "\(explain.stdout)")
    }

    /// A leaf command is parsed on its own first (`CofferCommand.parseCommandLine`, a tenth of a one-shot query's
    /// time): what does not parse so still gets the root's messages, naming `coffer <command>`.
    @Test func aLeafCommandsMessagesStillNameCoffer() throws {
        let bogus = try coffer(["transactions", "--bogus"])
        #expect(bogus.status == 64)
        #expect(bogus.stderr.contains("Unknown option '--bogus'") && bogus.stderr.contains("Usage: coffer transactions"), "\(bogus.stderr)")
        for flag in ["--help", "-h"] {  // ArgumentParser answers these with a help command of the leaf's own
            let help = try coffer(["transactions", flag])
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: coffer transactions"), "\(help.stdout)")
        }
        let value = try coffer(["info", "--store"])
        #expect(value.status == 64 && value.stderr.contains("coffer info"), "\(value.stderr)")
        // Commands with subcommands, and the root's own flags, take the root's parse.
        #expect(try coffer(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        let imports = try coffer(["imports", "list", "--bogus"])
        #expect(imports.stderr.contains("Usage: coffer imports list"), "\(imports.stderr)")
    }
}
