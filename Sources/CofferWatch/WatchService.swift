import CofferPipeline
import CofferStore
import Foundation
import Logging
import ServiceLifecycle

/// The drop-folder service: imports each statement file that lands in the inbox, then moves it away; runs the
/// store's delivery hooks when their data changed.
///
/// For example:
/// ```swift
/// let service = WatchService(importer: Importer(store: store, configuration: configuration),
///                            configuration: WatchConfiguration(inbox: "/srv/inbox"), logger: logger)
/// try await ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [.sigterm, .sigint],
///                                             logger: logger)).run()
/// ```
/// New files are noticed through inotify and a periodic rescan; what is waiting at start is processed first. A
/// file is imported once it is stable (see `InboxScanner`), each file in its own SQLite transaction, in name
/// order (banks name statements by date; unzipped archives keep their names) with modification time breaking
/// ties. Graceful shutdown lets the file in hand finish (commit or roll back) and then returns.
public struct WatchService: Service {
    /// The importer each inbox file goes through (and its store).
    public let importer: Importer
    /// The folders and timings.
    public let configuration: WatchConfiguration
    /// The clock that paces rescans and settle checks (a test clock in tests).
    public let clock: any WatchClock
    /// Runs the store's delivery hooks after imports; nil when hooks are off.
    public let delivery: DeliveryScheduler?
    let logger: Logger

    /// `delivery` defaults to a scheduler for the importer's store (command hooks only) when
    /// `configuration.runsDeliveryHooks`; pass one with an `appExtension` to receive the app hook in-process.
    public init(importer: Importer, configuration: WatchConfiguration, clock: any WatchClock = SystemWatchClock(),
                delivery: DeliveryScheduler? = nil, logger: Logger = Logger(label: "coffer.watch")) {
        self.importer = importer
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        if configuration.runsDeliveryHooks {
            self.delivery = delivery ?? DeliveryScheduler(store: importer.store, timeLimit: configuration.hookTimeLimit,
                                                          gracePeriod: configuration.hookGracePeriod, logger: logger)
        } else {
            self.delivery = nil
        }
    }

    public func run() async throws {
        let inbox = Self.canonical(configuration.inbox)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: inbox, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CofferError(.usage, "the inbox \(configuration.inbox) is not a folder")
        }
        let watcher = InotifyWatcher(folder: inbox)
        var scanner = InboxScanner(inbox: inbox, settleTime: configuration.settleTime.seconds)
        var tally = WatchTally()
        var lastRescan: Date?
        var lastDeliveryCheck: Date?
        // Files this run left in the inbox, and why: reported at the end of --once.
        var leftBehind: [String: String] = [:]
        logger.info("watching", metadata: [
            "inbox": "\(inbox)", "processed": "\(configuration.processed)", "failed": "\(configuration.failed)",
            "inotify": "\(watcher != nil)", "once": "\(configuration.once)",
        ])
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let now = clock.now()
            var scan = watcher?.drain() ?? false
            if lastRescan.map({ now.timeIntervalSince($0) >= configuration.rescanInterval.seconds }) ?? true {
                scan = true
                lastRescan = now
            }
            if scan || scanner.hasWaiting {
                // Listing, stat and the /proc sweep block: they run off the concurrency pool.
                let (checked, ready, open) = await Self.offPool { [scanner] in
                    var scanner = scanner
                    let ready = scanner.settled(at: now)
                    let open = ready.isEmpty ? [] : OpenForWriting.check(Set(ready.map { inbox + "/" + $0 }))
                    return (scanner, ready, open)
                }
                scanner = checked
                for name in ready {
                    if Task.isCancelled || Task.isShuttingDownGracefully { break }
                    scanner.forget(name)
                    let path = inbox + "/" + name
                    if open.contains(path) {
                        logger.debug("still open for writing", metadata: ["file": "\(path)"])
                        leftBehind[name] = "still open for writing by another process"
                        continue
                    }
                    leftBehind[name] = nil
                    leftBehind[name] = await process(path, tally: &tally)
                }
            }
            if let delivery, lastDeliveryCheck.map({ clock.now().timeIntervalSince($0) >= 1 }) ?? true {
                lastDeliveryCheck = clock.now()
                _ = await delivery.runDue(at: clock.now())
            }
            if configuration.once, !scanner.hasWaiting { break }
            try? await clock.sleep(for: configuration.pollInterval)
        }
        if configuration.once { logLeftBehind(inbox, known: leftBehind) }
        if configuration.once, let delivery, !Task.isCancelled {
            // What was just imported may make hooks due.
            _ = await delivery.runDue(at: clock.now())
        }
        logger.info("stopped", metadata: tally.metadata)
    }

    /// `--once`: each file still in the inbox, and why it was left there (a temporary or hidden name, open for
    /// writing, the store unavailable), so a person reading the log knows what the next run will find.
    func logLeftBehind(_ inbox: String, known: [String: String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: inbox) else { return }
        for name in names.sorted() {
            let path = inbox + "/" + name
            guard InboxScanner.observe(path) != nil else { continue }   // folders (processed/, failed/), gone files
            let reason = InboxScanner.ignoreReason(name) ?? known[name] ?? "still changing or arrived during the run; imported at the next run"
            logger.notice("left in the inbox", metadata: ["file": "\(path)", "reason": "\(reason)"])
        }
    }

    /// Imports one stable file and moves it where it belongs; when it stays in the inbox, returns why.
    @discardableResult
    func process(_ path: String, tally: inout WatchTally) async -> String? {
        logger.info("importing", metadata: ["file": "\(path)"])
        let report = await Self.offPool { importer.importFile(path, options: configuration.importOptions) }
        var metadata: Logger.Metadata = [
            "file": "\(path)", "result": "\(report.status.rawValue)", "format": "\(report.format ?? "")",
            "inserted": .stringConvertible(report.inserted), "updated": .stringConvertible(report.updated),
            "deleted": .stringConvertible(report.deleted), "unchanged": .stringConvertible(report.unchanged),
            "seconds": .stringConvertible((report.seconds * 1000).rounded() / 1000),
        ]
        do {
            switch report.status {
            case .imported, .dryRun:
                tally.imported += 1
                // Orders whose payment this file brought are linked to it (a receipt often arrives first).
                if report.status == .imported, report.inserted + report.updated > 0 {
                    do {
                        let linked = try await importer.store.linkOrders()
                        if linked > 0 { metadata["ordersLinked"] = .stringConvertible(linked) }
                    } catch {
                        logger.warning("linking orders failed; the next import tries again", metadata: ["error": "\(error)"])
                    }
                }
                metadata["movedTo"] = "\(try FileMover.move(path, into: FileMover.datedFolder(configuration.processed, clock.now())))"
                logger.info("imported", metadata: metadata.merging(tally.metadata) { a, _ in a })
            case .alreadyImported:
                tally.alreadyImported += 1
                metadata["movedTo"] = "\(try FileMover.move(path, into: FileMover.datedFolder(configuration.processed, clock.now())))"
                logger.notice("already imported (byte-identical file); moved to processed", metadata: metadata.merging(tally.metadata) { a, _ in a })
            case .failed:
                let error = report.error ?? CofferError(.internal, "import failed", location: SourceLocation(file: path))
                let line = error.description
                metadata["error"] = "\(line)"
                metadata["code"] = "\(error.code)"
                switch FailedFileAction(error.code) {
                case .retry:
                    tally.retrying += 1
                    logger.warning("transient failure; the file stays in the inbox and is retried", metadata: metadata)
                    return "a transient failure (\(line)); retried at the next scan"
                case .keep:
                    tally.retrying += 1
                    logger.error("store unavailable; the file stays in the inbox and is retried", metadata: metadata)
                    return "the store was unavailable (\(line)); retried at the next run"
                case .skip:
                    logger.notice("the file vanished before it was imported", metadata: metadata)
                case .quarantine:
                    tally.failed += 1
                    let moved = try FileMover.move(path, into: configuration.failed)
                    try Data(("coffer: " + line + "\n").utf8).write(to: URL(fileURLWithPath: moved + ".error.txt"), options: .withoutOverwriting)
                    metadata["movedTo"] = "\(moved)"
                    logger.error("import failed; moved to failed", metadata: metadata.merging(tally.metadata) { a, _ in a })
                }
            }
        } catch {
            metadata["error"] = "\(error)"
            logger.error("cannot move the file out of the inbox", metadata: metadata)
            return "it could not be moved out of the inbox: \(error)"
        }
        return nil
    }

    /// Runs blocking work (an import, a folder scan) on its own thread, so the concurrency pool stays free for
    /// signals, timers and whatever else the process runs.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    /// The absolute path with symbolic links resolved, as `/proc/PID/fd` links show it.
    static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Files handled since the service started.
struct WatchTally {
    var imported = 0
    var alreadyImported = 0
    var failed = 0
    var retrying = 0

    var metadata: Logger.Metadata {
        ["totalImported": .stringConvertible(imported), "totalAlreadyImported": .stringConvertible(alreadyImported),
         "totalFailed": .stringConvertible(failed)]
    }
}
