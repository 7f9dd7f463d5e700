import Foundation
import Testing

/// The real `coffer` and its configuration layers: built-in defaults with nothing on disk, `--config` repeated,
/// `disable.yaml`, `coffer config show` and `coffer config rules --unused`.
@Suite struct ConfigCLITests {
    /// A checking account's OFX download, written for these tests: a coffee, a payroll credit and rent.
    static let ofx = """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102

        <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260315120000<FI><ORG>Lakeside Bank<FID>7788</FI></SONRS></SIGNONMSGSRSV1>
        <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
        <BANKACCTFROM><BANKID>121000358<ACCTID>5566778899<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20260301<DTEND>20260315
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260304<TRNAMT>-5.75<FITID>c1<NAME>STARBUCKS STORE 05519<MEMO>SEATTLE WA</STMTTRN>
        <STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260306<TRNAMT>3150.00<FITID>c2<NAME>GLOBEX CORP DIR DEP<MEMO>PPD ID 1234567890</STMTTRN>
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260307<TRNAMT>-1200.00<FITID>c3<NAME>RENT PAYMENT MAPLE PROPERTIES</STMTTRN>
        </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

        """

    static func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func transactions(_ store: String, environment: [String: String] = [:], in folder: String = packageRoot) throws -> [String: [String: Any]] {
        let run = try coffer(["transactions", "--store", store, "--format", "json"], environment: environment, currentDirectory: folder)
        #expect(run.status == 0, Comment(rawValue: run.stderr))
        return Dictionary(uniqueKeysWithValues: try jsonArray(run.stdout).map { ($0["originalTransactionDescription"] as? String ?? "", $0) })
    }

    @Test func anInstalledCopyHasTheBuiltInDefaultsWithNothingOnDisk() throws {
        // A copy of the binary elsewhere (as an install makes), an empty HOME, no ./config, no XDG_CONFIG_HOME.
        let folder = try temporaryFolder()
        let home = folder + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let installed = folder + "/bin/coffer"
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: cofferBinary, toPath: installed)
        try Self.write(folder + "/work/checking.ofx", Self.ofx)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: installed)
        process.arguments = ["import", "--store", folder + "/store.sqlite", folder + "/work/checking.ofx"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder + "/work")
        process.environment = ["HOME": home, "PATH": "/usr/bin:/bin"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, Comment(rawValue: stderr))
        let rows = try Self.transactions(folder + "/store.sqlite", environment: ["HOME": home], in: folder + "/work")
        #expect(rows["STARBUCKS STORE 05519"]?["merchantName"] as? String == "Starbucks")
        #expect(rows["STARBUCKS STORE 05519"]?["merchantCategoryCode"] as? Int == 5814)
        // The shipped CSV profiles too: config show lists them as built-in.
        let show = try coffer(["config", "show", "--format", "json"], environment: ["HOME": home, "XDG_CONFIG_HOME": ""],
                              currentDirectory: folder + "/work")
        let report = try jsonObject(show.stdout)
        #expect(report["layers"] as? [String] == ["built-in"])
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.contains { $0["kind"] as? String == "profile" && $0["id"] as? String == "chase-checking"
            && $0["source"] as? String == "built-in:profiles/chase-checking.yaml" })
    }

    @Test func repeatedConfigFoldersLayerInOrderAndAUserRuleNamesAPayrollCredit() throws {
        let folder = try temporaryFolder()
        let home = folder + "/config-home"
        try Self.write(home + "/coffer/merchants.yaml", "merchants:\n  - {id: rent, name: Rent (home), contains: rent payment}\n")
        try Self.write(folder + "/a/merchants.yaml", """
            merchants:
              - {id: globex-salary, name: Globex Payroll, contains: globex corp dir dep, direction: credit}
              - {id: rent, name: Rent (a), contains: rent payment}
            """)
        try Self.write(folder + "/b/merchants.yaml", "merchants:\n  - {id: rent, name: Maple Properties, contains: rent payment, amount: {min: 1000}}\n")
        try Self.write(folder + "/statement.ofx", Self.ofx)
        let environment = ["XDG_CONFIG_HOME": home]
        let store = folder + "/store.sqlite"
        let run = try coffer(["import", "--store", store, "--config", folder + "/a", "--config", folder + "/b", folder + "/statement.ofx"],
                             environment: environment)
        #expect(run.status == 0, Comment(rawValue: run.stderr))
        let rows = try Self.transactions(store)
        #expect(rows["GLOBEX CORP DIR DEP"]?["merchantName"] as? String == "Globex Payroll")
        #expect(rows["RENT PAYMENT MAPLE PROPERTIES"]?["merchantName"] as? String == "Maple Properties")
        #expect(rows["STARBUCKS STORE 05519"]?["merchantCategoryCode"] as? Int == 5814)

        let show = try coffer(["config", "show", "--config", folder + "/a", "--config", folder + "/b"], environment: environment)
        #expect(show.status == 0, Comment(rawValue: show.stderr))
        #expect(show.stdout.contains("Layers, lowest first: built-in, \(home)/coffer, \(folder)/a, \(folder)/b"))
        let rent = try #require(show.stdout.split(separator: "\n").first { $0.hasPrefix("rent ") })
        #expect(rent.contains("Maple Properties · contains rent payment · amount ≥ 1000"))
        #expect(rent.contains("\(folder)/b/merchants.yaml"))
        #expect(rent.contains("\(home)/coffer/merchants.yaml, \(folder)/a/merchants.yaml"))
        #expect(show.stdout.contains("built-in:merchants.yaml"))

        // $COFFER_CONFIG comes after every --config.
        try Self.write(folder + "/env/merchants.yaml", "merchants:\n  - {id: rent, name: Rent (env), contains: rent payment}\n")
        let json = try coffer(["config", "show", "--format", "json", "--config", folder + "/a"],
                              environment: environment.merging(["COFFER_CONFIG": folder + "/env"]) { $1 })
        let items = try #require(try jsonObject(json.stdout)["items"] as? [[String: Any]])
        let item = try #require(items.first { $0["kind"] as? String == "rule" && $0["id"] as? String == "rent" })
        #expect(item["source"] as? String == folder + "/env/merchants.yaml")
    }

    @Test func disableTurnsOffAShippedRuleAndAnUnknownIDIsAWarningNamingTheFile() throws {
        let folder = try temporaryFolder()
        try Self.write(folder + "/mine/disable.yaml", "disable: [starbucks, profile:amex, starbuks]\n")
        try Self.write(folder + "/statement.ofx", Self.ofx)
        let store = folder + "/store.sqlite"
        let run = try coffer(["import", "--store", store, "--config", folder + "/mine", folder + "/statement.ofx"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("coffer: warning: \(folder)/mine/disable.yaml: 'disable' names 'starbuks'"))
        let rows = try Self.transactions(store)
        // Without its rule the coffee keeps the cleaner's merchant text but gets no MCC.
        #expect(rows["STARBUCKS STORE 05519"] != nil)
        #expect(rows["STARBUCKS STORE 05519"]?["merchantCategoryCode"] == nil)
        let show = try coffer(["config", "show", "--config", folder + "/mine"])
        #expect(show.stdout.contains("Disabled (2)"))
        let disabled = show.stdout.components(separatedBy: "Disabled (2)")[1]
        #expect(disabled.split(separator: "\n").contains { $0.hasPrefix("rule") && $0.contains("starbucks") && $0.contains("built-in:merchants.yaml") })
        #expect(disabled.split(separator: "\n").contains { $0.hasPrefix("profile") && $0.contains("amex") })
        #expect(disabled.contains("\(folder)/mine/disable.yaml"))
        #expect(show.stdout.contains("Warnings"))
    }

    @Test func rulesUnusedSaysWhyARuleMatchedNothing() throws {
        let folder = try temporaryFolder()
        try Self.write(folder + "/mine/merchants.yaml", """
            merchants:
              - {id: globex-salary, name: Globex Payroll, contains: globex corp dir dep, direction: credit}
              - {id: big-rent, name: Maple Properties, contains: rent payment, amount: {min: 2000}}
              - {id: savings-interest, name: Savings Interest, contains: interest, account: Holiday Savings}
              - {id: gym, name: City Gym, contains: city gym}
            """)
        try Self.write(folder + "/statement.ofx", Self.ofx)
        let store = folder + "/store.sqlite"
        let config = ["--config", folder + "/mine"]
        #expect(try coffer(["import", "--store", store] + config + [folder + "/statement.ofx"]).status == 0)
        let unused = try coffer(["config", "rules", "--unused", "--store", store] + config)
        #expect(unused.status == 0, Comment(rawValue: unused.stderr))
        let lines = unused.stdout.split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("globex-salary") })
        let rent = try #require(lines.first { $0.hasPrefix("big-rent") })
        #expect(rent.contains("its words match 1 transaction, but not with its amount, direction or account"))
        let savings = try #require(lines.first { $0.hasPrefix("savings-interest") })
        #expect(savings.contains("names account 'Holiday Savings', which is no stored account's id or name"))
        let gym = try #require(lines.first { $0.hasPrefix("gym") })
        #expect(gym.contains("no stored transaction's text has 'city gym'"))
        #expect(gym.contains("\(folder)/mine/merchants.yaml"))
        #expect(lines.last?.contains("built-in rules match nothing stored (--include-built-in lists them)") == true)

        let all = try coffer(["config", "rules", "--format", "json", "--store", store] + config)
        let rows = try jsonArray(all.stdout)
        #expect(rows.first { $0["id"] as? String == "starbucks" }?["matches"] as? Int == 1)
        #expect(rows.first { $0["id"] as? String == "globex-salary" }?["matches"] as? Int == 1)
        #expect(rows.first { $0["id"] as? String == "starbucks" }?["source"] as? String == "built-in:merchants.yaml")
    }
}
