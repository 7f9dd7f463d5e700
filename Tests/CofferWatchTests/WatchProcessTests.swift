import CofferPipeline
import CofferStore
import Foundation
import Testing

/// The real `coffer watch` binary: signals, restarts.
@Suite("coffer watch process", .serialized)
struct WatchProcessTests {
    func arguments(_ bench: WatchBench, _ extra: [String] = []) -> [String] {
        ["watch", bench.inbox, "--store", bench.storePath, "--config", bench.configPath, "--settle", "0.2", "--rescan", "1",
         "--log-format", "json"] + extra
    }

    @Test("SIGTERM during a long import: the file commits whole and moves to processed/, exit 0")
    func sigtermDuringImport() async throws {
        let bench = try WatchBench()
        // 20,000 rows: a debug build on a shared 2-core machine needs seconds for them, long enough to signal
        // mid-import (200,000 took minutes there).
        let rows = 20_000
        try await writeStatements([(bench.inbox + "/big.csv", "big", rows)])
        let watch = try CofferProcess(arguments(bench))
        #expect(try await eventually(timeout: .seconds(60)) { watch.stderr.contains("\"message\":\"importing\"") })
        // Sleep justified: lets another process's import get under way, so the signal lands mid-file (no clock there).
        try await Task.sleep(for: .milliseconds(300))
        watch.signal(SIGTERM)
        let status = try await watch.wait(timeout: .seconds(240))
        #expect(status == 0, "stderr: \(watch.stderr.suffix(2000))")
        let store = try bench.openStore()
        let count = try await store.info().transactions
        #expect(count == rows)
        let location = bench.files(under: bench.inbox)
        #expect(location.count == 1 && location[0].hasPrefix("processed/") && location[0].hasSuffix("/big.csv"))
    }

    @Test("a second signal stops at once; the store holds the file whole or not at all")
    func secondSignal() async throws {
        let bench = try WatchBench()
        // 20,000 rows: a debug build on a shared 2-core machine needs seconds for them, long enough to signal
        // mid-import (200,000 took minutes there).
        let rows = 20_000
        try await writeStatements([(bench.inbox + "/big.csv", "big2", rows)])
        let watch = try CofferProcess(arguments(bench))
        #expect(try await eventually(timeout: .seconds(60)) { watch.stderr.contains("\"message\":\"importing\"") })
        // Sleeps justified: space the signals to another process in real time (mid-import, then a second one apart).
        try await Task.sleep(for: .milliseconds(300))
        watch.signal(SIGTERM)
        try await Task.sleep(for: .milliseconds(200))
        watch.signal(SIGTERM)
        let status = try await watch.wait(timeout: .seconds(60))
        let store = try bench.openStore()
        let count = try await store.info().transactions
        let imports = try await store.imports()
        let location = bench.files(under: bench.inbox)
        if count == 0 {
            #expect(status == 128 + SIGTERM)
            #expect(imports.isEmpty)
            #expect(location == ["big.csv"])
        } else {
            // The import finished between the two signals.
            #expect(count == rows)
            #expect(imports.count == 1)
        }
    }

    @Test("a restart picks up files that arrived while it was down; --once exits when done")
    func restart() async throws {
        let bench = try WatchBench()
        try statementCSV(tag: "first", rows: 4).write(toFile: bench.inbox + "/a.csv", atomically: false, encoding: .utf8)
        let watch = try CofferProcess(arguments(bench))
        #expect(try await eventually { FileManager.default.fileExists(atPath: bench.inbox + "/a.csv") == false })
        watch.signal(SIGINT)
        #expect(try await watch.wait(timeout: .seconds(30)) == 0)

        for name in ["b.csv", "c.csv"] {
            try statementCSV(tag: name, rows: 4).write(toFile: bench.inbox + "/" + name, atomically: false, encoding: .utf8)
        }
        let once = try CofferProcess(arguments(bench, ["--once"]))
        #expect(try await once.wait(timeout: .seconds(60)) == 0, "stderr: \(once.stderr)")
        let store = try bench.openStore()
        #expect(try await store.imports().count == 3)
        #expect(try await store.info().transactions == 12)
        #expect(bench.files(under: bench.inbox).allSatisfy { $0.hasPrefix("processed/") })
    }

    @Test("coffer delivery add/list/remove, and coffer watch --once runs the hook with the changed types")
    func deliveryCommands() async throws {
        let bench = try WatchBench()
        let out = bench.folder + "/delivered.json"
        let add = try CofferProcess(["delivery", "add", "sync", "--store", bench.storePath, "--types", "transactions,accountBalances",
                                     "--frequency", "hourly", "--exec", "cat > '\(out)'"])
        #expect(try await add.wait() == 0, "\(add.stderr)")
        let bad = try CofferProcess(["delivery", "add", "x", "--store", bench.storePath, "--types", "orders", "--exec", "true"])
        #expect(try await bad.wait() == 64)

        try statementCSV(tag: "hook", rows: 3).write(toFile: bench.inbox + "/a.csv", atomically: false, encoding: .utf8)
        let once = try CofferProcess(arguments(bench, ["--once"]))
        #expect(try await once.wait() == 0, "\(once.stderr)")
        let delivered = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
        #expect(delivered?["types"] as? [String] == ["transactions"])
        #expect(delivered?["hook"] as? String == "sync")
        #expect((delivered?["token"] as? String)?.isEmpty == false)

        let store = try bench.openStore()
        #expect(try store.deliveryHook(named: "sync")?.lastStatus == "ok")
        let remove = try CofferProcess(["delivery", "remove", "sync", "--store", bench.storePath])
        #expect(try await remove.wait() == 0)
        #expect(try store.deliveryHooks().isEmpty)
        let again = try CofferProcess(["delivery", "remove", "sync", "--store", bench.storePath])
        #expect(try await again.wait() == 64)
    }
}
