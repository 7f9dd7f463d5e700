@testable import CofferStore
import Foundation
import Testing

/// FinanceKit's authorization for programs other than the owner (issue 17): what a client reads is exactly its
/// grant, history tokens hold only while the grant does, and the owner's operations are not the client's.
@Suite struct ClientAccessTests {
    /// A store with two accounts, transactions on both around 2026-03-10, a balance each, and a client.
    struct Setup {
        let store: FinanceStore
        let path: String
        let checking: Account
        let savings: Account
        let token: String
    }

    static func setup(_ name: String = #function) throws -> Setup {
        let (store, path) = try makeStore(name)
        let checking = try addAccount(store, number: "11110001", name: "Checking")
        let savings = try addAccount(store, number: "22220002", name: "Savings")
        try insert(store, [
            makeTransaction(checking.id, "1.00", on: "2026-03-01", "Early"),
            makeTransaction(checking.id, "2.00", on: "2026-03-10", "OnTheDay"),
            makeTransaction(checking.id, "3.00", on: "2026-03-20", "Late"),
            makeTransaction(savings.id, "4.00", on: "2026-03-05", "Saved"),
        ])
        try store.write { w in
            for (account, date) in [(checking.id, "2026-03-05"), (checking.id, "2026-03-15"), (savings.id, "2026-03-15")] {
                let balance = AccountBalance(id: UUID(), accountID: account, currentBalance: .booked(
                    Balance(amount: money("10.00"), asOfDate: day(date), creditDebitIndicator: .credit)))
                try w.insertBalance(balance, dedupeKey: "\(account)-\(date)")
            }
        }
        let (_, token) = try store.addClient(named: "budget")
        return Setup(store: store, path: path, checking: checking, savings: savings, token: token)
    }

    @Test func aNewClientAsksAndWaitsForTheOwner() async throws {
        let s = try Self.setup()
        let client = try FinanceStore(path: s.path, clientToken: s.token)
        defer { client.close() }
        #expect(try await client.authorizationStatus() == .notDetermined)
        #expect(try await client.requestAuthorization() == .notDetermined)
        #expect(try await client.requestAuthorization() == .notDetermined)
        let recorded = try #require(try s.store.client(named: "budget"))
        #expect(recorded.isPending && recorded.requests == 2)
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await client.transactions(query: TransactionQuery()) }
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await client.accounts(query: AccountQuery()) }
        // The owner's store is always authorized.
        #expect(try await s.store.authorizationStatus() == .authorized)
        #expect(try await s.store.requestAuthorization() == .authorized)

        try s.store.denyClient(named: "budget")
        #expect(try await client.requestAuthorization() == .denied)
        #expect(try s.store.client(named: "budget")?.requests == 2)
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await client.accountBalances(query: AccountBalanceQuery()) }
    }

    @Test func aClientReadsExactlyItsGrant() async throws {
        let s = try Self.setup()
        try s.store.authorizeClient(named: "budget", grant: .init(
            accounts: [.init(accountID: s.checking.id, earliestDate: day("2026-03-10"))],
            dataTypes: [.accounts, .transactions]))
        let client = try FinanceStore(path: s.path, clientToken: s.token)
        defer { client.close() }
        #expect(try await client.requestAuthorization() == .authorized)
        #expect(try await client.accounts(query: AccountQuery()).map(\.id) == [s.checking.id])
        let texts = try await client.transactions(query: TransactionQuery()).map(\.transactionDescription)
        #expect(texts == ["OnTheDay", "Late"])
        // A predicate naming another account, or dates before the earliest, finds nothing, as if it did not exist.
        let savingsID = s.savings.id
        #expect(try await client.transactions(query: TransactionQuery(predicate: #Predicate { $0.accountID == savingsID })).isEmpty)
        // Pages by cursor stay inside the grant.
        var query = TransactionQuery(limit: 1)
        var paged: [String] = []
        while true {
            let page = try await client.transactionPage(query: query)
            paged += page.transactions.map(\.transactionDescription)
            guard let next = page.nextCursor else { break }
            query.after = next
        }
        #expect(paged == texts)
        // A type not granted is FinanceKit's restricted data.
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await client.accountBalances(query: AccountBalanceQuery()) }
        await #expect(throws: FinanceError.dataRestricted(.financialData)) {
            for try await _ in client.accountBalanceHistory(forAccountID: s.checking.id, isMonitoring: false) {}
        }

        // Balances by their as-of day.
        try s.store.authorizeClient(named: "budget", grant: .init(
            accounts: [.init(accountID: s.checking.id, earliestDate: day("2026-03-10"))], dataTypes: [.accountBalances]))
        let balances = try await client.accountBalances(query: AccountBalanceQuery())
        #expect(balances.count == 1 && balances[0].booked?.asOfDate == day("2026-03-15"))
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await client.accounts(query: AccountQuery()) }
    }

    @Test func historyFromNilIsTheGrantAndATokenHoldsOnlyWhileTheGrantDoes() async throws {
        let s = try Self.setup()
        try s.store.authorizeClient(named: "budget", grant: .init(
            accounts: [.init(accountID: s.checking.id, earliestDate: day("2026-03-10"))], dataTypes: [.transactions, .accounts]))
        let client = try FinanceStore(path: s.path, clientToken: s.token)
        defer { client.close() }
        let batches = try await collect(client.allTransactionHistory(isMonitoring: false))
        #expect(Set(batches.flatMap(\.inserted).map(\.transactionDescription)) == ["OnTheDay", "Late"])
        let perAccount = try await collect(client.transactionHistory(forAccountID: s.savings.id, isMonitoring: false))
        #expect(perAccount.flatMap(\.inserted).isEmpty)
        let accounts = try await collect(client.accountHistory(isMonitoring: false))
        #expect(accounts.flatMap(\.inserted).map(\.id) == [s.checking.id])
        let token = try #require(batches.last?.newToken)

        // New rows: one in the grant, one before its earliest date, one in another account.
        try insert(s.store, [makeTransaction(s.checking.id, "5.00", on: "2026-03-25", "New"),
                             makeTransaction(s.checking.id, "6.00", on: "2026-02-01", "Old"),
                             makeTransaction(s.savings.id, "7.00", on: "2026-03-25", "Elsewhere")])
        let after = try await collect(client.allTransactionHistory(since: token, isMonitoring: false))
        #expect(after.flatMap(\.inserted).map(\.transactionDescription) == ["New"])
        #expect(after.allSatisfy { $0.updated.isEmpty && $0.deleted.isEmpty })

        // The owner's token is not the client's, nor the client's the owner's.
        let ownerToken = try #require(try await collect(s.store.allTransactionHistory(isMonitoring: false)).last?.newToken)
        await #expect(throws: FinanceError.historyTokenInvalid) {
            for try await _ in client.allTransactionHistory(since: ownerToken, isMonitoring: false) {}
        }
        await #expect(throws: FinanceError.historyTokenInvalid) {
            for try await _ in s.store.allTransactionHistory(since: token, isMonitoring: false) {}
        }

        // A new grant: the old token is refused; from nil the client sees exactly the new grant.
        try s.store.authorizeClient(named: "budget", grant: .init(accounts: [.init(accountID: s.savings.id)], dataTypes: [.transactions]))
        await #expect(throws: FinanceError.historyTokenInvalid) {
            for try await _ in client.allTransactionHistory(since: token, isMonitoring: false) {}
        }
        let fresh = try await collect(client.allTransactionHistory(isMonitoring: false))
        #expect(Set(fresh.flatMap(\.inserted).map(\.transactionDescription)) == ["Saved", "Elsewhere"])
    }

    @Test func aRecordMovingAcrossTheEarliestDateIsInsertedOrDeleted() async throws {
        let s = try Self.setup()
        try s.store.authorizeClient(named: "budget", grant: .init(
            accounts: [.init(accountID: s.checking.id, earliestDate: day("2026-03-10"))], dataTypes: [.transactions]))
        let client = s.store.scoped(to: try #require(try s.store.client(named: "budget")).id)
        var token = try #require(try await collect(client.transactionHistory(forAccountID: s.checking.id, isMonitoring: false)).last?.newToken)
        let rows = try await s.store.transactions(query: TransactionQuery())
        var late = try #require(rows.first { $0.transactionDescription == "Late" })
        var early = try #require(rows.first { $0.transactionDescription == "Early" })

        func move(_ t: inout Transaction, to date: String) throws {
            t.transactionDate = day(date)
            let moved = t
            try s.store.write { w in try w.update(moved, keys: DedupeKeys(externalID: moved.id.uuidString)) }
        }
        func changes() async throws -> (inserted: [UUID], updated: [UUID], deleted: [UUID]) {
            let batches = try await collect(client.transactionHistory(forAccountID: s.checking.id, since: token, isMonitoring: false))
            if let last = batches.last { token = last.newToken }
            return (batches.flatMap(\.inserted).map(\.id), batches.flatMap(\.updated).map(\.id), batches.flatMap(\.deleted))
        }

        try move(&late, to: "2026-03-02")     // leaves the client's dates
        try move(&early, to: "2026-03-11")    // enters them
        var seen = try await changes()
        #expect(seen.deleted == [late.id] && seen.inserted == [early.id] && seen.updated.isEmpty)
        try move(&early, to: "2026-03-12")    // moves within them
        try move(&late, to: "2026-03-03")     // moves outside them: nothing to tell
        seen = try await changes()
        #expect(seen.updated == [early.id] && seen.inserted.isEmpty && seen.deleted.isEmpty)
        // Out and back within one window: an update.
        try move(&early, to: "2026-03-01")
        try move(&early, to: "2026-03-13")
        seen = try await changes()
        #expect(seen.updated == [early.id] && seen.inserted.isEmpty && seen.deleted.isEmpty)
        // Deleted while outside the dates: nothing; inside: a deletion.
        try s.store.write { w in
            try w.delete(StoredTransaction(transaction: late, keys: DedupeKeys(externalID: late.id.uuidString)))
            try w.delete(StoredTransaction(transaction: early, keys: DedupeKeys(externalID: early.id.uuidString)))
        }
        seen = try await changes()
        #expect(seen.deleted == [early.id] && seen.inserted.isEmpty && seen.updated.isEmpty)
    }

    @Test func revokingEndsTheTokenAndOpenStreams() async throws {
        let s = try Self.setup()
        try s.store.authorizeClient(named: "budget", grant: .init(accounts: [.init(accountID: s.checking.id)], dataTypes: [.transactions]))
        #expect(try s.store.client(authenticatedBy: s.token)?.name == "budget")
        #expect(try s.store.client(authenticatedBy: s.token + "x") == nil)
        #expect(try s.store.client(authenticatedBy: "") == nil)
        let client = try FinanceStore(path: s.path, clientToken: s.token)
        defer { client.close() }
        var iterator = client.allTransactionHistory(isMonitoring: true).makeAsyncIterator()
        #expect(try await iterator.next()?.inserted.count == 3)

        try s.store.revokeClient(named: "budget")
        #expect(try s.store.client(authenticatedBy: s.token) == nil)
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { _ = try await iterator.next() }
        #expect(try await client.authorizationStatus() == .denied)
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await client.transactions(query: TransactionQuery()) }
        #expect(throws: CofferError.self) { try FinanceStore(path: s.path, clientToken: s.token) }
        #expect((try? FinanceStore(path: s.path, clientToken: s.token)) == nil)
        // A revoked client is not authorized again: a new token needs a new client.
        #expect(throws: CofferError.self) { try s.store.authorizeClient(named: "budget", grant: .none) }
        #expect(try s.store.removeClient(named: "budget"))
        #expect(try s.store.clients().isEmpty)
    }

    @Test func theOwnersOperationsAreNotAClients() async throws {
        let s = try Self.setup()
        try s.store.authorizeClient(named: "budget", grant: .init(accounts: [.init(accountID: s.checking.id)], dataTypes: ClientDataTypes.all))
        let client = try FinanceStore(path: s.path, clientToken: s.token)
        defer { client.close() }
        #expect(throws: CofferError.self) { try client.write { _ in } }
        #expect(throws: CofferError.self) { try client.deliveryHooks() }
        #expect(throws: CofferError.self) { try client.backup(to: s.path + ".copy") }
        await #expect(throws: CofferError.self) { try await client.imports() }
        await #expect(throws: CofferError.self) { try await client.info() }
        // A client cannot make another client, nor authorize itself.
        #expect(throws: CofferError.self) { try client.addClient(named: "other") }
        #expect(throws: CofferError.self) { try client.authorizeClient(named: "budget", grant: .none) }
    }

    @Test func tokensAreHashedAndNamesChecked() throws {
        let s = try Self.setup()
        #expect(s.token.hasPrefix("coffer_") && s.token.count == 7 + 43)
        let stored = try s.store.readNow { connection in
            let statement = try connection.statement("SELECT token_hash FROM client")
            defer { connection.finishStatements() }
            _ = try statement.step()
            return statement.blob(0)
        }
        #expect(stored.map([UInt8].init) == ClientToken.hash(s.token))
        #expect(throws: CofferError.self) { try s.store.addClient(named: "budget") }
        #expect(throws: CofferError.self) { try s.store.addClient(named: "two words") }
        #expect(throws: CofferError.self) { try s.store.authorizeClient(named: "budget", grant: .init(accounts: [.init(accountID: UUID())])) }
        #expect(throws: CofferError.self) { try FinanceStore(path: s.path, clientToken: "coffer_nope") }
    }
}

enum ClientDataTypes {
    static let all = FinanceStore.ClientDataType.allCases
}
