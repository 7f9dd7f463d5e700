import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// "A client reads exactly its grant" (issue 17), as a property. For random stores (accounts, transactions on
/// random days and UTC offsets, balances), random grants (accounts, each with an earliest date or none, and data
/// types) and random edits (new rows, dates moved back and forth across the earliest date, amounts changed, rows
/// deleted, balances added, two accounts linked and the link undone, the grant changed), after every edit what the
/// client reads equals the owner's view filtered by the grant by hand:
/// - queries (`transactions`, `accountBalances`, `accounts`), and the transactions walked page by page by cursor;
/// - a mirror kept by following `allTransactionHistory`, `transactionHistory(forAccountID:)`,
///   `allAccountBalanceHistory` and `accountHistory` from their last tokens (an insert of a row the mirror holds, an
///   update or deletion of one it does not, fails), and the same read again from nil;
/// - after a grant change the old tokens throw `historyTokenInvalid` and a read from nil is the new grant; after a
///   revocation every read throws `dataRestricted` and the token resolves to no client.
///
/// `COFFER_PROPERTY_CASES=N` runs N cases (default 30), `COFFER_PROPERTY_SEED=N` replays one; a failure prints its seed.
@Suite struct ClientGrantPropertyTests {
    typealias SplitMix = OrderInvarianceTests.SplitMix

    static var cases: [UInt64] {
        if let seed = ProcessInfo.processInfo.environment["COFFER_PROPERTY_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = ProcessInfo.processInfo.environment["COFFER_PROPERTY_CASES"].flatMap(Int.init) ?? 30
        return (1...UInt64(max(1, count))).map { $0 }
    }

    static let base = CalendarDay.dayNumber(CalendarDay.parse("2026-03-01")!)

    /// The grant by hand: what the client should see of the owner's records.
    struct Expected {
        var accounts: [UUID: Int?]
        var types: Set<FinanceStore.ClientDataType>

        func sees(_ t: Transaction) -> Bool {
            guard let earliest = accounts[t.accountID] else { return false }
            return earliest.map { t.localDay >= $0 } ?? true
        }

        func sees(_ b: AccountBalance) -> Bool {
            guard let earliest = accounts[b.accountID] else { return false }
            let asOf = max(b.available?.asOfDate ?? .distantPast, b.booked?.asOfDate ?? .distantPast)
            return earliest.map { CalendarDay.dayNumber(asOf) >= $0 } ?? true
        }

        func sees(_ a: Account) -> Bool { accounts[a.id] != nil }

        var grant: FinanceStore.Grant {
            FinanceStore.Grant(accounts: accounts.map { FinanceStore.GrantedAccount(accountID: $0.key, earliestDate: $0.value.map(CalendarDay.date(day:))) },
                               dataTypes: Array(types))
        }
    }

    /// What the client has been told, by following history.
    struct Mirror<M: Identifiable & Sendable & Equatable>: Sendable where M.ID == UUID {
        var rows: [UUID: M] = [:]
        var token: HistoryToken?

        mutating func follow(_ history: FinanceStore.History<M>, _ context: String) async throws {
            for try await changes in history {
                for m in changes.inserted {
                    #expect(rows[m.id] == nil, "\(context): inserted \(m.id) twice")
                    rows[m.id] = m
                }
                for m in changes.updated {
                    #expect(rows[m.id] != nil, "\(context): updated \(m.id), which it was never told of")
                    rows[m.id] = m
                }
                for id in changes.deleted {
                    #expect(rows[id] != nil, "\(context): deleted \(id), which it was never told of")
                    rows[id] = nil
                }
                token = changes.newToken
            }
        }
    }

    struct Followers {
        var all = Mirror<Transaction>()
        var one = Mirror<Transaction>()
        var balances = Mirror<AccountBalance>()
        var accounts = Mirror<Account>()
    }

    static func transaction(_ account: UUID, _ rng: inout SplitMix) -> Transaction {
        let day = base + Int.random(in: 0..<40, using: &rng)
        // A third of the rows are times with an offset, whose local day may differ from their UTC day.
        let offset: Int? = Int.random(in: 0..<3, using: &rng) == 0 ? [-8, -5, 9, 13].randomElement(using: &rng)! * 3600 : nil
        let date = CalendarDay.date(day: day).addingTimeInterval(offset == nil ? 0 : Double(Int.random(in: 0..<24, using: &rng) * 3600))
        let cents = Int.random(in: 100...9999, using: &rng)
        let text = ["Coffee", "Books", "Rent", "Fuel", "Lunch"].randomElement(using: &rng)!
        return Transaction(id: .timeOrdered(), accountID: account,
                           transactionAmount: CurrencyAmount(amount: Decimal(cents) / 100, currencyCode: "USD"),
                           creditDebitIndicator: .debit, transactionDescription: text, originalTransactionDescription: text.uppercased(),
                           transactionType: .pointOfSale, status: .booked, transactionDate: date, timeZoneOffset: offset)
    }

    static func balance(_ account: UUID, _ rng: inout SplitMix) -> AccountBalance {
        let asOf = CalendarDay.date(day: base + Int.random(in: 0..<40, using: &rng)).addingTimeInterval(Double(Int.random(in: 0..<86_400, using: &rng)))
        return AccountBalance(id: UUID(), accountID: account, currentBalance: .booked(
            Balance(amount: CurrencyAmount(amount: Decimal(Int.random(in: 0...99_999, using: &rng)) / 100, currencyCode: "USD"),
                    asOfDate: asOf, creditDebitIndicator: .credit)))
    }

    static func randomGrant(_ accounts: [UUID], _ rng: inout SplitMix) -> Expected {
        var granted: [UUID: Int?] = [:]
        for id in accounts where Int.random(in: 0..<3, using: &rng) > 0 {
            granted[id] = Bool.random(using: &rng) ? base + Int.random(in: 0..<40, using: &rng) : nil
        }
        var types = Set(FinanceStore.ClientDataType.allCases.filter { _ in Int.random(in: 0..<5, using: &rng) > 0 })
        if Int.random(in: 0..<4, using: &rng) > 0 { types.insert(.transactions) }
        return Expected(accounts: granted, types: types)
    }

    @Test func whatAClientReadsIsTheOwnersViewFilteredByItsGrant() async throws {
        for seed in Self.cases {
            try await Self.run(seed: seed)
        }
    }

    static func run(seed: UInt64) async throws {
        var rng = SplitMix(state: seed &* 7919 &+ 3)
        let folder = NSTemporaryDirectory() + "coffer-grant-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/store.sqlite"
        let owner = try FinanceStore(path: path)
        defer { owner.close() }

        // Accounts, rows and balances.
        var accountIDs: [UUID] = []
        try owner.write { w in
            for n in 0..<Int.random(in: 2...4, using: &rng) {
                let identity = w.accountIdentity(institution: "Grant Bank", number: "5550000\(n)")
                try w.insertAccount(.asset(AssetAccount(id: identity.id, displayName: "Account \(n)", institutionName: "Grant Bank",
                                                        currencyCode: "USD")), identityKey: identity.key, maskedNumber: "••••000\(n)")
                accountIDs.append(identity.id)
            }
            for _ in 0..<Int.random(in: 10...40, using: &rng) {
                let t = transaction(accountIDs.randomElement(using: &rng)!, &rng)
                try w.insert(t, keys: DedupeKeys(externalID: t.id.uuidString))
            }
            for id in accountIDs {
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    let b = balance(id, &rng)
                    try w.insertBalance(b, dedupeKey: b.id.uuidString)
                }
            }
        }
        let (added, token) = try owner.addClient(named: "prop")
        var expected = randomGrant(accountIDs, &rng)
        try owner.authorizeClient(named: "prop", grant: expected.grant)
        let client = try FinanceStore(path: path, clientToken: token)
        defer { client.close() }
        #expect(try owner.client(authenticatedBy: token)?.id == added.id)
        var followed = accountIDs.randomElement(using: &rng)!
        var mirrors = Followers()
        var links: [Int64] = []

        for step in 0..<Int.random(in: 4...8, using: &rng) {
            let context = "seed \(seed) step \(step)"
            // Check the client against the owner, then edit.
            let ok = try await check(owner: owner, client: client, expected: expected, followed: followed, mirrors: &mirrors,
                                     rng: &rng, context: context)
            guard ok else { return }

            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                // A new grant: every token of the old one is refused; from nil the client reads the new one.
                let old = mirrors
                expected = randomGrant(try await owner.accounts(query: AccountQuery()).map(\.id), &rng)
                try owner.authorizeClient(named: "prop", grant: expected.grant)
                if expected.types.contains(.transactions), let stale = old.all.token {
                    await #expect(throws: FinanceError.historyTokenInvalid, "\(context): a token of the old grant") {
                        for try await _ in client.allTransactionHistory(since: stale, isMonitoring: false) {}
                    }
                }
                mirrors = Followers()
            case 1 where accountIDs.count > 1:
                // Two accounts made one (the surviving id keeps its grant; the other's grant goes with it).
                let keep = accountIDs.randomElement(using: &rng)!
                let other = accountIDs.filter { $0 != keep }.randomElement(using: &rng)!
                let report = try owner.linkAccounts(keep: keep, other: other)
                if let ledger = report.ledgerID { links.append(ledger) }
                accountIDs.removeAll { $0 == other }
                if followed == other {
                    // A token is for one stream: following another account starts from nil.
                    followed = keep
                    mirrors.one = Mirror()
                }
            case 2 where !links.isEmpty:
                _ = try owner.undoImport(links.removeLast())
                accountIDs = try await owner.accounts(query: AccountQuery()).map(\.id)
            default:
                let stored = try await owner.transactions(query: TransactionQuery())
                let live = Set(try await owner.accounts(query: AccountQuery()).map(\.id))
                try owner.write { w in
                    for _ in 0..<Int.random(in: 1...6, using: &rng) {
                        switch Int.random(in: 0..<6, using: &rng) {
                        case 0, 1:
                            let t = transaction(Array(live).randomElement(using: &rng)!, &rng)
                            try w.insert(t, keys: DedupeKeys(externalID: t.id.uuidString))
                        case 2, 3:
                            // A date moved, often across an earliest date.
                            guard var t = stored.randomElement(using: &rng), let row = try w.transaction(id: t.id) else { continue }
                            t.transactionDate = t.transactionDate.addingTimeInterval(Double(Int.random(in: -12...12, using: &rng)) * 86_400)
                            try w.update(t, keys: row.keys)
                        case 4:
                            guard let t = stored.randomElement(using: &rng), let row = try w.transaction(id: t.id) else { continue }
                            try w.delete(row)
                        default:
                            let b = balance(Array(live).randomElement(using: &rng)!, &rng)
                            try w.insertBalance(b, dedupeKey: b.id.uuidString)
                        }
                    }
                }
            }
        }
        guard try await check(owner: owner, client: client, expected: expected, followed: followed, mirrors: &mirrors,
                              rng: &rng, context: "seed \(seed) last") else { return }

        // Revoked: nothing reads, the token opens nothing.
        try owner.revokeClient(named: "prop")
        #expect(try owner.client(authenticatedBy: token) == nil, "seed \(seed)")
        await #expect(throws: FinanceError.dataRestricted(.financialData), "seed \(seed)") { try await client.transactions(query: TransactionQuery()) }
        await #expect(throws: FinanceError.dataRestricted(.financialData), "seed \(seed)") {
            for try await _ in client.allTransactionHistory(since: mirrors.all.token, isMonitoring: false) {}
        }
    }

    /// Compares everything the client reads with the owner's view filtered by hand; false after a mismatch.
    static func check(owner: FinanceStore, client: FinanceStore, expected: Expected, followed: UUID, mirrors: inout Followers,
                      rng: inout SplitMix, context: String) async throws -> Bool {
        func restricted<T>(_ type: FinanceStore.ClientDataType, _ read: () async throws -> T) async throws -> T? {
            if expected.types.contains(type) { return try await read() }
            await #expect(throws: FinanceError.dataRestricted(.financialData), "\(context): \(type) is not granted") { _ = try await read() }
            return nil
        }
        let byDate = [SortDescriptor(\Transaction.transactionDate), SortDescriptor(\Transaction.id)]
        let ownerRows = try await owner.transactions(query: TransactionQuery(sortDescriptors: byDate))
        let wanted = ownerRows.filter(expected.sees)
        if let seen = try await restricted(.transactions, { try await client.transactions(query: TransactionQuery(sortDescriptors: byDate)) }) {
            guard seen == wanted else {
                Issue.record("\(context): the client's transactions differ: \(seen.count) read, \(wanted.count) expected")
                return false
            }
            // Page by page by cursor, in another order.
            let byAmount = [SortDescriptor(\Transaction.transactionAmount.amount, order: .reverse)]
            let all = try await client.transactions(query: TransactionQuery(sortDescriptors: byAmount))
            #expect(Set(all.map(\.id)) == Set(wanted.map(\.id)), "\(context): sorted by amount")
            var query = TransactionQuery(sortDescriptors: byAmount, limit: Int.random(in: 1...7, using: &rng))
            var paged: [Transaction] = []
            while true {
                let page = try await client.transactionPage(query: query)
                paged += page.transactions
                guard let next = page.nextCursor else { break }
                query.after = next
            }
            guard paged == all else {
                Issue.record("\(context): pages differ from the whole result: \(paged.count) against \(all.count)")
                return false
            }
            // History: followed from the last tokens, and again from nil.
            try await mirrors.all.follow(client.allTransactionHistory(since: mirrors.all.token, isMonitoring: false), context + " all")
            try await mirrors.one.follow(client.transactionHistory(forAccountID: followed, since: mirrors.one.token, isMonitoring: false),
                                         context + " one account")
            var fresh = Mirror<Transaction>()
            try await fresh.follow(client.allTransactionHistory(isMonitoring: false), context + " from nil")
            let expectedRows = Dictionary(uniqueKeysWithValues: wanted.map { ($0.id, $0) })
            guard mirrors.all.rows == expectedRows, fresh.rows == expectedRows,
                  mirrors.one.rows == expectedRows.filter({ $0.value.accountID == followed }) else {
                Issue.record("""
                    \(context): history differs from the grant: followed \(mirrors.all.rows.count), from nil \(fresh.rows.count), \
                    one account \(mirrors.one.rows.count), expected \(expectedRows.count) \
                    (\(Set(mirrors.all.rows.keys).symmetricDifference(expectedRows.keys).count) ids differ)
                    """)
                return false
            }
        }
        let ownerBalances = try await owner.accountBalances(query: AccountBalanceQuery())
        if let seen = try await restricted(.accountBalances, { try await client.accountBalances(query: AccountBalanceQuery()) }) {
            let wantedBalances = ownerBalances.filter(expected.sees)
            try await mirrors.balances.follow(client.allAccountBalanceHistory(since: mirrors.balances.token, isMonitoring: false),
                                              context + " balances")
            guard seen == wantedBalances, mirrors.balances.rows == Dictionary(uniqueKeysWithValues: wantedBalances.map { ($0.id, $0) }) else {
                Issue.record("\(context): balances differ: \(seen.count) read, \(mirrors.balances.rows.count) followed, \(wantedBalances.count) expected")
                return false
            }
        }
        let ownerAccounts = try await owner.accounts(query: AccountQuery())
        if let seen = try await restricted(.accounts, { try await client.accounts(query: AccountQuery()) }) {
            let wantedAccounts = ownerAccounts.filter(expected.sees)
            try await mirrors.accounts.follow(client.accountHistory(since: mirrors.accounts.token, isMonitoring: false), context + " accounts")
            guard seen == wantedAccounts, mirrors.accounts.rows == Dictionary(uniqueKeysWithValues: wantedAccounts.map { ($0.id, $0) }) else {
                Issue.record("\(context): accounts differ: \(seen.count) read, \(wantedAccounts.count) expected")
                return false
            }
        }
        return true
    }
}
