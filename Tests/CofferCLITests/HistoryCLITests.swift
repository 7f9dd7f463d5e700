import Foundation
import Testing

@Suite struct HistoryCLITests {
    @Test func historyPrintsBatchesWithTokensAndResumes() throws {
        let store = try temporaryFolder() + "/s.sqlite"
        try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx"])
        let first = try coffer(["history", "--store", store])
        #expect(first.status == 0)
        let lines = first.stdout.split(separator: "\n").map(String.init)
        let batch = try jsonObject(try #require(lines.last))
        let token = try #require(batch["token"] as? String)
        #expect(lines.map { (try? jsonObject($0))?["inserted"] as? [Any] }.compactMap { $0 }.map(\.count).reduce(0, +) == 4)
        // Nothing new since the token.
        #expect(try coffer(["history", "--store", store, "--since", token]).stdout.isEmpty)
        try coffer(["import", "--store", store, "feeds/ofx/foreign.ofx"])
        let delta = try coffer(["history", "--store", store, "--since", token])
        let inserted = delta.stdout.split(separator: "\n").compactMap { (try? jsonObject(String($0)))?["inserted"] as? [Any] }.map(\.count).reduce(0, +)
        #expect(inserted == 2)
        // A garbled token: one line, exit 1.
        let bad = try coffer(["history", "--store", store, "--since", "not-a-token"])
        #expect(bad.status == 1 && bad.stderr.contains("restart history"))
    }

    @Test func compactionInvalidatesOldTokens() throws {
        let store = try temporaryFolder() + "/s.sqlite"
        try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx"])
        let token = try #require(try jsonObject(String(try coffer(["history", "--store", store]).stdout.split(separator: "\n").last ?? "")) ["token"] as? String)
        try coffer(["import", "--store", store, "feeds/ofx/foreign.ofx"])
        let compact = try coffer(["compact", "--store", store, "--keep", "0d", "--json"])
        #expect(compact.status == 0)
        #expect((try jsonObject(compact.stdout)["removedChanges"] as? Int ?? 0) > 0)
        let stale = try coffer(["history", "--store", store, "--since", token])
        #expect(stale.status == 1)
        let restart = try coffer(["history", "--store", store])
        let inserted = restart.stdout.split(separator: "\n").compactMap { (try? jsonObject(String($0)))?["inserted"] as? [Any] }.map(\.count).reduce(0, +)
        #expect(inserted == 6, "a restart from nil loses nothing")
    }

    @Test func followReceivesACommitMadeByAnotherProcess() async throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx"])
        let follower = Process()
        follower.executableURL = URL(fileURLWithPath: cofferBinary)
        follower.arguments = ["history", "--store", store, "--follow"]
        let out = Pipe()
        follower.standardOutput = out
        follower.standardError = FileHandle.nullDevice
        try follower.run()
        defer { if follower.isRunning { follower.terminate() } }

        // Read lines as they come (blocking reads, on a thread of their own) and publish how many transactions
        // were inserted so far.
        let (totals, total) = AsyncStream<Int>.makeStream()
        Thread.detachNewThread {
            var inserted = 0
            var buffer = Data()
            let handle = out.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    inserted += ((try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["inserted"] as? [Any])?.count ?? 0
                    total.yield(inserted)
                }
            }
            total.finish()
        }
        // A deadline, not a wait: should the follower never print what is expected, it is stopped and the output
        // ends, so the test fails instead of hanging.
        let deadline = Task {
            try await Task.sleep(for: .seconds(30))
            follower.terminate()
        }
        defer { deadline.cancel() }
        var seen = totals.makeAsyncIterator()
        func reach(_ count: Int) async -> Bool {
            while let inserted = await seen.next() { if inserted >= count { return true } }
            return false
        }
        // The snapshot (4 transactions) first: the follower has caught up and now follows.
        #expect(await reach(4))
        let started = Date()
        let other = try coffer(["import", "--store", store, "feeds/ofx/foreign.ofx"])
        #expect(other.status == 0)
        #expect(await reach(6), "snapshot of 4, then the 2 the other process committed")
        follower.terminate()
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
