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

    @Test func badListenAndAClientTokenAreUsageErrors() throws {
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
