import AsyncHTTPClient
import Foundation
import NIOPosix
import Testing

extension ServeTests {
    /// 100 clients paging and 10 following the transaction stream while another process (`coffer import`) commits a
    /// large statement: no request fails, and every follower receives every imported transaction exactly once.
    ///
    /// The suite imports 20,000 transactions (`COFFER_SERVE_LOAD=100000` for the figure); p50/p99 of the
    /// page requests are printed.
    @Suite("coffer serve: under load")
    struct ServeLoadTests {
        static var count: Int { Int(ProcessInfo.processInfo.environment["COFFER_SERVE_LOAD"] ?? "") ?? 20_000 }

        /// The server is the real `coffer serve` in a process of its own, and the clients run on an event loop group
        /// of their own: the load does not queue behind, or in front of, the other tests' servers in this process.
        @Test func pagingClientsAndFollowersDuringALargeImport() async throws {
            let count = Self.count
            let folder = try temporaryFolder()
            let store = folder + "/store.sqlite"
            // The generated statement's account exists before the client is authorized (a grant names accounts), so the
            // import is one commit into a granted account.
            let token = try storeWithClient(store, account: "1234567890", [Line(id: "seed", day: "20191231", amount: "1.00", name: "Seed")],
                                            client: "load", types: "transactions",
                                            org: "Example Generated Bank", fid: "99999", bankID: "000000000")
            let statement = folder + "/big.ofx"
            #expect(try runProcess("/usr/bin/env", ["python3", packageRoot + "/scripts/gen-ofx.py", "--count", "\(count)", "--out", statement]) == 0)
            let server = try ServeProcess.start(store: store)
            defer { if server.process.isRunning { server.process.terminate() } }
            let base = server.base

            var configuration = HTTPClient.Configuration()
            configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60),
                                                                                  concurrentHTTP1ConnectionsPerHostSoftLimit: 256)
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
            func get(_ path: String) async throws -> (status: Int, object: [String: Any]?) {
                var request = HTTPClientRequest(url: base + path)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let response = try await client.execute(request, timeout: .seconds(120))
                let body = try await response.body.collect(upTo: 64 << 20)
                return (Int(response.status.code), try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
            }

            // Where the followers start: after the current state.
            let since = try #require(try await get("/v1/history/transactions?limit=5000").object?["newToken"] as? String)
            let importDone = Flag()
            async let followers: [(count: Int, distinct: Int)] = withThrowingTaskGroup(of: (Int, Int).self) { tasks in
                for _ in 0..<10 {
                    tasks.addTask {
                        var reader = try await EventReader.open(url: base + "/v1/history/transactions/stream?since=\(since)", token: token,
                                                                client: client)
                        var ids: [String] = []
                        var seen: Set<String> = []
                        while seen.count < count, let event = try await reader.nextEvent() {
                            #expect(event.name == "changes", "\(event.data.prefix(300))")
                            let changes = try ChangeIDs(event: event)
                            ids += changes.inserted + changes.updated
                            seen.formUnion(changes.inserted + changes.updated)
                        }
                        return (ids.count, seen.count)
                    }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            async let pagers: (latencies: [Duration], failures: Int) = withThrowingTaskGroup(of: ([Duration], Int).self) { tasks in
                for _ in 0..<100 {
                    tasks.addTask {
                        var latencies: [Duration] = []
                        var failures = 0
                        var after: String?
                        let clock = ContinuousClock()
                        repeat {
                            let started = clock.now
                            let reply = try await get("/v1/transactions?limit=100" + (after.map { "&after=\($0)" } ?? ""))
                            latencies.append(clock.now - started)
                            if reply.status != 200 { failures += 1 }
                            after = reply.object?["nextCursor"] as? String
                        } while !importDone.isSet || after != nil && latencies.count < 50
                        return (latencies, failures)
                    }
                }
                return try await tasks.reduce(into: ([], 0)) { $0.0 += $1.0; $0.1 += $1.1 }
            }
            let importer = Task.detached { try runProcess(cofferBinary, ["import", "--store", store, statement]) }
            let importStatus = try await importer.value
            importDone.set()
            #expect(importStatus == 0)
            let received = try await followers
            let paging = try await pagers
            try await client.shutdown()
            try await group.shutdownGracefully()
            for follower in received {
                #expect(follower.distinct == count, "a follower saw \(follower.distinct) of \(count)")
                #expect(follower.count == follower.distinct, "a follower got \(follower.count - follower.distinct) doubled")
            }
            #expect(received.count == 10)
            #expect(paging.failures == 0)
            let sorted = paging.latencies.sorted()
            let p50 = sorted[sorted.count / 2], p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            print("serve load: \(count) transactions imported; \(sorted.count) page requests by 100 clients, p50 \(p50), p99 \(p99); "
                  + "10 followers got every change once")
            #expect(try await server.stop() == 0)
        }
    }
}

/// A flag set once, read from any task.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Runs a program to its end; its exit status (output discarded).
func runProcess(_ path: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["COFFER_CLIENT_TOKEN"] = nil
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
