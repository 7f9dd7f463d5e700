import Foundation
import Testing

/// `coffer init` and `coffer install` in a temporary HOME, run as the real binary.
@Suite struct SetupCLITests {
    /// A temporary home and the environment a new user's shell would have there (no XDG overrides, no store).
    struct Home {
        let path: String
        var environment: [String: String]

        init() throws {
            path = try temporaryFolder() + "/home"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            // Empty values are ignored (XDG: only absolute paths count), so the defaults under HOME apply.
            environment = ["HOME": path, "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "", "XDG_STATE_HOME": "", "COFFER_CONFIG": ""]
        }

        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + relative) }
        func read(_ relative: String) throws -> String { try String(contentsOfFile: path + "/" + relative, encoding: .utf8) }

        /// A `systemctl` that records its arguments in HOME/systemctl.log and exits with `status`.
        func fakeSystemctl(status: Int = 0, message: String = "") throws -> String {
            let folder = path + "/fakebin"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let script = "#!/bin/sh\necho \"$*\" >> \"\(path)/systemctl.log\"\n"
                + (message.isEmpty ? "" : "echo '\(message)' >&2\n") + "exit \(status)\n"
            try script.write(toFile: folder + "/systemctl", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/systemctl")
            return folder
        }
    }

    /// The binary's real path, as init writes it into the unit and the crontab line.
    var realBinary: String { URL(fileURLWithPath: cofferBinary).resolvingSymlinksInPath().path }

    @Test func initCreatesTheFoldersAndCommentedExamplesAndASecondRunChangesNothing() throws {
        let home = try Home()
        let first = try coffer(["init"], environment: home.environment)
        #expect(first.status == 0, "\(first.stderr)")
        for folder in [".config/coffer", ".config/coffer/profiles", "Statements/inbox", "Statements/inbox/processed",
                       "Statements/inbox/failed", ".local/share/coffer"] {
            #expect(home.exists(folder), "\(folder)")
        }
        for file in [".config/coffer/profiles/example-bank.yaml.example", ".config/coffer/merchants.local.yaml", ".config/coffer/accounts.yaml"] {
            let text = try home.read(file)
            #expect(text.hasPrefix("#"), "\(file) starts with its explanation")
        }
        // Examples only: none of the 127 shipped merchant rules or the shipped profiles is copied.
        #expect(!home.exists(".config/coffer/merchants.yaml"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/.config/coffer/profiles") == ["example-bank.yaml.example"])
        #expect(first.stdout.contains("created  ~/Statements/inbox"))

        // The user edits a file; a second run keeps it and says nothing changed.
        let mine = "# mine\nversion: 1\nmerchants:\n  - {name: Corner Bakery, mcc: 5462, contains: [corner bakery]}\n"
        try mine.write(toFile: home.path + "/.config/coffer/merchants.local.yaml", atomically: true, encoding: .utf8)
        let second = try coffer(["init"], environment: home.environment)
        #expect(second.status == 0)
        #expect(second.stdout.contains("Nothing to do"), "\(second.stdout)")
        #expect(!second.stdout.contains("created"), "\(second.stdout)")
        #expect(try home.read(".config/coffer/merchants.local.yaml") == mine)

        // The configuration folder init made is one coffer reads: the files load (an import through it works).
        let run = try coffer(["import", "--store", home.path + "/s.sqlite", "--config", home.path + "/.config/coffer",
                              packageRoot + "/feeds/ofx/bank-ofx1-sgml.ofx"], environment: home.environment)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func theExampleProfileReadsTheExportItDescribes() throws {
        let home = try Home()
        #expect(try coffer(["init"], environment: home.environment).status == 0)
        let profile = home.path + "/.config/coffer/profiles/mybank.yaml"
        try FileManager.default.copyItem(atPath: home.path + "/.config/coffer/profiles/example-bank.yaml.example", toPath: profile)
        let export = home.path + "/export.csv"
        try """
            Booking date,Value date,Payee,Reference,Amount,Currency,Balance
            14.03.2026,14.03.2026,CAFE EXAMPLE,Card payment 1234,-4.50,EUR,1250.10
            15.03.2026,16.03.2026,Northwind Traders,Salary March,2000.00,EUR,3250.10

            """.write(toFile: export, atomically: true, encoding: .utf8)
        let run = try coffer(["parse", "--config", home.path + "/.config/coffer", "--format", "json", export], environment: home.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try jsonArray(run.stdout)
        #expect(rows.count == 2)
        #expect(rows.first?["transactionAmount"].flatMap { ($0 as? [String: Any])?["amount"] as? String } == "4.5"
                || rows.first?["transactionAmount"].flatMap { ($0 as? [String: Any])?["amount"] as? String } == "4.50")
        #expect(rows.first?["creditDebitIndicator"] as? String == "debit")
    }

    @Test func initRespectsXDGConfigHomeAndAnInboxOfYourChoice() throws {
        var home = try Home()
        home.environment["XDG_CONFIG_HOME"] = home.path + "/xdg"
        let run = try coffer(["init", "--inbox", home.path + "/Bank/drop"], environment: home.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(home.exists("xdg/coffer/accounts.yaml"))
        #expect(!home.exists(".config/coffer"))
        #expect(home.exists("Bank/drop/processed") && home.exists("Bank/drop/failed"))
        // The watch jobs pass the configuration home on: systemd's and cron's environment may lack it.
        home.environment["PATH"] = try home.fakeSystemctl()
        let jobs = try coffer(["init", "--inbox", home.path + "/Bank/drop", "--systemd", "--cron"], environment: home.environment)
        #expect(jobs.status == 0, "\(jobs.stderr)")
        #expect(try home.read("xdg/systemd/user/coffer-watch.service").contains("Environment=XDG_CONFIG_HOME=\(home.path)/xdg\n"))
        #expect(jobs.stdout.contains("*/15 * * * *  XDG_CONFIG_HOME=\(home.path)/xdg \(realBinary) watch \(home.path)/Bank/drop --once"),
                "\(jobs.stdout)")
    }

    @Test func systemdWritesTheUnitForThisBinaryAndEnablesIt() throws {
        var home = try Home()
        home.environment["PATH"] = try home.fakeSystemctl()
        let run = try coffer(["init", "--systemd"], environment: home.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let unit = try home.read(".config/systemd/user/coffer-watch.service")
        #expect(unit.contains("ExecStart=\(realBinary) watch \(home.path)/Statements/inbox --log-format json\n"), "\(unit)")
        #expect(!unit.contains("Environment="), "the default configuration folder needs no environment")
        #expect(unit.contains("ExecStartPre=mkdir -p \(home.path)/Statements/inbox"))
        #expect(unit.contains("WantedBy=default.target"))
        #expect(try home.read("systemctl.log") == "--user daemon-reload\n--user enable --now coffer-watch.service\n")

        // Again: the unit is left alone, and systemd is only asked whether it runs.
        let again = try coffer(["init", "--systemd"], environment: home.environment)
        #expect(again.status == 0)
        #expect(again.stdout.contains("Nothing to do"), "\(again.stdout)")
        let log = try home.read("systemctl.log").split(separator: "\n").dropFirst(2)
        #expect(Array(log) == ["--user is-enabled --quiet coffer-watch.service", "--user is-active --quiet coffer-watch.service"])
    }

    @Test func aFailingOrMissingSystemctlIsSaidClearlyWithTheCommandsToRun() throws {
        var home = try Home()
        home.environment["PATH"] = try home.fakeSystemctl(status: 1, message: "Failed to connect to bus: No medium found")
        let failing = try coffer(["init", "--systemd"], environment: home.environment)
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("systemctl --user daemon-reload failed (exit 1): Failed to connect to bus"), "\(failing.stderr)")
        #expect(failing.stderr.contains("  systemctl --user enable --now coffer-watch.service"))
        #expect(home.exists(".config/systemd/user/coffer-watch.service"), "the unit is written all the same")

        var bare = try Home()
        bare.environment["PATH"] = bare.path + "/nothing-here"
        let missing = try coffer(["init", "--systemd"], environment: bare.environment)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("systemctl is not on PATH"), "\(missing.stderr)")
        #expect(missing.stderr.contains("  systemctl --user daemon-reload"))
    }

    @Test func cronPrintsTheLineWithTheRealBinaryAndMakesItsLogFolder() throws {
        let home = try Home()
        let run = try coffer(["init", "--cron"], environment: home.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").last.map(String.init))
        #expect(line == "*/15 * * * *  \(realBinary) watch \(home.path)/Statements/inbox --once --log-format json "
                + "2>>\(home.path)/.local/state/coffer/watch.log")
        #expect(home.exists(".local/state/coffer"))
    }

    @Test func installCopiesTheBinaryManPageAndCompletions() throws {
        let home = try Home()
        let prefix = home.path + "/.local"
        let run = try coffer(["install", "--prefix", prefix], environment: home.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let installed = prefix + "/bin/coffer"
        #expect(FileManager.default.isExecutableFile(atPath: installed))
        #expect(FileManager.default.contents(atPath: installed) == FileManager.default.contents(atPath: realBinary))
        // The server `coffer serve` runs goes beside it, and the installed `coffer serve` finds it there.
        let server = prefix + "/bin/coffer-serve"
        #expect(FileManager.default.isExecutableFile(atPath: server))
        #expect(FileManager.default.contents(atPath: server)
                == FileManager.default.contents(atPath: URL(fileURLWithPath: realBinary).deletingLastPathComponent().path + "/coffer-serve"))
        #expect(try String(contentsOfFile: prefix + "/share/man/man1/coffer.1", encoding: .utf8)
                == String(contentsOfFile: packageRoot + "/docs/man/coffer.1", encoding: .utf8))
        #expect(try String(contentsOfFile: prefix + "/share/bash-completion/completions/coffer", encoding: .utf8) == coffer(["--generate-completion-script", "bash"]).stdout)
        #expect(try String(contentsOfFile: prefix + "/share/zsh/site-functions/_coffer", encoding: .utf8).hasPrefix("#compdef coffer"))
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/fish/vendor_completions.d/coffer.fish"))
        // The installed copy runs, and installing again changes nothing.
        let process = try Process.run(URL(fileURLWithPath: installed), arguments: ["--version"])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let again = try coffer(["install", "--prefix", prefix], environment: home.environment)
        #expect(again.stdout.contains("Nothing to do"), "\(again.stdout)")
    }

    /// The checked-in man page is made from the CLI's help; `scripts/generate-man.sh` writes both the page and that
    /// help (docs/man/coffer.help.json). When the command line changes, this fails until the page is regenerated.
    @Test func theManPageIsCurrent() throws {
        let help = try coffer(["--experimental-dump-help"])
        #expect(help.status == 0)
        let stored = try String(contentsOfFile: packageRoot + "/docs/man/coffer.help.json", encoding: .utf8)
        #expect(help.stdout == stored, "docs/man/coffer.1 is stale: run scripts/generate-man.sh")
        let page = try String(contentsOfFile: packageRoot + "/docs/man/coffer.1", encoding: .utf8)
        for command in ["import", "init", "install", "watch", "delivery", "balances"] {
            #expect(page.contains(".It Em \(command)"), "\(command)")
        }
    }
}
