import ArgumentParser
import Coffer
import CofferServe
import CofferWatch
import Foundation
import Logging
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("Address and port to listen on.", valueName: "host:port")) var listen = "127.0.0.1:8750"
    @Option(help: ArgumentHelp("Also import statement files landing in this folder (as coffer watch INBOX does).", valueName: "inbox"))
    var watch: String?
    @Option(help: "Seconds between heartbeat comments on an open history stream.") var heartbeat: Double = 15
    @Option(help: ArgumentHelp("PEM certificates a saved order's signature must chain to (repeatable; $COFFER_ORDER_TRUST adds a file).",
                               valueName: "pem"))
    var trust: [String] = []
    @OptionGroup var configOptions: ConfigOptions

    func validate() throws {
        _ = try address()
        guard heartbeat > 0, heartbeat.isFinite else { throw ValidationError("--heartbeat must be a positive number of seconds") }
        if StoreOptions.clientToken != nil {
            throw ValidationError("COFFER_CLIENT_TOKEN is set: coffer serve is the store owner's command (its clients send their tokens)")
        }
    }

    /// `HOST:PORT`, `[v6]:PORT`, or `:PORT` (loopback).
    func address() throws -> (host: String, port: Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65_535).contains(port) else {
            throw ValidationError("--listen expects HOST:PORT such as 127.0.0.1:8750, not '\(listen)'")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    func run() async throws {
        try await guarded {
            let (host, port) = try address()
            // Read-write: a client's POST /v1/authorization records its request, and --watch imports.
            let store = try storeOptions.open(.readWrite)
            let logger = Logger(label: "coffer.serve")
            let server = CofferServer.application(
                owner: store, configuration: CofferServer.Configuration(host: host, port: port, heartbeat: .milliseconds(Int64(heartbeat * 1000)),
                                                         orderTrust: try OrdersCommand.Add.trustAnchors(trust)),
                logger: logger,
                onRunning: { port in
                    let shown = host.contains(":") ? "[\(host)]" : host
                    printLine("listening on http://\(shown):\(port)")
                })
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: server)]
            if let watch {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: watch, isDirectory: &isFolder), isFolder.boolValue else {
                    throw CofferError(.usage, "the inbox \(watch) is not a folder")
                }
                var importLogger = Logger(label: "coffer.import")
                importLogger.logLevel = .critical
                let importer = Importer(store: store, configuration: try configOptions.load(), logger: importLogger)
                services.append(.init(service: WatchService(importer: importer, configuration: WatchConfiguration(inbox: watch),
                                                            logger: Logger(label: "coffer.watch"))))
            }
            let secondSignal = Task { await WatchCommand.exitOnSecondSignal(logger: logger) }
            defer { secondSignal.cancel() }
            try await ServiceGroup(configuration: ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                                                                            logger: logger)).run()
        }
    }
}
