import AsyncHTTPClient
import CofferModel
import Foundation
import Testing

extension ServeTests {
    /// The real `coffer serve` binary: it says where it listens, serves, and a SIGTERM with a stream open ends it
    /// cleanly (exit 0) and promptly.
    @Suite("coffer serve: the command")
    struct ServeCommandTests {
        @Test func serveListensAnswersAndStopsOnSIGTERM() async throws {
            let store = try temporaryFolder() + "/store.sqlite"
            let token = try storeWithClient(store, account: "9999", lines("c", count: 6), client: "cli", types: "accounts,transactions")
            #expect(token.hasPrefix("coffer_"))
            let server = try ServeProcess.start(store: store)
            defer { if server.process.isRunning { server.process.terminate() } }

            // A real client, through the real binary's server.
            let response = try await testHTTPClient.execute(HTTPClientRequestBuilder.request(server.base + "/v1/transactions", token: token),
                                                            timeout: .seconds(30))
            #expect(response.status.code == 200)
            let body = try await response.body.collect(upTo: 1 << 20)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
            #expect((object["transactions"] as? [Any])?.count == 6)

            // A stream open at SIGTERM: the process still exits 0, promptly.
            var reader = try await EventReader.open(url: server.base + "/v1/history/transactions/stream", token: token)
            _ = try await reader.next()
            let clock = ContinuousClock()
            let start = clock.now
            let status = try await server.stop()
            #expect(status == 0)
            #expect(clock.now - start < .seconds(5), "coffer serve took \(clock.now - start) to stop")
        }

        /// `--watch INBOX`: one process imports what lands in the folder and serves it; a follower hears the import.
        @Test func serveWatchImportsTheInboxAndStreamsWhatItImported() async throws {
            let folder = try temporaryFolder()
            let store = folder + "/store.sqlite"
            let inbox = folder + "/inbox"
            try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
            // The account exists and is granted before the serve starts (a grant names accounts).
            let token = try storeWithClient(store, account: "8888", lines("w", count: 2), client: "watcher", types: "transactions")
            let server = try ServeProcess.start(store: store, ["--watch", inbox])
            defer { if server.process.isRunning { server.process.terminate() } }

            let page = try await testHTTPClient.execute(HTTPClientRequestBuilder.request(server.base + "/v1/history/transactions", token: token),
                                                        timeout: .seconds(30))
            let body = try await page.body.collect(upTo: 1 << 20)
            let since = try #require((try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])?["newToken"] as? String)
            var reader = try await EventReader.open(url: server.base + "/v1/history/transactions/stream?since=\(since)", token: token)
            // A statement lands in the inbox (written elsewhere, then moved in, as a browser finishes a download).
            let later = folder + "/later.ofx"
            try Data(ofx(account: "8888", lines("w", count: 3, from: 2)).utf8).write(to: URL(fileURLWithPath: later))
            try FileManager.default.moveItem(atPath: later, toPath: inbox + "/later.ofx")
            var inserted: [String] = []
            while inserted.count < 3, let event = try await reader.nextEvent() {
                #expect(event.name == "changes")
                inserted += try ChangeIDs(event: event).inserted
            }
            #expect(inserted.count == 3)
            #expect(try await server.stop() == 0)
            #expect(FileManager.default.fileExists(atPath: inbox + "/processed"))
        }

        @Test func aBadListenAddressIsAUsageError() throws {
            let run = try coffer(["serve", "--listen", "localhost"])
            #expect(run.status == 64)
            #expect(run.stderr.contains("--listen expects HOST:PORT"))
        }
    }
}

enum HTTPClientRequestBuilder {
    static func request(_ url: String, token: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return request
    }
}
