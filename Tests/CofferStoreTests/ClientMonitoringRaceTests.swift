@testable import CofferStore
import Foundation
import Testing

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

/// A small seeded generator, so a failure can be replayed from its printed seed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
