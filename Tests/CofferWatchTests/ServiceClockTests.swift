import CofferPipeline
import CofferStore
@testable import CofferWatch
import Foundation
import Testing

/// A clock the test owns: sleeping advances it instantly.
final class ManualClock: WatchClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    func now() -> Date { lock.withLock { current } }

    func sleep(for duration: Duration) async throws {
        lock.withLock { current = current.addingTimeInterval(duration.seconds) }
        await Task.yield()
    }
}

/// The service itself on an injected clock: settle time and delivery frequency pass without waiting.
@Suite("Watch service clock")
struct ServiceClockTests {
    @Test("with the default 2 s settle time and an hourly hook, the service's clock decides, not real time")
    func injectedClock() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        let out = bench.folder + "/hook.json"
        try store.saveDeliveryHook(DeliveryHook(name: "h", types: [.transactions], frequency: .hourly, command: "cat >> '\(out)'"))
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        var settings = WatchConfiguration(inbox: bench.inbox)
        settings.once = true
        #expect(settings.settleTime == .seconds(2))

        try statementCSV(tag: "c1", rows: 2).write(toFile: bench.inbox + "/a.csv", atomically: false, encoding: .utf8)
        let started = Date()
        let service = WatchService(importer: try bench.importer(store), configuration: settings, clock: clock, logger: quietLogger)
        try await service.run()
        // Real time would take the settle time and an hour; on two busy cores (the suite runs CPU-heavy property
        // tests beside this one) the yields of the manual clock can take tens of seconds, never an hour.
        #expect(Date().timeIntervalSince(started) < 300)
        #expect(try await store.imports().count == 1)
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 1)

        // A second file inside the hour: imported, but the hook waits.
        try statementCSV(tag: "c2", rows: 2).write(toFile: bench.inbox + "/b.csv", atomically: false, encoding: .utf8)
        try await service.run()
        #expect(try await store.imports().count == 2)
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 1)

        // An hour later (on the service's clock) it runs.
        try await clock.sleep(for: .seconds(3600))  // the test clock's sleep: moves its time, waits for nothing
        try await service.run()
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 2)
    }
}
