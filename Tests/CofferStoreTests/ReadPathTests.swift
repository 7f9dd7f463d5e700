@testable import CofferStore
import Foundation
import GRDB
import Testing

/// The read path decodes rows from its own SQLite statements on kept connections; these tests hold it to what the
/// writer reads through GRDB, and to the history contract.
@Suite struct ReadPathTests {
    /// Transactions that exercise every column: NULLs, foreign amounts, amounts past six decimals, odd texts.
    static func varied(_ account: UUID) -> [Transaction] {
        var out: [Transaction] = []
        let amounts = ["0", "0.01", "12.30", "1234567.891234567", "0.0000001", "99999999999999999.99", "5.", "-0.5", "1e3"]
        for (i, text) in amounts.enumerated() {
            guard let amount = ExactDecimal.parse(text) else { continue }
            var t = makeTransaction(account, "1", on: "2026-02-0\(i % 9 + 1)", "Shop \(i) — café ☕️ \(String(repeating: "x", count: i * 7))",
                                    indicator: i % 2 == 0 ? .credit : .debit, status: i % 3 == 0 ? .pending : .booked,
                                    type: i % 2 == 0 ? .pointOfSale : .transfer, mcc: i % 2 == 0 ? nil : 5411)
            t.transactionAmount = CurrencyAmount(amount: abs(amount), currencyCode: i % 4 == 0 ? "EUR" : "USD")
            if i % 3 == 1 {
                t.foreignCurrencyAmount = CurrencyAmount(amount: ExactDecimal.parse("1\(i).000123456789")!, currencyCode: "JPY")
                t.foreignCurrencyExchangeRate = ExactDecimal.parse("0.00912345678901")
            }
            t.merchantName = i % 2 == 0 ? nil : ""
            t.originalTransactionDescription = i == 0 ? "" : t.originalTransactionDescription
            if i % 3 == 2 {
                // Equal texts are decoded once and shared; a prefix is not equal.
                t.originalTransactionDescription = t.transactionDescription
                t.merchantName = i == 5 ? String(t.transactionDescription.dropLast()) : t.transactionDescription
            }
            t.postedDate = i % 2 == 0 ? nil : Date(timeIntervalSince1970: 1_770_000_000.123)
            out.append(t)
        }
        return out
    }

    @Test func theReadPathAndTheWriterDecodeEveryColumnAlike() async throws {
        let (store, _) = try makeStore()
        let asset = try addAccount(store)
        let card = try addAccount(store, number: "99998888", kind: .liability, name: "Card")
        try store.write { w in
            try w.updateAccount(.liability(LiabilityAccount(
                id: card.id, displayName: "Card", accountDescription: "Gold", institutionName: "Test Bank", currencyCode: "USD",
                openingDate: day("2020-05-01"), creditInformation: AccountCreditInformation(
                    creditLimit: money("5000"), minimumNextPaymentAmount: money("25.123456789"),
                    nextPaymentDueDate: day("2026-03-01"), overduePaymentAmount: nil))))
            _ = try w.insertBalance(AccountBalance(id: UUID(), accountID: asset.id, currentBalance: .booked(
                Balance(amount: money("10.5"), asOfDate: day("2026-02-01"), creditDebitIndicator: .credit))), dedupeKey: "b1")
            _ = try w.insertBalance(AccountBalance(id: UUID(), accountID: card.id, currentBalance: .availableAndBooked(
                available: Balance(amount: money("1.0000001"), asOfDate: day("2026-02-02"), creditDebitIndicator: .debit),
                booked: Balance(amount: money("2"), asOfDate: day("2026-02-03"), creditDebitIndicator: .credit))), dedupeKey: "b2")
        }
        try insert(store, Self.varied(asset.id) + Self.varied(card.id))

        // The read path (queries, on kept connections) against the writer's (GRDB statements and records).
        let t = try await store.transactions(query: TransactionQuery()).sorted { $0.id.uuidString < $1.id.uuidString }
        let written = try store.write { w in
            try (w.transactions(accountID: asset.id) + w.transactions(accountID: card.id)).map(\.transaction)
        }.sorted { $0.id.uuidString < $1.id.uuidString }
        #expect(t.count == 16)
        #expect(t == written)
        // Equal decimals can differ in representation; the exact text must not.
        #expect(t.map { ExactDecimal.text($0.transactionAmount.amount) } == written.map { ExactDecimal.text($0.transactionAmount.amount) })
        #expect(t.map { $0.foreignCurrencyExchangeRate.map { ExactDecimal.text($0) } }
                == written.map { $0.foreignCurrencyExchangeRate.map { ExactDecimal.text($0) } })
        let a = try await store.accounts(query: AccountQuery()).sorted { $0.id.uuidString < $1.id.uuidString }
        let writtenAccounts = try store.write { w in try [asset.id, card.id].compactMap { try w.account(id: $0) } }.sorted { $0.id.uuidString < $1.id.uuidString }
        #expect(a.count == 2 && a == writtenAccounts)
        // Whole records too (keys, masked number, bookkeeping), read column by column, and by name for another list.
        let grdbRecords = try await store.read { db in try AccountRecord.order(AccountRecord.Columns.id).fetchAll(db) }
        for columns in [AccountRecord.selectList, "created_seq, " + AccountRecord.selectList.replacingOccurrences(of: ", created_seq", with: "")] {
            let direct = try store.readNow { connection in
                let statement = try connection.statement("SELECT \(columns) FROM account ORDER BY id")
                var out: [AccountRecord] = []
                while try statement.step() { out.append(try AccountRecord.decode(statement)) }
                return out
            }
            #expect(direct.count == 2 && direct == grdbRecords, "\(columns)")
        }
        let b = try await store.accountBalances(query: AccountBalanceQuery()).sorted { $0.id.uuidString < $1.id.uuidString }
        let writtenBalances = try await store.read { db in try BalanceRecord.fetchAll(db).map { try $0.balance() } }.sorted { $0.id.uuidString < $1.id.uuidString }
        #expect(b.count == 2 && b == writtenBalances)
    }

    @Test func aDamagedAmountIsAnErrorNotACrash() async throws {
        let (store, path) = try makeStore()
        let a = try addAccount(store)
        try insert(store, [makeTransaction(a.id, "1", on: "2026-01-01")])
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: "UPDATE txn SET amount = '12abc'") }
        await #expect(throws: CofferError.self) { _ = try await store.transactions(query: TransactionQuery()) }
    }

    @Test func sinceTokenSeesACommitOfAnotherConnectionAndRejectsTamperedTokens() async throws {
        let (store, path) = try makeStore()
        let a = try addAccount(store)
        try insert(store, [makeTransaction(a.id, "1", on: "2026-01-01")])
        let token = try #require(try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false)).last?.newToken)
        // The fast path, many times over (kept connections, cached statements): nothing new.
        for _ in 0..<50 {
            #expect(try await collect(store.transactionHistory(forAccountID: a.id, since: token, isMonitoring: false)).isEmpty)
        }
        // Another store object is another set of connections (as another process would be).
        let writer = try FinanceStore(path: path)
        let fresh = makeTransaction(a.id, "2", on: "2026-01-02")
        try insert(writer, [fresh])
        let delta = try await collect(store.transactionHistory(forAccountID: a.id, since: token, isMonitoring: false))
        #expect(delta.flatMap(\.inserted).map(\.id) == [fresh.id])
        // The whole store's stream sees it too.
        let all = try await collect(store.allTransactionHistory(since: token, isMonitoring: false))
        #expect(all.flatMap(\.inserted).map(\.id) == [fresh.id])

        // Every single-character change of the token is rejected.
        let text = Array(token.stringValue)
        for i in text.indices {
            var bad = text
            bad[i] = bad[i] == "A" ? "B" : "A"
            await #expect(throws: FinanceError.historyTokenInvalid) {
                _ = try await collect(store.transactionHistory(forAccountID: a.id, since: HistoryToken(stringValue: String(bad)),
                                                               isMonitoring: false))
            }
        }
    }

    @Test func tokensAreStandardBase64URL() {
        var rng = SystemRandomNumberGenerator()
        for count in 0..<80 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == foundation)
            #expect(Base64URL.decode(foundation) == bytes)
            #expect(Base64URL.decode(Data(bytes).base64EncodedString()) == bytes)
        }
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AB!C") == nil)
    }

    @Test func lastSnapshotBatchResumesInTheChangeLog() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        try insert(store, (0..<10).map { makeTransaction(a.id, "\($0 + 1)", on: "2026-01-01") })
        do {
            let store = try FinanceStore(path: store.path, historyOptions: HistoryOptions(batchSize: 5))
            // Exactly two full pages: no third, empty one, and the last token is not a snapshot cursor.
            let batches = try await collect(store.transactionHistory(forAccountID: a.id, isMonitoring: false))
            #expect(batches.map { $0.inserted.count } == [5, 5])
            let last = try store.position(of: try #require(batches.last?.newToken))
            #expect(!last.inSnapshot)
        }
    }

    @Test func equalDatesComeInIDOrderWhetherSQLiteOrSwiftBreaksTheTie() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        // Random ids (not time-ordered) and amounts, three days: the index order within a day is by amount.
        var rows: [Transaction] = []
        for i in 0..<60 {
            var t = makeTransaction(a.id, "\(Int.random(in: 1...9))", on: "2026-01-0\(i % 3 + 1)")
            t.id = UUID()
            rows.append(t)
        }
        try insert(store, rows)
        func expected(reverse: Bool) -> [UUID] {
            rows.sorted { x, y in
                if x.transactionDate != y.transactionDate { return reverse ? x.transactionDate > y.transactionDate : x.transactionDate < y.transactionDate }
                return x.id.uuidString < y.id.uuidString
            }.map(\.id)
        }
        let id = a.id
        let mine = #Predicate<Transaction> { $0.accountID == id }
        for reverse in [false, true] {
            let sort = reverse ? [SortDescriptor(\Transaction.transactionDate, order: .reverse)] : []
            let query = TransactionQuery(sortDescriptors: sort, predicate: mine)
            #expect(store.explain(query).tiesInSwift)
            #expect(try await store.transactions(query: query).map(\.id) == expected(reverse: reverse))
            // With a limit, SQLite orders everything itself; the answer is the same page.
            let paged = TransactionQuery(sortDescriptors: sort, predicate: mine, limit: 25, offset: 10)
            #expect(!store.explain(paged).tiesInSwift)
            #expect(try await store.transactions(query: paged).map(\.id) == Array(expected(reverse: reverse)[10..<35]))
        }
    }
}
