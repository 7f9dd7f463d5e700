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
            let ended = await withTaskGroup(of: Bool.self) { group in
                group.addTask { (try? await stream.value) == nil }
                group.addTask {
                    try? await Task.sleep(for: .seconds(3))
                    stream.cancel()   // a cancelled monitoring stream ends without an error
                    return false
                }
                let first = await group.next()!
                group.cancelAll()
                return first
            }
            stream.cancel()
            #expect(ended, "round \(round): the revoked client's stream went on (seed \(seed))")
            if !ended { break }
        }
    }
}

typealias SplitMix = SplitMix64
