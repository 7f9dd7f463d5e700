import CofferStore
import Foundation
import Testing

@Suite struct QueryTests {
    @Test func sortsPagesAndFiltersByAccountAndDateRangeInSQL() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store, number: "111")
        let b = try addAccount(store, number: "222", name: "Savings")
        var all: [Transaction] = []
        for i in 1...28 {
            all.append(makeTransaction(a.id, "\(i).25", on: String(format: "2026-02-%02d", i)))
            all.append(makeTransaction(b.id, "\(i)", on: String(format: "2026-02-%02d", i), "Rent"))
        }
        // Two on the same day to exercise the id tiebreak.
        all.append(makeTransaction(a.id, "1.49", on: "2026-02-10"))
        try insert(store, all)

        let id = a.id
        let start = day("2026-02-05"), end = day("2026-02-15")
        let query = TransactionQuery(predicate: #Predicate { $0.accountID == id && $0.transactionDate >= start && $0.transactionDate <= end })
        let explained = store.explain(query)
        #expect(explained.predicatePushedDown)
        #expect(explained.sql.contains("account_id = ?"))
        let hits = try await store.transactions(query: query)
        #expect(hits.count == 12)
        #expect(hits.allSatisfy { $0.accountID == id && $0.transactionDate >= start && $0.transactionDate <= end })
        #expect(hits.map(\.transactionDate) == hits.map(\.transactionDate).sorted())

        // Paging: pages of 5 over every transaction of account a, newest first, no gaps or repeats.
        let byAccount = #Predicate<Transaction> { $0.accountID == id }
        var seen: [UUID] = []
        var offset = 0
        while true {
            let page = try await store.transactions(query: TransactionQuery(
                sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)], predicate: byAccount, limit: 5, offset: offset))
            if page.isEmpty { break }
            seen += page.map(\.id)
            offset += 5
        }
        #expect(seen.count == 29)
        #expect(Set(seen).count == 29)
        let everything = try await store.transactions(query: TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)], predicate: byAccount))
        #expect(everything.map(\.id) == seen)
    }

    @Test func aDateRangeWithoutAnAccountCoversEveryAccountInDateOrder() async throws {
        let (store, path) = try makeStore()
        let a = try addAccount(store, number: "111")
        let b = try addAccount(store, number: "222", name: "Savings")
        var all: [Transaction] = []
        for i in 1...20 {
            all.append(makeTransaction(a.id, "\(i)", on: String(format: "2026-03-%02d", i)))
            all.append(makeTransaction(b.id, "\(i).5", on: String(format: "2026-03-%02d", 21 - i)))
        }
        try insert(store, all)
        let start = day("2026-03-05"), end = day("2026-03-09")
        let query = TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate)],
                                     predicate: #Predicate { $0.transactionDate >= start && $0.transactionDate <= end })
        let explained = store.explain(query)
        let hits = try await store.transactions(query: query)
        #expect(hits.count == 10)
        #expect(Set(hits.map(\.accountID)) == [a.id, b.id])
        #expect(hits.map(\.transactionDate) == hits.map(\.transactionDate).sorted())
        // SQLite walks the date index in order: no scan of the table, no sort.
        let plan = try sqliteQueryPlan(path, explained)
        #expect(plan.contains("USING INDEX txn_date") && !plan.contains("TEMP B-TREE"), "\(plan)")
        // With an account, the (account, date) index.
        let id = a.id
        let byAccount = TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate)],
                                         predicate: #Predicate { $0.accountID == id && $0.transactionDate >= start && $0.transactionDate <= end })
        #expect(try sqliteQueryPlan(path, store.explain(byAccount)).contains("USING INDEX txn_account_date"))
    }

    @Test func sortsByAmountAndByTextAreRight() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        try insert(store, [makeTransaction(a.id, "10", on: "2026-01-01", "Bravo"), makeTransaction(a.id, "2.5", on: "2026-01-02", "alpha"),
                           makeTransaction(a.id, "100", on: "2026-01-03", "Charlie")])
        let byAmount = try await store.transactions(query: TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionAmount.amount)]))
        #expect(byAmount.map { $0.transactionAmount.amount } == [2.5, 10, 100].map { Decimal($0) })
        let byText = try await store.transactions(query: TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDescription, comparator: .lexical)], limit: 2))
        #expect(byText.map(\.transactionDescription) == ["Bravo", "Charlie"])
        let newest = try await store.transactions(query: TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)], limit: 1, offset: 1))
        #expect(newest.map(\.transactionDescription) == ["alpha"])
    }

    @Test func helperPredicatesMatchAnyListedValue() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        try insert(store, [
            makeTransaction(a.id, "1", on: "2026-01-01", status: .pending, type: .pointOfSale, mcc: 5411),
            makeTransaction(a.id, "2", on: "2026-01-02", status: .booked, type: .atm, mcc: nil),
            makeTransaction(a.id, "3", on: "2026-01-03", status: .rejected, type: .fee, mcc: 5814),
        ])
        let pending = try await store.transactions(query: TransactionQuery(predicate: TransactionQuery.predicate(forStatuses: [.pending, .rejected])))
        #expect(pending.map(\.status) == [.pending, .rejected])
        let types = try await store.transactions(query: TransactionQuery(predicate: TransactionQuery.predicate(forTransactionTypes: [.atm])))
        #expect(types.map(\.transactionType) == [.atm])
        let codes = try await store.transactions(query: TransactionQuery(predicate: TransactionQuery.predicate(forMerchantCategoryCodes: [MerchantCategoryCode(rawValue: 5411), MerchantCategoryCode(rawValue: 5814)])))
        #expect(codes.map { $0.merchantCategoryCode?.rawValue } == [5411, 5814])
        #expect(store.explain(TransactionQuery(predicate: TransactionQuery.predicate(forStatuses: [.pending]))).predicatePushedDown)
    }

    @Test func untranslatablePredicatesStillGiveTheRightAnswer() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        try insert(store, (1...20).map { makeTransaction(a.id, "\($0)", on: String(format: "2026-01-%02d", $0), $0 % 2 == 0 ? "Even shop" : "Odd shop") })
        let id = a.id
        let five = Decimal(5)
        // `??` on a string has no SQL translation: the account and amount parts filter in SQL, Swift does the rest.
        let query = TransactionQuery(predicate: #Predicate { $0.accountID == id && $0.transactionAmount.amount > five && ($0.merchantName ?? "").contains("Even") },
                                     limit: 3, offset: 1)
        #expect(!store.explain(query).predicatePushedDown)
        let hits = try await store.transactions(query: query)
        #expect(hits.map { $0.transactionAmount.amount } == [8, 10, 12].map { Decimal($0) })
    }

    @Test func balanceHelpersSelectByAvailableOrBookedDates() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store)
        try store.write { w in
            for (i, date) in ["2026-01-01", "2026-02-01", "2026-03-01"].enumerated() {
                let booked = Balance(amount: money("\(100 * (i + 1))"), asOfDate: day(date), creditDebitIndicator: .credit)
                let current: CurrentBalance = i == 1 ? .booked(booked) : .availableAndBooked(available: booked, booked: booked)
                try w.insertBalance(AccountBalance(id: .timeOrdered(), accountID: a.id, currentBalance: current), dedupeKey: date)
            }
        }
        let since = try await store.accountBalances(query: AccountBalanceQuery(predicate: AccountBalanceQuery.predicate(availableSince: day("2026-01-15"))))
        #expect(since.map { $0.available?.amount.amount } == [Decimal(300)])
        let booked = try await store.accountBalances(query: AccountBalanceQuery(predicate: AccountBalanceQuery.predicate(bookedSince: day("2026-01-15"), until: day("2026-02-15"))))
        #expect(booked.map { $0.booked?.amount.amount } == [Decimal(200)])
        let all = try await store.accountBalances(query: AccountBalanceQuery())
        #expect(all.count == 3)
        #expect(all.allSatisfy { $0.currencyCode == "USD" })
    }

    @Test func accountsQueryAndStableIdentity() async throws {
        let (store, _) = try makeStore()
        let a = try addAccount(store, number: "111", name: "Zeta")
        try addAccount(store, number: "222", kind: .liability, name: "Alpha card")
        let accounts = try await store.accounts(query: AccountQuery())
        #expect(accounts.map(\.displayName) == ["Alpha card", "Zeta"])
        #expect(accounts.first?.liabilityAccount != nil)
        let again = try store.write { $0.accountIdentity(institution: "Test Bank", number: "111") }
        #expect(again.id == a.id)
    }
}
