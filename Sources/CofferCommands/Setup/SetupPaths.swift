import Foundation

/// Where `coffer init` and `coffer install` put things: the XDG base folders, the inbox the shipped unit and cron
/// lines watch, and the path of the running binary.
struct SetupPaths {
    var environment: [String: String]

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    var home: String { environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() }

    /// `$NAME` when it is an absolute path (the XDG rule: a relative value is ignored), else `home/fallback`.
    func xdg(_ name: String, _ fallback: String) -> String {
        if let value = environment[name], value.hasPrefix("/") { return value }
        return home + "/" + fallback
    }

    /// `$XDG_CONFIG_HOME` when it is set (to an absolute path), for the watch jobs' environment.
    var configHome: String? { environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } }

    /// `$XDG_CONFIG_HOME/coffer`, else `~/.config/coffer`.
    var configFolder: String { xdg("XDG_CONFIG_HOME", ".config") + "/coffer" }
    /// `$XDG_CONFIG_HOME/systemd/user`: where systemd looks for a user's own units.
    var systemdUserFolder: String { xdg("XDG_CONFIG_HOME", ".config") + "/systemd/user" }
    /// `$XDG_STATE_HOME/coffer`, else `~/.local/state/coffer`: the cron job's log.
    var stateFolder: String { xdg("XDG_STATE_HOME", ".local/state") + "/coffer" }
    /// The inbox `coffer watch` is pointed at by default: `~/Statements/inbox`.
    var defaultInbox: String { home + "/Statements/inbox" }

    /// The running `coffer` binary, symbolic links resolved (`/proc/self/exe`), so a unit or crontab line written
    /// by `coffer init` names the file that really exists.
    static var runningBinary: String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        let argument = CommandLine.arguments[0]
        let path = argument.hasPrefix("/") ? argument : FileManager.default.currentDirectoryPath + "/" + argument
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// `path` made absolute against the current folder, without a trailing slash.
    static func absolute(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let full = trimmed.hasPrefix("/") ? trimmed : FileManager.default.currentDirectoryPath + "/" + trimmed
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }

    /// Finds an executable on `$PATH`.
    func executable(named name: String) -> String? {
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = String(folder) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// What a setup step did, printed one line each: `created ~/.config/coffer`, `exists …`.
struct SetupLog {
    private(set) var changed = 0
    private(set) var lines: [String] = []
    let home: String

    init(home: String) { self.home = home }

    /// `path` with the home folder written as `~`.
    func short(_ path: String) -> String {
        path == home ? "~" : path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    mutating func created(_ what: String, _ path: String) {
        changed += 1
        printLine("created  \(short(path))\(what.isEmpty ? "" : "  (\(what))")")
    }

    mutating func kept(_ what: String, _ path: String) {
        printLine("exists   \(short(path))\(what.isEmpty ? "" : "  (\(what))")")
    }

    mutating func note(_ text: String) { printLine(text) }

    /// Something done that is not a file: `enabled and started coffer-watch.service`.
    mutating func did(_ text: String) {
        changed += 1
        printLine(text)
    }

    /// Creates a folder (and its parents) private to the user; says whether it was there.
    mutating func folder(_ path: String, _ what: String = "") throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw SetupError("\(path) exists and is not a folder") }
            kept(what, path)
            return
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        created(what, path)
    }

    /// Writes a file that does not exist yet; an existing one is never touched, whatever it holds.
    /// Returns whether it wrote.
    @discardableResult
    mutating func file(_ path: String, _ text: String, _ what: String = "", mode: Int = 0o600) throws -> Bool {
        if FileManager.default.fileExists(atPath: path) {
            kept(what, path)
            return false
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        created(what, path)
        return true
    }
}

/// A setup step that cannot be done; printed as `coffer: …`, exit 1.
struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
