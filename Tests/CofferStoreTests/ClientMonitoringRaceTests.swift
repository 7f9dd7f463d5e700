@testable import CofferStore
import Foundation
import Testing
import CofferTestSupport

/// A client's monitoring stream hears every decision of the owner, whenever it lands: a revocation committed
/// while the stream is between reading the grant and waiting must still end it. (It did not: the stream took the
/// store's data version after reading the grant, so a revocation committed in between went unnoticed until some
/// later change of data; `coffer serve`'s revocation test hung about one run in five.)
@Suite struct ClientMonitoringRaceTests {
    @Test func aRevocationAtAnyMomentEndsTheClientsStream() async throws {
        let (store, _) = try makeStore()
        defer { store.close() }
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix(seed: seed)
        for round in 0..<60 {
            let name = "client-\(round)"
            let client = try store.addClient(named: name).client
            _ = try store.authorizeClient(named: name, grant: .init(accounts: [], dataTypes: [.accounts]))
            let view = store.scoped(to: client.id)
            let stream = Task {
                var iterator = view.accountHistory(since: nil, isMonitoring: true).makeAsyncIterator()
                _ = try await iterator.next()   // the (empty) grant
                _ = try await iterator.next()   // must throw once revoked
            }
            try await Task.sleep(for: .microseconds(Int(random.next() % 4_000)))
            _ = try store.revokeClient(named: name)
            let revoked = ContinuousClock.now
            // How the stream ended, and when. The bound catches a stream that never ends; it is not a timing. A 3 s
            // bound failed once under the whole suite's load on two cores (the test took 9 s, against 1 s alone), and
            // it could not tell a stream that went on from a task that waited for a thread: the message now does.
            let outcome = await withTaskGroup(of: StreamEnd?.self) { group in
                group.addTask {
                    do { try await stream.value; return .endedWithoutError } catch { return .threw }
                }
                group.addTask {
                    do { try await Task.sleep(for: .seconds(60)) } catch { return nil }  // the stream ended first
                    stream.cancel()  // a cancelled monitoring stream ends without an error
                    return .stillRunning
                }
                var ends: [StreamEnd] = []
                for await end in group {
                    if let end { ends.append(end) }
                    group.cancelAll()
                }
                return ends.contains(.stillRunning) ? .stillRunning : ends[0]
            }
            stream.cancel()
            let ended = outcome == .threw
            #expect(ended, "round \(round): the revoked client's stream \(outcome) after \(ContinuousClock.now - revoked) (seed \(seed))")
            if !ended { break }
        }
    }
}

typealias SplitMix = SplitMix64

/// How a monitoring stream ended after its client was revoked: only `threw` is right (a cancelled stream ends
/// without an error, so `endedWithoutError` means it was never told).
enum StreamEnd: Equatable { case threw, endedWithoutError, stillRunning }
