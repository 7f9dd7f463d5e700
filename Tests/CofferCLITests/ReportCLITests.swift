import Foundation
import Testing

/// `coffer report` on the statements of Tests/Golden/reports (written for this test; its README has every figure
/// computed by hand): a checking, a savings and a card account in USD, a current account in EUR (CSV, with a pending
/// row), a transfer from checking to savings and a card payment (own transfers, both sides stored), refunds, an
/// MCC-less coffee shop a merchant rule categorizes, and an April statement whose balance is 10.00 short.
@Suite struct ReportCLITests {
    static let fixtures = packageRoot + "/Tests/Golden/reports"

    /// A store with the fixture statements imported (once per test: each has its own folder).
    struct Fixture {
        let folder: String
        var store: String { folder + "/store.sqlite" }

        init() throws {
            folder = try temporaryFolder()
            let files = try FileManager.default.contentsOfDirectory(atPath: ReportCLITests.fixtures)
                .filter { $0.hasSuffix(".ofx") || $0.hasSuffix(".csv") }.sorted().map { ReportCLITests.fixtures + "/" + $0 }
            let run = try coffer(["import", "--store", store, "--config", ReportCLITests.fixtures + "/config"] + files)
            #expect(run.status == 0, "\(run.stderr)")
        }

        /// `coffer` on the fixture store; the money reports read the fixture's configuration (its merchant rule).
        func run(_ arguments: [String]) throws -> Run {
            let configured = arguments.first == "report" && arguments.count > 1 && arguments[1] != "balance"
            return try coffer(arguments + ["--store", store] + (configured ? ["--config", ReportCLITests.fixtures + "/config"] : []))
        }

        func json(_ arguments: [String]) throws -> [String: Any] {
            let result = try run(arguments + ["--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try jsonObject(result.stdout)
        }
    }

    /// `{label: {currency: {field: value}}}` of a money report's JSON, and its totals.
    static func groups(_ document: [String: Any]) -> [String: [String: [String: String]]] {
        var result: [String: [String: [String: String]]] = [:]
        for group in document["groups"] as? [[String: Any]] ?? [] {
            let totals = group["totals"] as? [String: [String: Any]] ?? [:]
            result[group["label"] as? String ?? "?"] = totals.mapValues { $0.mapValues { "\($0)" } }
        }
        return result
    }

    static func total(_ document: [String: Any]) -> [String: [String: String]] {
        (document["total"] as? [String: [String: Any]] ?? [:]).mapValues { $0.mapValues { "\($0)" } }
    }

    @Test func spendingByCategoryMatchesTheHandComputedFigures() throws {
        let fixture = try Fixture()
        let report = try fixture.json(["report", "spending", "--by", "category"])
        #expect(report["currencies"] as? [String] == ["EUR", "USD"])
        let groups = Self.groups(report)
        // USD: groceries 15.00 + 82.40 + 30.00 - 20.00 refunded; entertainment 25.00 - 15.00 refunded on the card.
        #expect(groups["groceries"]?["USD"] == ["amount": "107.40", "count": "4", "spent": "127.40", "refunded": "20.00"])
        #expect(groups["groceries"]?["EUR"]?["amount"] == "92.50")      // 8.40 + 54.10 + 30.00; the pending coffee is not spending
        #expect(groups["entertainment"]?["USD"]?["amount"] == "10.00")
        #expect(groups["cash"]?["USD"]?["amount"] == "60.00")
        #expect(groups["dining"]?["USD"]?["amount"] == "45.00")
        #expect(groups["dining"]?["EUR"] == ["amount": "0.00", "count": "0", "spent": "0.00", "refunded": "0.00"])
        #expect(groups["fees"]?["USD"]?["amount"] == "12.00")
        #expect(groups["utilities"]?["USD"]?["amount"] == "9.99")
        // Blue Bottle has no MCC: the test's merchant rule says coffee.
        #expect(groups["coffee"]?["USD"] == ["amount": "4.50", "count": "1", "spent": "4.50", "refunded": "0.00"])
        #expect(groups["uncategorized"] == nil)
        // The card payment (300.00) and the transfer to savings (500.00) are own transfers: not spending.
        #expect(Self.total(report)["USD"] == ["amount": "248.89", "count": "11", "spent": "283.89", "refunded": "35.00"])
        #expect(Self.total(report)["EUR"]?["amount"] == "92.50")
        // Never summed across currencies: no group or total has a figure of both.
        #expect(Set(groups.keys) == ["groceries", "entertainment", "cash", "dining", "fees", "utilities", "coffee"])
    }

    @Test func spendingByMonthAndPendingRowsOnlyWhenAsked() throws {
        let fixture = try Fixture()
        let booked = try fixture.json(["report", "spending", "--by", "month"])
        let months = Self.groups(booked)
        #expect((booked["groups"] as? [[String: Any]])?.compactMap { $0["label"] as? String } == ["2026-02", "2026-03", "2026-04"])
        #expect(months["2026-02"]?["USD"]?["amount"] == "15.00")
        #expect(months["2026-03"]?["USD"]?["amount"] == "193.90")
        #expect(months["2026-04"]?["USD"]?["amount"] == "39.99")
        #expect(months["2026-03"]?["EUR"]?["amount"] == "62.50")
        #expect(months["2026-04"]?["EUR"]?["amount"] == "30.00")
        let withPending = try fixture.json(["report", "spending", "--by", "month", "--status", "pending,booked"])
        #expect(Self.groups(withPending)["2026-03"]?["EUR"] == ["amount": "68.70", "count": "3", "spent": "68.70", "refunded": "0.00"])
        #expect(withPending["statuses"] as? [String] == ["pending", "booked"])
        let pendingOnly = try fixture.json(["report", "spending", "--status", "pending"])
        #expect(Self.total(pendingOnly)["EUR"]?["amount"] == "6.20")
    }

    @Test func incomeLeavesOutTheTransferIntoSavings() throws {
        let fixture = try Fixture()
        let report = try fixture.json(["report", "income"])
        let groups = Self.groups(report)
        #expect(groups["salary"]?["USD"] == ["amount": "2500.00", "count": "1"])
        #expect(groups["interest"]?["USD"] == ["amount": "2.05", "count": "2"])     // 1.25 checking + 0.80 savings
        #expect(groups["uncategorized"]?["EUR"] == ["amount": "3100.00", "count": "1"])
        // The 500.00 deposit into savings came from checking: not income, though its type is deposit.
        #expect(Self.total(report)["USD"] == ["amount": "2502.05", "count": "3"])
        let byAccount = Self.groups(try fixture.json(["report", "income", "--by", "account"]))
        #expect(byAccount["Birchwood Bank ••••7788"]?["USD"]?["amount"] == "0.80")
    }

    @Test func cashflowInOutAndNetByMonth() throws {
        let fixture = try Fixture()
        let report = try fixture.json(["report", "cashflow"])
        #expect(report["by"] as? String == "month")
        let months = Self.groups(report)
        #expect(months["2026-02"]?["USD"] == ["in": "0.00", "out": "15.00", "net": "-15.00", "count": "1"])
        #expect(months["2026-03"]?["USD"] == ["in": "2502.05", "out": "193.90", "net": "2308.15", "count": "11"])
        #expect(months["2026-04"]?["USD"] == ["in": "0.00", "out": "39.99", "net": "-39.99", "count": "2"])
        #expect(months["2026-03"]?["EUR"] == ["in": "3100.00", "out": "62.50", "net": "3037.50", "count": "3"])
        #expect(Self.total(report)["USD"] == ["in": "2502.05", "out": "248.89", "net": "2253.16", "count": "14"])
    }

    @Test func balanceOverTimeSaysWhereTheStatementsDisagree() throws {
        let fixture = try Fixture()
        let report = try fixture.json(["report", "balance", "--account", "5566", "--by", "month"])
        let points = try #require(report["points"] as? [[String: Any]])
        #expect(points.map { $0["period"] as? String } == ["2026-02", "2026-03", "2026-04"])
        #expect(points.map { $0["balance"] as? String } == ["1000.00", "2517.35", "2467.36"])
        let disagreements = try #require(report["disagreements"] as? [[String: Any]])
        #expect(disagreements.count == 1)
        #expect(disagreements.first?["date"] as? String == "2026-04-30")
        #expect(disagreements.first?["expected"] as? String == "2477.36")   // 2517.35 - 30.00 - 9.99
        #expect(disagreements.first?["difference"] as? String == "-10.00")
        // By day: before a statement, its balance less what was booked after the day.
        let days = try fixture.json(["report", "balance", "--account", "5566", "--from", "2026-03-01", "--to", "2026-03-05"])
        #expect((days["points"] as? [[String: Any]])?.map { $0["balance"] as? String }
                == ["1000.00", "995.50", "913.10", "913.10", "3413.10"])
        let table = try fixture.run(["report", "balance", "--account", "5566"])
        #expect(table.stdout.contains("2026-04-30: the statement says 2467.36 USD; 2517.35 on 2026-03-31 plus 2 booked transaction(s) (-39.99) give 2477.36: they disagree by -10.00 USD"))
        let savings = try fixture.run(["report", "balance", "--account", "7788"])
        #expect(savings.stdout.contains("agree with the transactions"))
        let none = try fixture.run(["report", "balance", "--account", "Compte"])
        #expect(none.status == 64 && none.stderr.contains("no statement balance to start from"))
    }

    @Test func tablesCSVAndTop() throws {
        let fixture = try Fixture()
        let table = try fixture.run(["report", "spending", "--by", "merchant", "--top", "2"])
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("MERCHANT") == true)
        #expect(lines[1].hasPrefix("Greenleaf Market") && lines[1].contains("127.40") && lines[1].contains("█"))
        #expect(lines[2].hasPrefix("ATM Withdrawal"))
        #expect(lines[3].hasPrefix("TOTAL") && lines[3].contains("248.89"))
        #expect(table.stdout.contains("left out by --top"))
        #expect(!table.stdout.contains("\u{1B}["))    // not a terminal: no colour
        let csv = try fixture.run(["report", "cashflow", "--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").first == "MONTH,START,EUR IN,EUR OUT,EUR NET,EUR COUNT,USD IN,USD OUT,USD NET,USD COUNT")
        #expect(csv.stdout.contains("2026-03,2026-03-01,3100.00,62.50,3037.50,3,2502.05,193.90,2308.15,11"))
        let mcc = try fixture.json(["report", "spending", "--by", "mcc"])
        #expect(Self.groups(mcc)["5411 Grocery Stores, Supermarkets"]?["USD"]?["amount"] == "107.40")
        #expect(Self.groups(mcc)["none"]?["USD"]?["amount"] == "76.50")   // coffee 4.50 + fee 12.00 + ATM 60.00
        let svgWithoutFile = try fixture.run(["report", "spending", "--format", "svg"])
        #expect(svgWithoutFile.status == 64 && svgWithoutFile.stderr.contains("-o FILE"))
        let badGrouping = try fixture.run(["report", "balance", "--account", "5566", "--by", "category"])
        #expect(badGrouping.status == 64)
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let fixture = try Fixture()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        func onTerminal(_ environment: [String: String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = [cofferBinary, "report", "spending", "--store", fixture.store].map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = nil
            env["XDG_CONFIG_HOME"] = emptyConfigHome
            for (key, value) in environment { env[key] = value }
            process.environment = env
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let coloured = try onTerminal([:])
        #expect(coloured.contains("groceries") && coloured.contains("\u{1B}[33m"))
        let plain = try onTerminal(["NO_COLOR": "1"])
        #expect(plain.contains("groceries") && !plain.contains("\u{1B}["))
    }

    @Test func chartsRenderToPNGsThatAreNotBlank() throws {
        let fixture = try Fixture()
        let charts: [(String, [String])] = [
            ("spending-by-category", ["report", "spending", "--by", "category"]),
            ("spending-by-month", ["report", "spending", "--by", "month"]),
            ("cashflow", ["report", "cashflow"]),
            ("balance", ["report", "balance", "--account", "5566", "--by", "day"]),
        ]
        for (name, arguments) in charts {
            let svg = fixture.folder + "/\(name).svg", png = fixture.folder + "/\(name).png"
            let run = try fixture.run(arguments + ["--format", "svg", "-o", svg])
            #expect(run.status == 0, "\(run.stderr)")
            let text = try String(contentsOfFile: svg, encoding: .utf8)
            #expect(text.contains("width=\"800\" height=\"500\""))
            #expect(text.contains("USD"), "\(name): the currency is on the chart")
            #expect(name == "balance" ? text.contains("<polyline") : text.contains("<rect x="), "\(name): lines for a balance, bars for groups")
            let convert = try tool("/usr/bin/rsvg-convert", ["-w", "800", "-h", "500", svg, "-o", png])
            #expect(convert.status == 0, "rsvg-convert (Debian's librsvg2-bin) failed on \(name): \(convert.stderr)")
            let ink = try tool(python3(), [packageRoot + "/scripts/png-ink.py", png])
            let numbers = ink.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(numbers.count == 2 && numbers[0] > 5_000 && numbers[1] > 20, "\(name): \(ink.stdout) \(ink.stderr)")
        }
        if let keep = ProcessInfo.processInfo.environment["COFFER_KEEP_CHARTS"] {
            for name in charts.map(\.0) {
                try? FileManager.default.removeItem(atPath: keep + "/\(name).png")
                try FileManager.default.copyItem(atPath: fixture.folder + "/\(name).png", toPath: keep + "/\(name).png")
            }
        }
    }

    @Test func transactionsTakeDebitAndCredit() throws {
        let fixture = try Fixture()
        let debits = try jsonArray(try fixture.run(["transactions", "--debit", "--format", "json"]).stdout)
        let credits = try jsonArray(try fixture.run(["transactions", "--credit", "--format", "json"]).stdout)
        let all = try jsonArray(try fixture.run(["transactions", "--format", "json"]).stdout)
        #expect(debits.allSatisfy { $0["creditDebitIndicator"] as? String == "debit" } && debits.count == 15)
        #expect(credits.allSatisfy { $0["creditDebitIndicator"] as? String == "credit" } && credits.count == 8)
        #expect(debits.count + credits.count == all.count)
        let both = try fixture.run(["transactions", "--debit", "--credit"])
        #expect(both.status == 64 && both.stderr.contains("exclude each other"))
        let spentDebitsOnly = try fixture.json(["report", "spending", "--debit"])
        #expect(Self.total(spentDebitsOnly)["USD"]?["amount"] == "283.89")   // refunds are credits: left out
    }

    func tool(_ path: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    func python3() -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return path ?? "/usr/bin/python3"
    }
}
