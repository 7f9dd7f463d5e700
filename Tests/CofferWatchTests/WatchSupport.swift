import CofferPipeline
import CofferStore
@testable import CofferWatch
import Foundation
import Logging
import Testing

/// The package root, found by walking up from this file to Package.swift.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.path + "/Package.swift") { return url.path }
        url.deleteLastPathComponent()
    }
    return FileManager.default.currentDirectoryPath
}()

/// The built `coffer` binary (`swift test` builds every product first).
/// The `coffer` built beside this test bundle (whatever the scratch path), else the usual one.
let cofferBinary: String = {
    let here = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
    for folder in [here, here.deletingLastPathComponent()] {
        let path = folder.appendingPathComponent("coffer").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return packageRoot + "/.build/debug/coffer"
}()

/// A fresh folder with a store, a configuration (shipped rules plus a small CSV test profile) and an inbox.
struct WatchBench {
    let folder: String
    let storePath: String
    let configPath: String
    let inbox: String
    var processed: String { inbox + "/processed" }
    var failed: String { inbox + "/failed" }

    static let testProfile = """
        id: watch-test-bank
        institution: Watch Test Bank
        match:
          header: [Date, Description, Amount, Status]
        date_format: yyyy-MM-dd
        columns:
          date: Date
          description: Description
          amount: Amount
          status: Status
        status_values:
          pending: pending
          booked: booked
        account:
          number: "DE02100100109307118603"
          kind: asset
          currency: EUR
          display_name: Watch Giro
        """

    init() throws {
        folder = NSTemporaryDirectory() + "coffer-watch-tests/" + UUID().uuidString
        let fm = FileManager.default
        configPath = folder + "/config"
        inbox = folder + "/inbox"
        storePath = folder + "/store.sqlite"
        try fm.createDirectory(atPath: configPath + "/profiles", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        for name in ["merchants.yaml", "categories.yaml", "institutions.yaml"] {
            try fm.copyItem(atPath: packageRoot + "/config/" + name, toPath: configPath + "/" + name)
        }
        try Self.testProfile.write(toFile: configPath + "/profiles/watch-test-bank.yaml", atomically: true, encoding: .utf8)
    }

    func openStore() throws -> FinanceStore { try FinanceStore(path: storePath) }

    func importer(_ store: FinanceStore) throws -> Importer {
        Importer(store: store, configuration: try CofferConfiguration.load(directory: configPath), logger: quietLogger)
    }

    /// A service on this bench's inbox, logging errors only.
    func service(_ store: FinanceStore, _ settings: WatchConfiguration) throws -> WatchService {
        WatchService(importer: try importer(store), configuration: settings, logger: quietLogger)
    }

    /// A fast-settling configuration for in-process services.
    func settings(once: Bool = false, settle: Duration = .milliseconds(300)) -> WatchConfiguration {
        var settings = WatchConfiguration(inbox: inbox)
        settings.settleTime = settle
        settings.pollInterval = .milliseconds(50)
        settings.rescanInterval = .seconds(2)
        settings.once = once
        return settings
    }

    /// Files (recursively) under a folder, relative names, sorted.
    func files(under path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
            .filter { !isDirectory(path + "/" + $0) }.sorted()
    }

    func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    func transactionCount(_ store: FinanceStore) async throws -> Int { try await store.info().transactions }
}

/// Tests log nothing below critical: the failures they provoke are expected.
let quietLogger: Logger = {
    var logger = Logger(label: "coffer.watch.tests")
    logger.logLevel = .critical
    return logger
}()

/// A CSV statement of `rows` transactions whose descriptions carry `tag`, so files never collide.
func statementCSV(tag: String, rows: Int, day: Int = 1) -> String {
    var text = "Date,Description,Amount,Status\n"
    text.reserveCapacity(rows * 40)
    for i in 0..<rows {
        text += "2026-01-\(String(format: "%02d", (day - 1 + i / 1000) % 28 + 1)),Shop \(tag) \(i),-\(i % 90 + 1).\(String(format: "%02d", i % 100)),booked\n"
    }
    return text
}

/// Writes statement files off the concurrency pool (big ones take seconds in a debug build, and other suites'
/// timing-sensitive tests share the pool).
func writeStatements(_ files: [(path: String, tag: String, rows: Int)]) async throws {
    try await WatchService.offPool {
        Result { for file in files { try statementCSV(tag: file.tag, rows: file.rows).write(toFile: file.path, atomically: false, encoding: .utf8) } }
    }.get()
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))  // sleep justified: a condition on files and processes, with a deadline
    }
    return try await condition()
}

/// A running `coffer` process with its standard error collected.
final class CofferProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var errorText = ""

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: cofferBinary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.errorText += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var stderr: String { lock.withLock { errorText } }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to end (at most `timeout`); its exit status, or nil when it is still running.
    func wait(timeout: Duration = .seconds(60)) async throws -> Int32? {
        _ = try await eventually(timeout: timeout) { !process.isRunning }
        return process.isRunning ? nil : process.terminationStatus
    }
}
