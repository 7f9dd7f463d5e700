import ArgumentParser
import Coffer
import Foundation

/// `coffer init`: the folders and commented starting files a new user needs, and optionally the systemd unit or
/// crontab line that keeps the inbox imported.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create the configuration folder, the inbox and the store's folder.",
        discussion: """
            Creates $XDG_CONFIG_HOME/coffer (~/.config/coffer) with commented examples (a CSV profile, \
            merchants.local.yaml, accounts.yaml), the inbox (~/Statements/inbox) with its processed/ and failed/ \
            folders, and the folder of the store. What exists is left alone: a second run changes nothing and says so.
            --systemd writes ~/.config/systemd/user/coffer-watch.service for this binary and runs \
            systemctl --user daemon-reload and enable --now; --cron prints the crontab line instead.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The folder statements are saved into.", valueName: "folder")) var inbox: String?
    @Flag(help: "Write and enable the systemd user unit that runs coffer watch on the inbox.") var systemd = false
    @Flag(help: "Print the crontab line that processes the inbox every 15 minutes.") var cron = false

    func run() async throws {
        try await guarded {
            let paths = SetupPaths()
            var log = SetupLog(home: paths.home)
            let inbox = SetupPaths.absolute(inbox ?? paths.defaultInbox)
            let config = paths.configFolder
            // Only a path given to this command is written into the unit or cron line; else coffer's default.
            let explicitStore = storeOptions.store.map(SetupPaths.absolute) ?? ProcessInfo.processInfo.environment["COFFER_STORE"].flatMap {
                $0.isEmpty ? nil : SetupPaths.absolute($0)
            }
            let storePath = explicitStore ?? storeOptions.path

            try log.folder(config, "configuration")
            try log.folder(config + "/profiles", "your CSV profiles")
            try log.file(config + "/profiles/example-bank.yaml.example", ExampleFiles.csvProfile, "an example CSV profile: copy it to NAME.yaml")
            try log.file(config + "/merchants.local.yaml", ExampleFiles.merchantRules, "your merchant rules")
            try log.file(config + "/accounts.yaml", ExampleFiles.accounts, "your accounts' other identities")
            try log.folder(inbox, "the inbox: save statements here")
            try log.folder(inbox + "/processed", "imported files move here")
            try log.folder(inbox + "/failed", "files that failed move here, with NAME.error.txt")
            try log.folder((storePath as NSString).deletingLastPathComponent, "the store's folder")

            let binary = SetupPaths.runningBinary
            var failed = false
            if systemd {
                failed = !(try installUnit(paths: paths, log: &log, binary: binary, inbox: inbox, store: explicitStore))
            }
            if cron {
                try log.folder(paths.stateFolder, "the cron job's log")
                log.note("")
                log.note("Add this line to your crontab (crontab -e):")
                log.note(WatchJobs.cronLine(binary: binary, inbox: inbox, configHome: paths.configHome, store: explicitStore,
                                            log: paths.stateFolder + "/watch.log"))
            }
            if log.changed == 0 {
                log.note("Nothing to do: everything was already in place; nothing was changed.")
            } else if !systemd, !cron {
                log.note("")
                log.note("Next: coffer import FILE-OR-FOLDER, or keep the inbox imported with coffer init --systemd (or --cron).")
            }
            if failed { throw ExitCode(1) }
        }
    }

    /// Writes the unit (unless one exists) and enables it. Returns false when systemctl is missing or failed, after
    /// saying so and printing the commands to run.
    func installUnit(paths: SetupPaths, log: inout SetupLog, binary: String, inbox: String, store: String?) throws -> Bool {
        let folder = paths.systemdUserFolder
        let unitPath = folder + "/" + WatchJobs.unitName
        try log.folder(folder, "systemd user units")
        let text = WatchJobs.unit(binary: binary, inbox: inbox, configHome: paths.configHome, store: store)
        let wrote = try log.file(unitPath, text, "runs coffer watch on the inbox", mode: 0o644)
        if !wrote, (try? String(contentsOfFile: unitPath, encoding: .utf8)) != text {
            log.note("note: \(log.short(unitPath)) differs from what this coffer would write and is left as it is; "
                     + "remove it and run coffer init --systemd again to replace it.")
        }
        let commands = [["--user", "daemon-reload"], ["--user", "enable", "--now", WatchJobs.unitName]]
        func giveUp(_ why: String) -> Bool {
            FileHandle.standardError.write(Data("coffer: \(why); the unit is written but not enabled. Run:\n".utf8))
            for arguments in commands {
                FileHandle.standardError.write(Data(("  systemctl " + arguments.joined(separator: " ") + "\n").utf8))
            }
            return false
        }
        guard let systemctl = paths.executable(named: "systemctl") else { return giveUp("systemctl is not on PATH (no systemd here?)") }
        if !wrote, Self.run(systemctl, ["--user", "is-enabled", "--quiet", WatchJobs.unitName]).status == 0,
           Self.run(systemctl, ["--user", "is-active", "--quiet", WatchJobs.unitName]).status == 0 {
            log.note("exists   \(WatchJobs.unitName) enabled and running")
            return true
        }
        for arguments in commands {
            let result = Self.run(systemctl, arguments)
            guard result.status == 0 else {
                let detail = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
                return giveUp("systemctl \(arguments.joined(separator: " ")) failed (exit \(result.status))"
                              + (detail.isEmpty ? "" : ": " + detail.replacingOccurrences(of: "\n", with: " ")))
            }
        }
        log.did("enabled  \(WatchJobs.unitName), and started it (systemctl --user status coffer-watch)")
        log.note("To keep it running while you are logged out: loginctl enable-linger \"$USER\"")
        return true
    }

    /// Runs a program; its standard output and error together.
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (127, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
