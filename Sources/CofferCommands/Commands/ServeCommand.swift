import ArgumentParser
import Coffer
import Foundation

/// `coffer serve`: its options, checks and help live here, with every other command; the server itself is in the
/// coffer-serve executable, which sets `server` and parses this same command.
package struct ServeCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the store over HTTP to clients, each reading through its grant.",
        discussion: """
            Clients are programs other than the store's owner: coffer clients add NAME prints a client's bearer \
            token, coffer clients authorize NAME grants it accounts, earliest dates and data types. Every /v1 \
            request carries Authorization: Bearer TOKEN and reads only its client's grant; anything outside it \
            answers 404 exactly as what does not exist. JSON is the CLI's (FinanceKit's names); errors are \
            application/problem+json; GET /openapi.json describes every route.
            Listens on 127.0.0.1:8750 (--listen HOST:PORT; port 0 picks a free one, and the line 'listening on \
            http://HOST:PORT' on stdout says which). For TLS or another machine, put a reverse proxy in front \
            (docs/serve.md). --watch INBOX also runs coffer watch's import service in the same process.
            Runs until SIGTERM or SIGINT: open history streams end, requests in progress finish, and coffer exits 0.
            Examples:
              coffer serve
              coffer serve --listen 127.0.0.1:9000 --watch ~/Downloads/statements
              curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8750/v1/transactions?limit=20
            """)

    @OptionGroup package var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("Address and port to listen on.", valueName: "host:port")) package var listen = "127.0.0.1:8750"
    @Option(help: ArgumentHelp("Also import statement files landing in this folder (as coffer watch INBOX does).", valueName: "inbox"))
    package var watch: String?
    @Option(help: "Seconds between heartbeat comments on an open history stream.") package var heartbeat: Double = 15
    @Option(help: ArgumentHelp("PEM certificates a saved order's signature must chain to (repeatable; $COFFER_ORDER_TRUST adds a file).",
                               valueName: "pem"))
    package var trust: [String] = []
    @OptionGroup package var configOptions: ConfigOptions

    package func validate() throws {
        _ = try address()
        guard heartbeat > 0, heartbeat.isFinite else { throw ValidationError("--heartbeat must be a positive number of seconds") }
        if StoreOptions.clientToken != nil {
            throw ValidationError("COFFER_CLIENT_TOKEN is set: coffer serve is the store owner's command (its clients send their tokens)")
        }
    }

    /// `HOST:PORT`, `[v6]:PORT`, or `:PORT` (loopback).
    package func address() throws -> (host: String, port: Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65_535).contains(port) else {
            throw ValidationError("--listen expects HOST:PORT such as 127.0.0.1:8750, not '\(listen)'")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    /// The server itself, set by the `coffer-serve` executable (CofferServeCLI) before it parses its arguments.
    /// In `coffer` it stays nil: `run()` then hands the process to `coffer-serve` (see `ServeLauncher`).
    nonisolated(unsafe) package static var server: (@Sendable (ServeCommand) async throws -> Void)?

    package func run() async throws {
        if let server = Self.server {
            try await guarded { try await server(self) }
            return
        }
        // `coffer` does not link the HTTP server (Hummingbird, SwiftNIO): linked, its thousands of protocol
        // conformances slowed every other command's start by about 10% (docs/benchmarks.md). The arguments were
        // parsed and validated above, so a usage error still comes from `coffer serve` itself.
        try await guarded { try ServeLauncher.exec(arguments: ServeLauncher.serveArguments(CommandLine.arguments)) }
    }
}

/// How `coffer serve` becomes `coffer-serve`: the server binary installed beside `coffer` (`coffer install` copies
/// both), else the first `coffer-serve` on `PATH`, replaces this process with the same arguments and environment.
/// `execv` keeps the process id, so whoever started `coffer serve` (systemd, a test, a shell's job control) signals
/// and waits for the server itself. `coffer` installs no signal handlers for `serve`, so none is inherited.
package enum ServeLauncher {
    static let binaryName = "coffer-serve"

    /// `coffer`'s arguments from `serve` on: what `coffer-serve` parses (its root is `coffer`, as `coffer`'s is).
    static func serveArguments(_ arguments: [String]) -> [String] {
        guard let index = arguments.dropFirst().firstIndex(of: "serve") else { return ["serve"] + arguments.dropFirst() }
        return Array(arguments[index...])
    }

    /// The environment variable through which `coffer` tells `coffer-serve` its version; coffer-serve refuses to
    /// serve for another version (an old coffer-serve left on PATH or in an install folder) and removes the variable,
    /// so programs the server starts do not inherit it.
    package static let versionVariable = "COFFER_SERVE_FOR_VERSION"

    /// A regular file this user may execute (a folder named `coffer-serve` on PATH is skipped, as a shell skips it).
    static func isRunnable(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// Where `coffer-serve` sits beside `binary`.
    static func sibling(of binary: String) -> String {
        URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent(binaryName).path
    }

    /// `coffer-serve` beside the running binary (symbolic links resolved), else on `PATH`.
    static func serverBinary(beside binary: String = SetupPaths.runningBinary,
                             path: String = ProcessInfo.processInfo.environment["PATH"] ?? "") -> String? {
        if isRunnable(sibling(of: binary)) { return sibling(of: binary) }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + binaryName
            if isRunnable(candidate) { return candidate }
        }
        return nil
    }

    /// Never returns but by throwing: the binary is missing, or `execv` failed.
    static func exec(arguments: [String]) throws -> Never {
        let binary = SetupPaths.runningBinary
        guard let server = serverBinary(beside: binary) else {
            let sibling = sibling(of: binary)
            if FileManager.default.fileExists(atPath: sibling) {
                throw CofferError(.io, "coffer serve runs \(sibling), which is not an executable file (chmod +x it, or install again)")
            }
            throw CofferError(.io, "coffer serve runs the \(binaryName) binary, which is neither beside \(binary) nor on PATH: "
                              + "build it (swift build builds both) and install both (coffer install copies it beside coffer)")
        }
        setenv(versionVariable, CofferCommand.configuration.version, 1)
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        unsetenv(versionVariable)
        throw CofferError(.io, "cannot run \(server): \(reason)")
    }

    /// In coffer-serve, before anything else: the version of the `coffer` that exec'd it, if one did, must be this
    /// one's. (Run by hand, coffer-serve has nothing to compare.)
    package static func checkCallerVersion() -> String? {
        guard let expected = getenv(versionVariable).map({ String(cString: $0) }) else { return nil }
        unsetenv(versionVariable)
        let own = CofferCommand.configuration.version
        guard expected != own else { return nil }
        return "coffer serve (coffer \(expected)) found \(SetupPaths.runningBinary), which is coffer-serve \(own): install both "
            + "binaries of one version together (coffer install copies coffer-serve beside coffer)"
    }
}
