import CofferPipeline
import CofferStore
@testable import CofferWatch
import Foundation
import Testing

/// Background delivery, driven by the time passed to `runDue(at:)`, not by sleeping.
@Suite("Delivery hooks")
struct DeliveryTests {
    /// Whether a process has exited and waits to be reaped (a zombie holds its pid, but is no longer running).
    static func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A hook that saves its standard input to `out-N.json`, numbered per run, and exits with `status`.
    func recorder(_ bench: WatchBench, status: Int = 0) -> String {
        "n=$(ls \(bench.folder)/out-*.json 2>/dev/null | wc -l); cat > \(bench.folder)/out-$n.json; exit \(status)"
    }

    func deliveries(_ bench: WatchBench) throws -> [Delivery] {
        let names = try FileManager.default.contentsOfDirectory(atPath: bench.folder).filter { $0.hasPrefix("out-") }.sorted()
        return try names.map { try JSONDecoder().decode(Delivery.self, from: Data(contentsOf: URL(fileURLWithPath: bench.folder + "/" + $0))) }
    }

    func importStatement(_ bench: WatchBench, _ store: FinanceStore, tag: String, rows: Int = 3) throws {
        let path = bench.folder + "/\(tag).csv"
        try statementCSV(tag: tag, rows: rows).write(toFile: path, atomically: false, encoding: .utf8)
        let report = try bench.importer(store).importFile(path)
        #expect(report.status == .imported)
    }

    func transactionsSince(_ token: HistoryToken, _ store: FinanceStore) async throws -> [String] {
        var out: [String] = []
        for try await changes in store.allTransactionHistory(since: token, isMonitoring: false) {
            out += changes.inserted.map(\.originalTransactionDescription)
        }
        return out.sorted()
    }

    @Test("no change, no run; a change runs once with its types and a token that reads exactly the new changes")
    func changeRunsOnce() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        try importStatement(bench, store, tag: "before")
        try store.saveDeliveryHook(DeliveryHook(name: "sync", types: [.transactions, .accountBalances], frequency: .hourly, command: recorder(bench)))
        let scheduler = DeliveryScheduler(store: store, logger: quietLogger)
        #expect(await scheduler.runDue(at: t0).isEmpty)

        try importStatement(bench, store, tag: "after", rows: 2)
        let runs = await scheduler.runDue(at: t0)
        #expect(runs.map(\.status) == ["ok"])
        let delivered = try deliveries(bench)
        #expect(delivered.count == 1)
        #expect(delivered.first?.types == [.transactions])
        #expect(delivered.first?.store == WatchConfiguration.absolute(store.path))
        let token = try #require(delivered.first?.token)
        #expect(try await transactionsSince(token, store) == ["Shop after 0", "Shop after 1"])
        // Nothing changed since: no second run, even after the interval.
        #expect(await scheduler.runDue(at: t0.addingTimeInterval(7200)).isEmpty)
    }

    @Test("a change inside the frequency interval waits until it has passed")
    func frequencyRespected() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        try store.saveDeliveryHook(DeliveryHook(name: "daily", types: [.transactions], frequency: .daily, command: recorder(bench)))
        let scheduler = DeliveryScheduler(store: store, logger: quietLogger)
        try importStatement(bench, store, tag: "one")
        #expect(await scheduler.runDue(at: t0).count == 1)
        try importStatement(bench, store, tag: "two")
        #expect(await scheduler.runDue(at: t0.addingTimeInterval(3600)).isEmpty)
        #expect(await scheduler.runDue(at: t0.addingTimeInterval(86_399)).isEmpty)
        let later = await scheduler.runDue(at: t0.addingTimeInterval(86_400))
        #expect(later.count == 1)
        let token = try #require(later.first?.delivery.token)
        #expect(try await transactionsSince(token, store) == ["Shop two 0", "Shop two 1", "Shop two 2"])
    }

    @Test("a failing hook is logged and retried at the next interval from the same token")
    func failureRetried() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        try store.saveDeliveryHook(DeliveryHook(name: "flaky", types: [.transactions], frequency: .hourly, command: recorder(bench, status: 3)))
        let scheduler = DeliveryScheduler(store: store, logger: quietLogger)
        try importStatement(bench, store, tag: "x")
        let failed = await scheduler.runDue(at: t0)
        #expect(failed.map(\.status) == ["exit 3"])
        #expect(await scheduler.runDue(at: t0.addingTimeInterval(60)).isEmpty)
        try store.saveDeliveryHook(DeliveryHook(name: "flaky", types: [.transactions], frequency: .hourly, command: recorder(bench)))
        let retried = await scheduler.runDue(at: t0.addingTimeInterval(3600))
        #expect(retried.map(\.status) == ["ok"])
        #expect(retried.first?.delivery.token.encoded == failed.first?.delivery.token.encoded)
        #expect(try store.deliveryHook(named: "flaky")?.lastStatus == "ok")
    }

    @Test("a hook past its time limit gets SIGTERM and counts as failed")
    func timeout() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        try store.saveDeliveryHook(DeliveryHook(name: "slow", types: [.transactions], frequency: .hourly,
                                                command: "trap 'echo term > \(bench.folder)/terminated; exit 143' TERM; "
                                                    + "sleep 120 & echo $! > \(bench.folder)/sleep.pid; wait"))
        let scheduler = DeliveryScheduler(store: store, timeLimit: .milliseconds(300), gracePeriod: .seconds(2), logger: quietLogger)
        try importStatement(bench, store, tag: "t")
        let runs = await scheduler.runDue(at: t0)
        #expect(runs.map(\.status) == ["timed out after 0.3 s"])
        #expect(FileManager.default.fileExists(atPath: bench.folder + "/terminated"))
        // The hook's whole process group went with it: its 120 s sleep is gone (not merely the shell). Asked of the
        // process, not of the clock: under a suite that keeps the cooperative pool busy, the time until `runDue`
        // resumes says nothing about the hook.
        if let text = try? String(contentsOfFile: bench.folder + "/sleep.pid", encoding: .utf8),
           let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            var gone = false
            for _ in 0..<500 where !gone {
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)  // not our child: reaped by init, but harmless
                gone = kill(pid, 0) != 0 || Self.isZombie(pid)
                if !gone { usleep(20_000) }  // sleep justified: polls another process's end, with a deadline (500 tries)
            }
            #expect(gone, "the hook's sleep (pid \(pid)) outlived the time limit")
        }
    }

    @Test("a hook inherits none of the service's descriptors but standard input, output and error")
    func hookInheritsNoDescriptors() async throws {
        let bench = try WatchBench()
        // A file the service holds open for writing without close-on-exec, as Foundation's String.write(toFile:)
        // opens one: a hook spawned meanwhile kept it open, and the watch service then left that file in the
        // inbox as "still open for writing by another process".
        let held = bench.folder + "/held-open.csv"
        let fd = open(held, O_WRONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        let listing = bench.folder + "/fds.txt"
        let outcome = await HookProcess.run(command: "ls -l /proc/$$/fd > '\(listing)'", input: Data("{}".utf8),
                                            timeLimit: .seconds(30), gracePeriod: .seconds(2))
        #expect(outcome == .succeeded)
        let text = try String(contentsOfFile: listing, encoding: .utf8)
        #expect(!text.contains(held), "the hook inherited \(held):\n\(text)")
        // Its own standard output (the listing) is there: the check reads what it should.
        #expect(text.contains(listing))
    }

    @Test("delivery state survives a restart (a new store object on the same file)")
    func stateKeptAcrossRestart() async throws {
        let bench = try WatchBench()
        do {
            let store = try bench.openStore()
            try store.saveDeliveryHook(DeliveryHook(name: "keep", types: [.transactions], frequency: .hourly, command: recorder(bench)))
            try importStatement(bench, store, tag: "a")
            #expect(await DeliveryScheduler(store: store, logger: quietLogger).runDue(at: t0).count == 1)
            try importStatement(bench, store, tag: "b")
        }
        let reopened = try bench.openStore()
        let scheduler = DeliveryScheduler(store: reopened, logger: quietLogger)
        #expect(await scheduler.runDue(at: t0.addingTimeInterval(1000)).isEmpty)
        let runs = await scheduler.runDue(at: t0.addingTimeInterval(3600))
        #expect(runs.count == 1)
        #expect(try await transactionsSince(try #require(runs.first?.delivery.token), reopened) == ["Shop b 0", "Shop b 1", "Shop b 2"])
    }

    @Test("FinanceKit's enable/disable calls drive the in-process extension")
    func appExtension() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        store.enableBackgroundDelivery(for: [.accounts], frequency: .weekly)
        store.enableBackgroundDelivery(for: [.transactions], frequency: .hourly)
        #expect(try store.deliveryHook(named: "app")?.types == [.accounts, .transactions])
        #expect(try store.deliveryHook(named: "app")?.frequency == .hourly)
        let received = Received()
        let scheduler = DeliveryScheduler(store: store, appExtension: received, logger: quietLogger)
        try importStatement(bench, store, tag: "app")
        #expect(await scheduler.runDue(at: t0).count == 1)
        #expect(await received.types == [[.accounts, .transactions]])
        store.disableBackgroundDelivery(for: [.accounts])
        #expect(try store.deliveryHook(named: "app")?.types == [.transactions])
        store.disableAllBackgroundDelivery()
        #expect(try store.deliveryHooks().isEmpty)
        #expect(FinanceStore.UpdateFrequency.weekly.interval == 604_800)
    }
}

actor Received: BackgroundDeliveryExtensionProviding {
    var types: [[FinanceStore.BackgroundDataType]] = []
    func didReceiveData(for types: [FinanceStore.BackgroundDataType]) async { self.types.append(types) }
    func willTerminate() async {}
}
