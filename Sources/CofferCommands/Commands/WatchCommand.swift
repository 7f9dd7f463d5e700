import ArgumentParser
import Coffer
import CofferWatch
import Foundation
import Logging
import ServiceLifecycle

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Import statement files as they land in a folder, and run delivery hooks.",
        discussion: """
            Runs until SIGTERM or SIGINT: the file in hand finishes (it commits or rolls back) and coffer exits 0; a \
            second signal exits at once (the store is safe: an unfinished import is an uncommitted transaction).
            A file is imported once its size and time stop changing for --settle seconds and no process has it \
            open for writing; temporary download names (.crdownload, .part, .tmp, ~$*, dotfiles) wait until renamed. \
            Imported and already-imported files move to PROCESSED/YYYY-MM-DD/, failed ones to FAILED/ with a \
            NAME.error.txt; nothing is deleted, and a name clash gets a " (2)" suffix.
            Delivery hooks (coffer delivery add) run when their data changed, at most once per their frequency.
            --once processes what is waiting, runs due hooks, and exits (for cron).
            """)

    enum LogFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The inbox folder.") var inbox: String
    @Option(help: "Where imported files move (default: INBOX/processed).") var processed: String?
    @Option(help: "Where failed files move (default: INBOX/failed).") var failed: String?
    @Flag(help: "Process what is waiting, then exit.") var once = false
    @Option(help: "Seconds between full rescans of the inbox (besides inotify).") var rescan: Double = 30
    @Option(help: "Seconds a file's size and time must hold still before it is imported.") var settle: Double = 2
    @Option(help: "Log format: text or json (one object per line).") var logFormat: LogFormat = .text
    @OptionGroup var configOptions: ConfigOptions
    @Option(help: "Seconds a delivery hook may run before SIGTERM.") var hookTimeout: Double = 60
    @Flag(help: "Do not run delivery hooks.") var noDelivery = false

    func validate() throws {
        guard rescan > 0, rescan.isFinite else { throw ValidationError("--rescan must be a positive number of seconds") }
        guard settle >= 0, settle.isFinite else { throw ValidationError("--settle must be zero or more seconds") }
        guard hookTimeout > 0, hookTimeout.isFinite else { throw ValidationError("--hook-timeout must be a positive number of seconds") }
    }

    func run() async throws {
        try await guarded {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: inbox, isDirectory: &isFolder), isFolder.boolValue else {
                throw CofferError(.usage, "the inbox \(inbox) is not a folder")
            }
            let configuration = try configOptions.load()
            let store = try storeOptions.open(.readWrite)
            let logger = Logger(label: "coffer.watch")
            var settings = WatchConfiguration(inbox: inbox, processed: processed, failed: failed)
            settings.once = once
            settings.rescanInterval = .milliseconds(Int64(rescan * 1000))
            settings.settleTime = .milliseconds(Int64(settle * 1000))
            settings.pollInterval = .milliseconds(min(250, max(20, Int64(settle * 250))))
            settings.hookTimeLimit = .milliseconds(Int64(hookTimeout * 1000))
            settings.runsDeliveryHooks = !noDelivery
            // The service logs each file with its result; the importer's own lines would repeat them.
            var importLogger = Logger(label: "coffer.import")
            importLogger.logLevel = .critical
            let service = WatchService(importer: Importer(store: store, configuration: configuration, logger: importLogger),
                                       configuration: settings, logger: logger)
            let secondSignal = Task { await GracefulSignals.exitOnSecondSignal(logger: logger) }
            defer { secondSignal.cancel() }
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                // With --once the service returns by itself: that ends the group normally.
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        }
    }
}
