import ArgumentParser
import Foundation

/// `coffer install --prefix ~/.local`: copies the running binary and `coffer-serve` beside it, the man page and the
/// shell completions.
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install", abstract: "Copy this coffer binary, its man page and shell completions under a prefix.",
        discussion: """
            PREFIX/bin/coffer and PREFIX/bin/coffer-serve, the server coffer serve runs, from beside this binary \
            (each replaced when it differs), PREFIX/share/man/man1/coffer.1, and completions: \
            PREFIX/share/bash-completion/completions/coffer, PREFIX/share/zsh/site-functions/_coffer and \
            PREFIX/share/fish/vendor_completions.d/coffer.fish. The man page is docs/man/coffer.1 of the checkout \
            the binary was built in (found from the binary's own path), or --man-page FILE.
              swift build -c release && .build/release/coffer install --prefix ~/.local
            """)

    // No default value here: it would be this user's home, written into the help and the man page.
    @Option(help: ArgumentHelp("Where to install (default: ~/.local).", valueName: "folder")) var prefix: String?
    @Option(help: ArgumentHelp("The man page to install (default: docs/man/coffer.1 of the binary's checkout).", valueName: "file"))
    var manPage: String?

    func run() throws {
        do {
            try install()
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error)
        }
    }

    func install() throws {
        let paths = SetupPaths()
        var log = SetupLog(home: paths.home)
        let prefix = SetupPaths.absolute(prefix ?? paths.home + "/.local")
        let binary = SetupPaths.runningBinary

        try log.folder(prefix + "/bin")
        try replace(prefix + "/bin/coffer", with: try Data(contentsOf: URL(fileURLWithPath: binary)), mode: 0o755, log: &log)
        // `coffer serve` runs coffer-serve from beside coffer, so it goes where coffer goes.
        if let server = ServeLauncher.serverBinary(beside: binary, path: "") {
            try replace(prefix + "/bin/" + ServeLauncher.binaryName, with: try Data(contentsOf: URL(fileURLWithPath: server)), mode: 0o755,
                        log: &log)
        } else if FileManager.default.fileExists(atPath: prefix + "/bin/" + ServeLauncher.binaryName) {
            log.note("no \(ServeLauncher.binaryName) beside this binary: \(log.short(prefix + "/bin/" + ServeLauncher.binaryName)) is left "
                     + "from an earlier install, and coffer serve refuses it unless its version is this coffer's")
        } else {
            log.note("no \(ServeLauncher.binaryName) beside this binary: coffer serve will not run until it is installed in \(log.short(prefix + "/bin"))")
        }

        let page = manPage.map(SetupPaths.absolute) ?? Self.checkoutManPage(near: binary)
        if let page {
            try log.folder(prefix + "/share/man/man1")
            try replace(prefix + "/share/man/man1/coffer.1", with: try Data(contentsOf: URL(fileURLWithPath: page)), mode: 0o644, log: &log)
        } else {
            log.note("no man page: this binary is not inside a checkout with docs/man/coffer.1; give --man-page FILE")
        }

        for (shell, folder, name) in [(CompletionShell.bash, "bash-completion/completions", "coffer"),
                                      (.zsh, "zsh/site-functions", "_coffer"),
                                      (.fish, "fish/vendor_completions.d", "coffer.fish")] {
            try log.folder(prefix + "/share/" + folder)
            // As `coffer --generate-completion-script SHELL > FILE` writes it: ending with a newline.
            let script = CofferCommand.completionScript(for: shell)
            try replace(prefix + "/share/\(folder)/\(name)", with: Data((script.hasSuffix("\n") ? script : script + "\n").utf8), mode: 0o644, log: &log)
        }
        if log.changed == 0 { log.note("Nothing to do: everything installed was already up to date.") }
        if !(paths.environment["PATH"] ?? "").split(separator: ":").contains(Substring(prefix + "/bin")) {
            log.note("note: \(log.short(prefix + "/bin")) is not on your PATH")
        }
    }

    /// Writes `data` at `path` unless it already holds exactly that; a new version replaces the old one by rename,
    /// so a running coffer keeps its file.
    func replace(_ path: String, with data: Data, mode: Int, log: inout SetupLog) throws {
        if let existing = FileManager.default.contents(atPath: path), existing == data {
            log.kept("up to date", path)
            return
        }
        let temporary = path + ".installing-\(getpid())"
        try data.write(to: URL(fileURLWithPath: temporary))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw SetupError("cannot write \(path): \(reason)")
        }
        log.created("", path)
    }

    /// `docs/man/coffer.1` in a folder above the binary (a checkout's `.build/release/coffer`), if there is one.
    static func checkoutManPage(near binary: String) -> String? {
        var folder = URL(fileURLWithPath: binary).deletingLastPathComponent()
        while folder.path != "/" {
            let page = folder.appendingPathComponent("docs/man/coffer.1").path
            if FileManager.default.fileExists(atPath: page) { return page }
            folder.deleteLastPathComponent()
        }
        return nil
    }
}
