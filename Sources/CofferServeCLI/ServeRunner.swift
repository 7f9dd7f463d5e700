import Coffer
import CofferCommands
import CofferServe
import CofferWatch
import Foundation
import Logging
import ServiceLifecycle

/// `coffer serve`'s work: the Hummingbird application over the store, and with `--watch` the drop-folder service,
/// in one service group that shuts down on SIGTERM or SIGINT.
enum ServeRunner {
    @Sendable static func serve(_ command: ServeCommand) async throws {
        let (host, port) = try command.address()
        // Read-write: a client's POST /v1/authorization records its request, and --watch imports.
        let store = try command.storeOptions.open(.readWrite)
        let logger = Logger(label: "coffer.serve")
        let server = CofferServer.application(
            owner: store, configuration: CofferServer.Configuration(host: host, port: port, heartbeat: .milliseconds(Int64(command.heartbeat * 1000)),
                                                                    orderTrust: try OrderTrustFiles.anchors(command.trust)),
            logger: logger,
            onRunning: { port in
                let shown = host.contains(":") ? "[\(host)]" : host
                printLine("listening on http://\(shown):\(port)")
            })
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: server)]
        if let watch = command.watch {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: watch, isDirectory: &isFolder), isFolder.boolValue else {
                throw CofferError(.usage, "the inbox \(watch) is not a folder")
            }
            var importLogger = Logger(label: "coffer.import")
            importLogger.logLevel = .critical
            let importer = Importer(store: store, configuration: try command.configOptions.load(), logger: importLogger)
            services.append(.init(service: WatchService(importer: importer, configuration: WatchConfiguration(inbox: watch),
                                                        logger: Logger(label: "coffer.watch"))))
        }
        let secondSignal = Task { await GracefulSignals.exitOnSecondSignal(logger: logger) }
        defer { secondSignal.cancel() }
        try await ServiceGroup(configuration: ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                                                                        logger: logger)).run()
    }
}
