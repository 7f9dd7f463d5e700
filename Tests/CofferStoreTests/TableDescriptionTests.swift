@testable import CofferStore
import Foundation
import GRDB
import Testing

/// Each table is described once (`TxnColumn` for the fast path, a GRDB record for the rest): these tests hold the
/// descriptions to the schema a new store gets, and the values to a round trip through every path that reads them.
@Suite struct TableDescriptionTests {
    /// `PRAGMA table_info` of a freshly migrated store: name → (declared type, NOT NULL).
    static func columns(_ table: String, _ store: FinanceStore) async throws -> [String: (type: String, notNull: Bool)] {
        try await store.read { db in
            var out: [String: (type: String, notNull: Bool)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\" FROM pragma_table_info(?)", arguments: [table]) {
                out[row["name"]] = (row["type"], row["notnull"])
            }
            return out
        }
    }

    @Test func txnColumnDescribesEveryColumnOfTxn() async throws {
        let (store, _) = try makeStore()
        let schema = try await Self.columns(TxnColumn.table, store)
        for column in TxnColumn.allCases {
            let declared = try #require(schema[column.name], "txn has no column \(column.name)")
            #expect(declared.type == column.declaration.type, "txn.\(column.name) is \(declared.type)")
            #expect(declared.notNull == !column.declaration.nullable, "txn.\(column.name) NOT NULL is \(declared.notNull)")
        }
        #expect(Set(schema.keys) == Set(TxnColumn.allCases.map(\.name)), "every txn column has a TxnColumn case")
        #expect(TxnColumn.allCases.map(\.rawValue) == Array(0..<CInt(TxnColumn.allCases.count)), "cases are column indexes")
    }

    /// Each GRDB record's table, and how to decode one from a row.
    static let records: [(table: String, keys: [String], decode: @Sendable (Row) throws -> Void)] = [
        (AccountRecord.databaseTableName, AccountRecord.CodingKeys.allCases.map(\.stringValue), { _ = try AccountRecord(row: $0) }),
        (BalanceRecord.databaseTableName, BalanceRecord.CodingKeys.allCases.map(\.stringValue), { _ = try BalanceRecord(row: $0) }),
        (DeliveryHookRecord.databaseTableName, DeliveryHookRecord.CodingKeys.allCases.map(\.stringValue),
         { _ = try DeliveryHookRecord(row: $0) }),
        (StatementPeriodRecord.databaseTableName, StatementPeriodRecord.CodingKeys.allCases.map(\.stringValue),
         { _ = try StatementPeriodRecord(row: $0) }),
        (AccountAliasRecord.databaseTableName, AccountAliasRecord.CodingKeys.allCases.map(\.stringValue),
         { _ = try AccountAliasRecord(row: $0) }),
        (LedgerRecord.databaseTableName, LedgerRecord.CodingKeys.allCases.map(\.stringValue), { _ = try LedgerRecord(row: $0) }),
        (OrderRecord.databaseTableName, OrderRecord.CodingKeys.allCases.map(\.stringValue), { _ = try OrderRecord(row: $0) }),
    ]

    /// Every record names every column of its table, and its optional properties are its nullable columns: a row with
    /// every nullable column NULL decodes, and one with a NOT NULL column NULL does not.
    @Test func everyRecordDescribesItsTable() async throws {
        let (store, _) = try makeStore()
        for record in Self.records {
            let schema = try await Self.columns(record.table, store)
            #expect(Set(record.keys) == Set(schema.keys), "\(record.table): the record's columns and the table's differ")
            #expect(record.keys.count == Set(record.keys).count)
            func row(nulling: String?) -> Row {
                var values: [String: (any DatabaseValueConvertible)?] = [:]
                for (name, declared) in schema where declared.notNull && name != nulling {
                    values[name] = switch declared.type {
                    case "BLOB": UUID()
                    case "TEXT": "x"
                    default: 1
                    }
                }
                return Row(values)
            }
            #expect(throws: Never.self, "\(record.table): a nullable column is not optional") { try record.decode(row(nulling: nil)) }
            for (name, declared) in schema where declared.notNull {
                #expect(throws: (any Error).self, "\(record.table).\(name) is NOT NULL: its property must not be optional") {
                    try record.decode(row(nulling: name))
                }
            }
        }
    }

    // MARK: Round trips

    static func randomText(_ rng: inout PushdownPropertyTests.Seeded) -> String {
        ["", "Coffee", "CAFÉ MÜLLER", "café müller", "50% off_", "İZMİR ☕️", String(repeating: "x", count: 300), "a\u{1F}b"]
            .randomElement(using: &rng)!
    }

    static func randomAmount(_ rng: inout PushdownPropertyTests.Seeded, _ currency: String) -> CurrencyAmount {
        let text = ["0", "0.01", "12.30", "1234567.891234567", "0.0000001", "99999999999999999.99", "5"].randomElement(using: &rng)!
        return CurrencyAmount(amount: ExactDecimal.parse(text)!, currencyCode: currency)
    }

    static func randomTransaction(_ rng: inout PushdownPropertyTests.Seeded, id: UUID, account: UUID) -> Transaction {
        let date = Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &rng)) / 1000)
        let description = randomText(&rng)
        let currency = ["USD", "EUR", "JPY"].randomElement(using: &rng)!
        return Transaction(
            id: id, accountID: account, transactionAmount: randomAmount(&rng, currency),
            foreignCurrencyAmount: Bool.random(using: &rng) ? randomAmount(&rng, "CHF") : nil,
            foreignCurrencyExchangeRate: Bool.random(using: &rng) ? ExactDecimal.parse("0.00912345678901") : nil,
            creditDebitIndicator: CreditDebitIndicator.allCases.randomElement(using: &rng)!,
            transactionDescription: description,
            originalTransactionDescription: Bool.random(using: &rng) ? description : randomText(&rng),
            merchantCategoryCode: Bool.random(using: &rng) ? MerchantCategoryCode(rawValue: Int16.random(in: 0...9999, using: &rng)) : nil,
            merchantName: [nil, description, randomText(&rng)].randomElement(using: &rng)!,
            transactionType: TransactionType.allCases.randomElement(using: &rng)!,
            status: TransactionStatus.allCases.randomElement(using: &rng)!,
            transactionDate: date,
            postedDate: Bool.random(using: &rng) ? date.addingTimeInterval(Double(Int.random(in: 0...864_000, using: &rng))) : nil,
            timeZoneOffset: Bool.random(using: &rng) ? Int.random(in: -50_400...50_400, using: &rng) / 60 * 60 : nil)
    }

    static func randomKeys(_ rng: inout PushdownPropertyTests.Seeded, _ n: Int) -> DedupeKeys {
        Bool.random(using: &rng) ? DedupeKeys(externalID: "ofx:\(n)")
            : DedupeKeys(fingerprint: "fp\(n)", occurrence: Int.random(in: 1...3, using: &rng))
    }

    /// Random transactions inserted, then updated to other random values, read back through the query path (the
    /// read connections' statements), the writer (GRDB's statements), and history: each equals what was written.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func transactionsRoundTripThroughEveryPath(seed: UInt64) async throws {
        var rng = PushdownPropertyTests.Seeded(state: seed)
        let (store, _) = try makeStore()
        let account = try addAccount(store)
        var expected: [UUID: StoredTransaction] = [:]
        try store.write { w in
            w.recordSource = "ofx"
            for n in 0..<60 {
                let t = Self.randomTransaction(&rng, id: UUID(), account: account.id)
                let keys = Self.randomKeys(&rng, n)
                try w.insert(t, keys: keys)
                expected[t.id] = StoredTransaction(transaction: t, keys: keys, source: "ofx")
            }
        }
        try store.write { w in
            w.recordSource = "camt"
            for (n, id) in expected.keys.sorted(by: { $0.uuidString < $1.uuidString }).enumerated() where n % 2 == 0 {
                let t = Self.randomTransaction(&rng, id: id, account: account.id)
                let keys = Self.randomKeys(&rng, 100 + n)
                try w.update(t, keys: keys)
                expected[id] = StoredTransaction(transaction: t, keys: keys, source: "camt")
            }
        }
        func check(_ got: [Transaction], _ path: String) {
            #expect(got.count == expected.count, "\(path)")
            for t in got {
                #expect(t == expected[t.id]?.transaction, "\(path): \(t.id)")
                #expect(t.transactionAmount.amount.description == expected[t.id]?.transaction.transactionAmount.amount.description)
            }
        }
        check(try await store.transactions(query: TransactionQuery()), "query")
        check(try await collect(store.transactionHistory(forAccountID: account.id, isMonitoring: false)).flatMap(\.inserted), "history")
        let stored = try store.write { w in try w.transactions(accountID: account.id) }
        check(stored.map(\.transaction), "writer")
        for s in stored {
            #expect(s.keys == expected[s.transaction.id]?.keys)
            #expect(s.source == expected[s.transaction.id]?.source)
        }
        // Unchanged content is recognised as such; a changed value is not.
        try store.write { w in
            for s in expected.values where s.keys.externalID != nil {
                let t = s.transaction
                let match = try w.externalIDMatch(accountID: account.id, externalID: s.keys.externalID!, comparedWith: t,
                                                  amounts: EncodedAmounts(t))
                #expect(match?.id == t.id && match?.unchanged == true)
                var changed = t
                changed.status = t.status == .booked ? .pending : .booked
                #expect(try w.externalIDMatch(accountID: account.id, externalID: s.keys.externalID!, comparedWith: changed,
                                              amounts: EncodedAmounts(changed))?.unchanged == false)
            }
        }
    }

    /// Random accounts and balances written through their records, read back through the query path and the writer.
    @Test(arguments: [4, 5] as [UInt64])
    func accountsAndBalancesRoundTrip(seed: UInt64) async throws {
        var rng = PushdownPropertyTests.Seeded(state: seed)
        let (store, _) = try makeStore()
        var accounts: [Account] = []
        var balances: [AccountBalance] = []
        func maybeDate() -> Date? {
            Bool.random(using: &rng) ? Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000, using: &rng))) : nil
        }
        try store.write { w in
            for n in 0..<12 {
                let id = UUID()
                let currency = ["USD", "EUR"].randomElement(using: &rng)!
                let account: Account = Bool.random(using: &rng)
                    ? .asset(AssetAccount(id: id, displayName: Self.randomText(&rng), accountDescription: Bool.random(using: &rng) ? "d" : nil,
                                          institutionName: Self.randomText(&rng), currencyCode: currency, openingDate: maybeDate()))
                    : .liability(LiabilityAccount(
                        id: id, displayName: Self.randomText(&rng), accountDescription: nil, institutionName: "Bank",
                        currencyCode: currency, openingDate: maybeDate(), creditInformation: AccountCreditInformation(
                            creditLimit: Bool.random(using: &rng) ? Self.randomAmount(&rng, currency) : nil,
                            minimumNextPaymentAmount: Bool.random(using: &rng) ? Self.randomAmount(&rng, currency) : nil,
                            nextPaymentDueDate: maybeDate(),
                            overduePaymentAmount: Bool.random(using: &rng) ? Self.randomAmount(&rng, currency) : nil)))
                try w.insertAccount(account, identityKey: "key\(n)", maskedNumber: Bool.random(using: &rng) ? "••••\(n)" : nil)
                accounts.append(account)
                for k in 0..<2 {
                    func side() -> Balance {
                        Balance(amount: Self.randomAmount(&rng, currency), asOfDate: maybeDate() ?? Date(timeIntervalSince1970: 0),
                                creditDebitIndicator: CreditDebitIndicator.allCases.randomElement(using: &rng)!)
                    }
                    let current: CurrentBalance = switch Int.random(in: 0..<3, using: &rng) {
                    case 0: .available(side())
                    case 1: .booked(side())
                    default: .availableAndBooked(available: side(), booked: side())
                    }
                    let balance = AccountBalance(id: UUID(), accountID: id, currentBalance: current)
                    #expect(try w.insertBalance(balance, dedupeKey: "b\(k)"))
                    #expect(try !w.insertBalance(balance, dedupeKey: "b\(k)"))
                    balances.append(balance)
                }
            }
        }
        let byID = { (a: Account) in a.id.uuidString }
        #expect(try await store.accounts(query: AccountQuery()).sorted { byID($0) < byID($1) } == accounts.sorted { byID($0) < byID($1) })
        #expect(try store.write { w in try accounts.map { try w.account(id: $0.id) } } == accounts)
        let balanceID = { (b: AccountBalance) in b.id.uuidString }
        #expect(try await store.accountBalances(query: AccountBalanceQuery()).sorted { balanceID($0) < balanceID($1) }
                == balances.sorted { balanceID($0) < balanceID($1) })
        #expect(try await collect(store.accountHistory(isMonitoring: false)).flatMap(\.inserted).count == accounts.count)
    }
}
