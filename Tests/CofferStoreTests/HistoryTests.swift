import Clocks
import CofferStore
import Foundation
import Testing

@Suite struct HistoryTests {
    @Test func fromNilYieldsCurrentStateThenTokenYieldsOnlyLaterChanges() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        let first = try insert(store, (1...3).map { makeTransaction(a.id, "\($0)", on: "2026-01-0\($0)") })
        let initial = try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false))
        let initialIDs: Set<UUID> = Set(initial.flatMap(\.inserted).map(\.id))
        #expect(initialIDs == Set(first.map(\.id)))
        #expect(initial.allSatisfy { $0.updated.isEmpty && $0.deleted.isEmpty })
        let token = try #require(initial.last?.newToken)

        // Nothing new: the catch-up ends without a batch.
        #expect(try await collect(store.transactionHistory(forAccountID: a.id, since: token, isMonitoring: false)).isEmpty)

        // Insert then update since the token → one inserted with the latest state; update of an old one; a delete.
        let fresh = makeTransaction(a.id, "9.99", on: "2026-01-09", status: .pending)
        try insert(store, [fresh])
        var booked = fresh
        booked.status = .booked
        booked.postedDate = day("2026-01-10")
        var corrected = first[0]
        corrected.transactionDescription = "Corrected"
        try store.write { w in
            try w.update(booked, keys: DedupeKeys(externalID: fresh.id.uuidString))
            try w.update(corrected, keys: DedupeKeys(externalID: corrected.id.uuidString))
            try w.delete(StoredTransaction(transaction: first[1], keys: DedupeKeys(externalID: first[1].id.uuidString)))
        }
        let delta = try await collect(store.transactionHistory(forAccountID: a.id, since: token, isMonitoring: false))
        #expect(delta.count == 1)
        #expect(delta[0].inserted == [booked])
        #expect(delta[0].updated == [corrected])
        #expect(delta[0].deleted == [first[1].id])

        // From nil again: the current state only.
        let now = try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false))
        #expect(Set(now.flatMap(\.inserted).map(\.id)) == Set([first[0].id, first[2].id, fresh.id]))
    }

    @Test func insertedThenDeletedSinceTheTokenIsNotReported() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        let token = try #require(try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false)).last?.newToken)
        let t = makeTransaction(a.id, "5", on: "2026-01-05")
        try insert(store, [t])
        try store.write { try $0.delete(StoredTransaction(transaction: t, keys: DedupeKeys(externalID: t.id.uuidString))) }
        #expect(try await collect(store.transactionHistory(forAccountID: a.id, since: token, isMonitoring: false)).isEmpty)
    }

    @Test func batchesAreBoundedAndEachTokenResumesExactly() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        let all = try insert(store, (0..<23).map { makeTransaction(a.id, "\($0 + 1)", on: "2026-01-01") })
        do {
            let store = try FinanceStore(path: store.path, historyOptions: HistoryOptions(batchSize: 5))
            let batches = try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false))
            #expect(batches.map { $0.inserted.count } == [5, 5, 5, 5, 3])
            // Resuming from each batch's token yields exactly the rest of the snapshot.
            for (i, batch) in batches.enumerated() {
                let rest = try await collect(store.transactionHistory(forAccountID: a.id, since: batch.newToken, isMonitoring: false))
                #expect(rest.flatMap(\.inserted).count == 23 - 5 * i - batch.inserted.count)
            }
            // Changes after the snapshot, also in batches of five, each token resuming after it.
            let token = batches.last!.newToken
            try store.write { w in
                for var t in all { t.transactionDescription = "Updated"; try w.update(t, keys: DedupeKeys(externalID: t.id.uuidString)) }
            }
            let updates = try await collect(store.transactionHistory(forAccountID: a.id, since: token, isMonitoring: false))
            #expect(updates.map { $0.updated.count } == [5, 5, 5, 5, 3])
            let resumed = try await collect(store.transactionHistory(forAccountID: a.id, since: updates[1].newToken, isMonitoring: false))
            #expect(resumed.flatMap(\.updated).map(\.id) == updates[2...].flatMap(\.updated).map(\.id))
        }
    }

    @Test func streamsArePerAccountAndPerKind() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store, number: "1")
        let b = try addAccount(store, number: "2")
        try insert(store, [makeTransaction(a.id, "1", on: "2026-01-01"), makeTransaction(b.id, "2", on: "2026-01-01")])
        let onlyA = try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false))
        #expect(onlyA.flatMap(\.inserted).map(\.accountID) == [a.id])
        let accounts = try await collect(store.accountHistory(isMonitoring: false))
        #expect(Set(accounts.flatMap(\.inserted).map(\.id)) == [a.id, b.id])
        #expect(try await collect(store.accountBalanceHistory(forAccountID: a.id, isMonitoring: false)).flatMap(\.inserted).isEmpty)
    }

    @Test func monitoringWakesOnItsClockSeesTheCommitAndEndsOnCancel() async throws {
        let (store, path) = try makeStore()
        let a = try addAccount(store)
        // The monitor sleeps on a clock the test moves: no real time passes, none is waited for.
        let clock = TestClock()
        let watcher = try FinanceStore(path: path, access: .readOnly,
                                       historyOptions: HistoryOptions(pollInterval: .milliseconds(15), clock: clock))
        let (batches, yield) = AsyncThrowingStream<Changes<Transaction>, any Error>.makeStream()
        let monitor = Task {
            do {
                for try await changes in watcher.transactionHistory(forAccountID: a.id, isMonitoring: true) { yield.yield(changes) }
                yield.finish()
            } catch {
                yield.finish(throwing: error)
            }
        }
        var received = batches.makeAsyncIterator()
        // The empty account's snapshot, then the monitor has caught up and sleeps.
        #expect(try await received.next()?.inserted.isEmpty == true)
        #expect(await sleepsOn(clock))

        // A commit (another connection): seen once the poll interval has passed on the monitor's clock.
        let t = try insert(store, [makeTransaction(a.id, "4.20", on: "2026-01-02")])
        #expect(await sleepsOn(clock), "the monitor looked before its interval passed")
        await clock.advance(by: .milliseconds(15))
        #expect(try await received.next()?.inserted.map(\.id) == t.map(\.id))

        // Many intervals with nothing new: the monitor wakes, finds the store unchanged, sleeps again; no batch.
        for _ in 0..<20 {
            #expect(await sleepsOn(clock))
            await clock.advance(by: .milliseconds(15))
        }
        #expect(await sleepsOn(clock))
        monitor.cancel()
        #expect(try await received.next() == nil, "a batch with nothing new, or the sequence did not end on cancel")
        watcher.close()
    }

    @Test func badTokensThrowHistoryTokenInvalidAndNilRecovers() async throws {
        let (store, _) = try makeStore()
        let (other, _) = try makeStore("other")
        let a = try addAccount(store)
        try insert(store, [makeTransaction(a.id, "1", on: "2026-01-01")])
        let token = try #require(try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false)).last?.newToken)
        let foreign = try #require(try await collect(other.accountHistory(isMonitoring: false)).last?.newToken)

        var tampered = Array(token.stringValue)
        tampered[10] = tampered[10] == "A" ? "B" : "A"
        for bad in [HistoryToken(stringValue: String(tampered)), HistoryToken(stringValue: "garbage!"), HistoryToken(stringValue: ""), foreign] {
            await #expect(throws: FinanceError.historyTokenInvalid) {
                _ = try await collect(store.transactionHistory(forAccountID: a.id, since: bad, isMonitoring: false))
            }
        }
        // A token survives JSON.
        let decoded = try JSONDecoder().decode(HistoryToken.self, from: JSONEncoder().encode(token))
        #expect(try await collect(store.transactionHistory(forAccountID: a.id, since: decoded, isMonitoring: false)).isEmpty)
    }

    @Test func compactionInvalidatesOlderTokensAndARestartLosesNothing() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        try insert(store, (1...4).map { makeTransaction(a.id, "\($0)", on: "2026-01-0\($0)") })
        let old = try #require(try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false)).last?.newToken)
        let later = try insert(store, [makeTransaction(a.id, "5", on: "2026-01-05")])
        let result = try store.compact(before: Date().addingTimeInterval(60))
        #expect(result.removedChanges == 6)
        await #expect(throws: FinanceError.historyTokenInvalid) {
            _ = try await collect(store.transactionHistory(forAccountID: a.id, since: old, isMonitoring: false))
        }
        let restart = try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false))
        #expect(restart.flatMap(\.inserted).count == 5)
        #expect(restart.flatMap(\.inserted).contains { $0.id == later[0].id })
        let info = try await store.info()
        #expect(info.historyHorizon == result.historyHorizon)
        #expect(info.transactions == 5)
        // The token from the restart keeps working.
        let fresh = try #require(restart.last?.newToken)
        try insert(store, [makeTransaction(a.id, "6", on: "2026-01-06")])
        #expect(try await collect(store.transactionHistory(forAccountID: a.id, since: fresh, isMonitoring: false)).flatMap(\.inserted).count == 1)
    }
}

/// Whether a task sleeps on `clock` (waits, without sleeping itself, until one does; false after 10 s of real
/// time). `TestClock.checkSuspension` throws exactly while some task sleeps on the clock.
func sleepsOn(_ clock: TestClock<Duration>) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        if (try? await clock.checkSuspension()) == nil { return true }
    }
    return false
}
