/// The systemd user unit and the crontab line that run `coffer watch` on the inbox, written with real paths.
enum WatchJobs {
    static let unitName = "coffer-watch.service"

    /// Single quotes for the shell when a path needs them.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@%,=".contains($0) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A path in a unit's command line: `%` is systemd's specifier character and doubles; spaces need quotes.
    static func unitQuoted(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "%", with: "%%")
        return escaped.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" })
            ? "\"" + escaped.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            : escaped
    }

    /// The user unit: `binary watch inbox --log-format json [--store …]`. The configuration is found where coffer
    /// always looks (`$XDG_CONFIG_HOME/coffer`, `~/.config/coffer`), so no `--config` names it a second time;
    /// a non-default `XDG_CONFIG_HOME` is passed on in the unit's environment (systemd's may lack it).
    static func unit(binary: String, inbox: String, configHome: String?, store: String?) -> String {
        var command = [binary, "watch", inbox, "--log-format", "json"].map(unitQuoted)
        if let store { command += ["--store", unitQuoted(store)] }
        let environment = configHome.map { "Environment=\(unitQuoted("XDG_CONFIG_HOME=" + $0))\n" } ?? ""
        return """
            # systemd user unit for `coffer watch`, written by `coffer init --systemd`.
            # It imports the statements saved into \(inbox), then moves them to processed/ or failed/ there.
            #   systemctl --user status coffer-watch       # is it running
            #   journalctl --user -u coffer-watch -f       # its log, one JSON object per line
            #   loginctl enable-linger "$USER"             # keep it running while you are logged out
            # `coffer init` never rewrites this file: remove it and run `coffer init --systemd` again for a new one.
            [Unit]
            Description=Coffer: import bank statements dropped into a folder

            [Service]
            Type=exec
            # Recreated if removed: coffer watch refuses an inbox that is not a folder.
            \(environment)ExecStartPre=mkdir -p \(unitQuoted(inbox))
            ExecStart=\(command.joined(separator: " "))
            # SIGTERM lets the file in hand finish (it commits or rolls back), then coffer exits 0.
            KillSignal=SIGTERM
            TimeoutStopSec=120
            Restart=on-failure
            RestartSec=10
            # Financial data is private: files coffer creates are readable by you only.
            UMask=0077
            NoNewPrivileges=yes

            [Install]
            WantedBy=default.target

            """
    }

    /// The crontab line: every 15 minutes, process the inbox and run due delivery hooks, logging to the state
    /// folder (cron mails what is printed; the log keeps the per-file lines out of the mail).
    static func cronLine(binary: String, inbox: String, configHome: String?, store: String?, log: String) -> String {
        var command = [binary, "watch", inbox, "--once", "--log-format", "json"]
        if let store { command += ["--store", store] }
        let environment = configHome.map { ["XDG_CONFIG_HOME=" + shellQuoted($0)] } ?? []
        // cron treats % as a newline: escape it.
        return "*/15 * * * *  " + (environment + command.map(shellQuoted) + ["2>>" + shellQuoted(log)]).joined(separator: " ")
            .replacingOccurrences(of: "%", with: "\\%")
    }
}
