import CofferModel
import CofferStore
import Foundation
import Testing

extension ServeTests {
    /// History over HTTP: pages that resume exactly, streams that resume with `Last-Event-ID` without loss or repeat,
    /// grant changes that end a stream, heartbeats, and the 410 of a token that is not valid.
    @Suite("coffer serve: history pages and streams")
    struct HistoryRoutesTests {
        @Test func pagesWalkTheHistoryAndResumeAfterNewCommits() async throws {
            let server = try await TestServer.start()
            try await server.importStatement(ofx(account: "3333", lines("h", count: 23)))
            let token = try await server.client("pages")
            var seen: [String] = []
            var since: String?
            var pages = 0
            while true {
                let page = try await server.get("/v1/history/transactions?limit=5" + (since.map { "&since=\($0)" } ?? ""), token: token).object()
                seen += ChangeIDs(page).inserted
                since = try #require(page["newToken"] as? String)
                pages += 1
                if page["hasMore"] as? Bool != true { break }
                #expect(pages < 20)
            }
            #expect(seen.count == 23 && Set(seen).count == 23)
            #expect(pages == 5)

            // Caught up: nothing, the same token, no more.
            let quiet = try await server.get("/v1/history/transactions?since=\(since!)", token: token).object()
            #expect(ChangeIDs(quiet).inserted.isEmpty && quiet["hasMore"] as? Bool == false)
            #expect(quiet["newToken"] as? String == since)

            // A new commit arrives once, after the token.
            try await server.importStatement(ofx(account: "3333", lines("h", count: 2, from: 23)))
            let next = try await server.get("/v1/history/transactions?since=\(since!)", token: token).object()
            #expect(ChangeIDs(next).inserted.count == 2)

            // A token that is not valid here: 410, as problem+json.
            for bad in ["garbage", String(since!.reversed())] {
                let gone = try await server.get("/v1/history/transactions?since=\(bad)", token: token)
                #expect(gone.status == 410, "\(bad)")
                #expect(gone.contentType == "application/problem+json")
            }
            // Another client's token is not this client's.
            let other = try await server.client("other")
            #expect(try await server.get("/v1/history/transactions?since=\(since!)", token: other).status == 410)
            #expect(try await server.get("/v1/history/nonsense", token: token).status == 404)
            try await server.stop()
        }

        /// A follower that drops the connection after each event and comes back with `Last-Event-ID` gets every
        /// change exactly once.
        @Test func lastEventIDResumesWithoutLossOrRepeat() async throws {
            let server = try await TestServer.start()
            try await server.importStatement(ofx(account: "4444", lines("s", count: 10)))
            let token = try await server.client("follower")
            var received: [String] = []
            var lastID: String?
            for round in 0..<6 {
                var reader = try await EventReader.open(server, "/v1/history/transactions/stream", token: token, lastEventID: lastID)
                if round > 0 {
                    // Commit while the follower is connected: 3 new transactions this round.
                    try await server.importStatement(ofx(account: "4444", lines("s", count: 3, from: 10 + 3 * (round - 1))))
                }
                let event = try #require(try await reader.nextEvent())
                #expect(event.name == "changes")
                received += try ChangeIDs(event: event).inserted
                lastID = try #require(event.id)
                // The reader goes out of scope: the connection closes mid-stream.
            }
            let expected = Set((0..<25).map { "s-\($0)" })
            #expect(received.count == 25, "\(received.count) received")
            #expect(Set(received).count == received.count)
            let stored = try await server.owner.transactions(query: TransactionQuery())
            #expect(Set(stored.map(\.id.uuidString)) == Set(received))
            #expect(stored.count == expected.count)
            try await server.stop()
        }

        /// Revoking a client ends its open stream within a second (an `error` event, then the end), and its next
        /// request is a 401. A grant change ends it too: its token is of the old grant.
        @Test func revocationEndsAnOpenStreamAndFailsTheNextRequest() async throws {
            let server = try await TestServer.start()
            try await server.importStatement(ofx(account: "5555", lines("r", count: 4)))
            let token = try await server.client("leaving")
            var reader = try await EventReader.open(server, "/v1/history/accounts/stream", token: token)
            let first = try #require(try await reader.nextEvent())
            #expect(first.name == "changes")
            let clock = ContinuousClock()
            let revokedAt = clock.now
            _ = try server.owner.revokeClient(named: "leaving")
            let error = try #require(try await reader.nextEvent())
            let ended = try await reader.next()
            let took = clock.now - revokedAt
            #expect(error.name == "error")
            #expect(error.data.contains("\"status\":403"))
            #expect(ended == nil)
            #expect(took < .seconds(1), "the stream ended \(took) after the revocation")
            #expect(try await server.get("/v1/accounts", token: token).status == 401)

            // A changed grant: the stream ends with 410's problem, and the old token is refused.
            let changing = try await server.client("changing")
            var second = try await EventReader.open(server, "/v1/history/transactions/stream", token: changing)
            let start = try #require(try await second.nextEvent())
            _ = try server.owner.authorizeClient(named: "changing", grant: FinanceStore.Grant(accounts: [], dataTypes: [.transactions]))
            let restart = try #require(try await second.nextEvent())
            #expect(restart.name == "error" && restart.data.contains("\"status\":410"))
            #expect(try await server.get("/v1/history/transactions?since=\(start.id!)", token: changing).status == 410)
            try await server.stop()
        }

        @Test func anIdleStreamCarriesHeartbeats() async throws {
            let server = try await TestServer.start(heartbeat: .milliseconds(100))
            let token = try await server.client("idle")
            var reader = try await EventReader.open(server, "/v1/history/accounts/stream", token: token)
            var heartbeats = 0
            let clock = ContinuousClock()
            let start = clock.now
            while heartbeats < 3, clock.now - start < .seconds(10) {
                let event = try #require(try await reader.next())
                heartbeats += event.comments.filter { $0 == "heartbeat" }.count
            }
            #expect(heartbeats == 3)
            // A token not valid here is a 410 before the stream opens.
            let reply = try await server.get("/v1/history/accounts/stream?since=nope", token: token)
            #expect(reply.status == 410)
            try await server.stop()
        }

        /// A graceful shutdown ends open streams, so the server stops promptly.
        @Test func shutdownEndsOpenStreams() async throws {
            let server = try await TestServer.start()
            let token = try await server.client("open")
            var reader = try await EventReader.open(server, "/v1/history/transactions/stream", token: token)
            _ = try await reader.nextEvent()
            let clock = ContinuousClock()
            let start = clock.now
            try await server.stop()
            // The stream ends (cleanly, or with the connection): it does not hang on.
            do { while try await reader.next() != nil {} } catch {}
            #expect(clock.now - start < .seconds(5), "shutdown and the stream's end took \(clock.now - start)")
        }
    }
}
