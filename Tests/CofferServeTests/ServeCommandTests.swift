import Foundation
import Testing

/// The real `coffer serve` binary: it says where it listens, serves, and a SIGTERM with a stream open ends it
/// cleanly (exit 0) and promptly.
@Suite("coffer serve: the command")
struct ServeCommandTests {
    @Test func serveListensAnswersAndStopsOnSIGTERM() async throws {
        let folder = try temporaryFolder()
        let store = folder + "/store.sqlite"
        let statement = folder + "/march.ofx"
        try Data(ofx(account: "9999", lines("c", count: 6)).utf8).write(to: URL(fileURLWithPath: statement))
        #expect(try coffer(["import", "--store", store, statement]).status == 0)
        let token = try coffer(["clients", "add", "--store", store, "cli"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("coffer_"))
        #expect(try coffer(["clients", "authorize", "--store", store, "cli", "--accounts", "all", "--types", "accounts,transactions"]).status == 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: cofferBinary)
        process.arguments = ["serve", "--store", store, "--listen", "127.0.0.1:0"]
        var environment = ProcessInfo.processInfo.environment
        environment["COFFER_CLIENT_TOKEN"] = nil
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first line says where it listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix("listening on http://127.0.0.1:"), "\(text)")
        let port = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":").last ?? ""))

        // A real client, through the real binary's server.
        var request = HTTPClientRequestBuilder.request("http://127.0.0.1:\(port)/v1/transactions", token: token)
        let response = try await testHTTPClient.execute(request, timeout: .seconds(30))
        #expect(response.status.code == 200)
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
        #expect((object["transactions"] as? [Any])?.count == 6)

        // A stream open at SIGTERM: the process still exits 0, promptly.
        request = HTTPClientRequestBuilder.request("http://127.0.0.1:\(port)/v1/history/transactions/stream", token: token)
        let stream = try await testHTTPClient.execute(request, timeout: .seconds(60))
        var events = stream.body.makeAsyncIterator()
        _ = try await events.next()
        let clock = ContinuousClock()
        let start = clock.now
        process.terminate()   // SIGTERM
        while process.isRunning, clock.now - start < .seconds(10) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        #expect(clock.now - start < .seconds(5), "coffer serve took \(clock.now - start) to stop")
    }

    /// `--watch INBOX`: one process imports what lands in the folder and serves it; a follower hears the import.
    @Test func serveWatchImportsTheInboxAndStreamsWhatItImported() async throws {
        let folder = try temporaryFolder()
        let store = folder + "/store.sqlite"
        let inbox = folder + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        // The account exists and is granted before the serve starts (a grant names accounts).
        let first = folder + "/first.ofx"
        try Data(ofx(account: "8888", lines("w", count: 2)).utf8).write(to: URL(fileURLWithPath: first))
        #expect(try coffer(["import", "--store", store, first]).status == 0)
        let token = try coffer(["clients", "add", "--store", store, "watcher"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try coffer(["clients", "authorize", "--store", store, "watcher", "--accounts", "all", "--types", "transactions"]).status == 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: cofferBinary)
        process.arguments = ["serve", "--store", store, "--listen", "127.0.0.1:0", "--watch", inbox]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let port = try #require(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ":").last ?? ""))

        let page = try await testHTTPClient.execute(
            HTTPClientRequestBuilder.request("http://127.0.0.1:\(port)/v1/history/transactions", token: token), timeout: .seconds(30))
        let body = try await page.body.collect(upTo: 1 << 20)
        let since = try #require((try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])?["newToken"] as? String)
        let stream = try await testHTTPClient.execute(
            HTTPClientRequestBuilder.request("http://127.0.0.1:\(port)/v1/history/transactions/stream?since=\(since)", token: token),
            timeout: .seconds(60))
        var reader = EventReader(stream)
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
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: inbox + "/processed"))
    }

    @Test func aBadListenAddressIsAUsageError() throws {
        let run = try coffer(["serve", "--listen", "localhost"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--listen expects HOST:PORT"))
    }
}

import AsyncHTTPClient

enum HTTPClientRequestBuilder {
    static func request(_ url: String, token: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return request
    }
}
