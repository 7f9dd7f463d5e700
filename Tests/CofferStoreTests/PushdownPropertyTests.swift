import CofferStore
import Foundation
import Testing
import CofferTestSupport

/// Pushdown must never change an answer: for random stores and random predicates, sorts, limits and offsets,
/// `store.transactions(query:)` (SQL where it can, Swift for the rest) returns exactly what evaluating the
/// predicate in Swift over every transaction returns.
@Suite struct PushdownPropertyTests {
    typealias Seeded = SplitMix64

    static let words = ["Coffee", "coffee bar", "Grocer", "RENT", "Bäckerei", "Book", "Fuel", "Zinsen", "Cafe", "Uber",
                        "Café Müller", "KÖLN", "Øst", "İZMİR", "ıspanak", "50% off"]
    /// Search texts: `searchText` runs in SQLite over the folded column; `Transaction.matchesSearchText` is the reference.
    static let searches = ["cafe", "MULLER", "koln", "ost", "izmir", "ISPANAK", "e", "%", "50%", "_", "backer", "book"]

    static func randomStore(_ rng: inout Seeded, inexact: Bool) throws -> (FinanceStore, [Account]) {
        let (store, _) = try makeStore("property")
        let accounts = try (0..<3).map { try addAccount(store, number: "ACC\($0)-\(rng.next() % 1000)") }
        var transactions: [Transaction] = []
        for _ in 0..<Int.random(in: 40...120, using: &rng) {
            let cents = Int.random(in: 0...50_000, using: &rng)
            var amount = "\(cents / 100).\(String(format: "%02d", cents % 100))"
            if inexact, Int.random(in: 0..<4, using: &rng) == 0 { amount += "\(Int.random(in: 10_000...99_999, using: &rng))" }
            let date = CalendarDay.date(year: 2026, month: Int.random(in: 1...3, using: &rng), day: Int.random(in: 1...28, using: &rng))!
            let text = words.randomElement(using: &rng)!
            var t = Transaction(
                id: .timeOrdered(), accountID: accounts.randomElement(using: &rng)!.id, transactionAmount: money(amount, Bool.random(using: &rng) ? "USD" : "EUR"),
                creditDebitIndicator: Bool.random(using: &rng) ? .credit : .debit, transactionDescription: text,
                originalTransactionDescription: text.uppercased(),
                merchantCategoryCode: Bool.random(using: &rng) ? MerchantCategoryCode(rawValue: [5411, 5814, 4121].randomElement(using: &rng)!) : nil,
                merchantName: Bool.random(using: &rng) ? text : nil, transactionType: TransactionType.allCases.randomElement(using: &rng)!,
                status: TransactionStatus.allCases.randomElement(using: &rng)!, transactionDate: date,
                postedDate: Bool.random(using: &rng) ? date.addingTimeInterval(86_400) : nil)
            if Int.random(in: 0..<10, using: &rng) == 0 { t.transactionDate = date.addingTimeInterval(3_600 * 13.5) }
            transactions.append(t)
        }
        try insert(store, transactions)
        return (store, accounts)
    }

    /// One random predicate from templates covering what translates fully, partly and not at all.
    static func randomPredicate(_ rng: inout Seeded, _ accounts: [Account], _ stored: [Transaction]) -> Predicate<Transaction> {
        let account = accounts.randomElement(using: &rng)!.id
        let day = Bool.random(using: &rng) ? stored.randomElement(using: &rng)!.transactionDate
            : CalendarDay.date(year: 2026, month: Int.random(in: 1...3, using: &rng), day: Int.random(in: 1...28, using: &rng))!
        let later = day.addingTimeInterval(Double(Int.random(in: 1...40, using: &rng)) * 86_400)
        // Half the time a stored value, so comparisons land exactly on boundaries.
        let amount = Bool.random(using: &rng) ? stored.randomElement(using: &rng)!.transactionAmount.amount
            : Decimal(Int.random(in: 0...50_000, using: &rng)) / 100
        let word = words.randomElement(using: &rng)!
        let statuses = Array(TransactionStatus.allCases.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)))
        let code: MerchantCategoryCode? = MerchantCategoryCode(rawValue: [5411, 5814, 4121].randomElement(using: &rng)!)
        let pending = TransactionStatus.pending, debit = CreditDebitIndicator.debit, pos = TransactionType.pointOfSale
        switch Int.random(in: 0..<17, using: &rng) {
        case 0: return #Predicate { $0.accountID == account }
        case 1: return #Predicate { $0.transactionDate >= day && $0.transactionDate < later }
        case 2: return #Predicate { $0.transactionAmount.amount > amount }
        case 3: return #Predicate { $0.transactionAmount.amount <= amount || $0.status == pending }
        case 4: return #Predicate { !($0.creditDebitIndicator == debit) }
        case 5: return #Predicate { $0.merchantCategoryCode == nil }
        case 6: return #Predicate { $0.merchantCategoryCode != code }
        case 7: return #Predicate { statuses.contains($0.status) }
        case 8: return #Predicate { $0.transactionDescription.contains(word) }
        case 9: return #Predicate { $0.transactionDescription.starts(with: word) }
        case 10: return #Predicate { $0.postedDate == nil || $0.postedDate! > day }
        case 11: return #Predicate { ($0.merchantName ?? "").contains(word) && $0.accountID == account }
        case 12: return #Predicate { !statuses.contains($0.status) && $0.transactionAmount.amount >= amount }
        case 13: return #Predicate { $0.transactionAmount.currencyCode == "EUR" && $0.transactionAmount.amount == amount }
        case 14: return #Predicate { $0.merchantCategoryCode == code || $0.transactionAmount.amount < amount }
        case 15: return #Predicate { !($0.transactionAmount.amount > amount && $0.accountID != account) }
        default: return #Predicate { $0.postedDate != nil && $0.transactionType == pos }
        }
    }

    /// The reference: Swift evaluation over everything, ordered as the store orders (sort keys, then date, then id).
    static func reference(_ all: [Transaction], _ predicate: Predicate<Transaction>?, sortByAmount: Bool?, limit: Int?, offset: Int?) throws -> [UUID] {
        var hits = try all.filter { try predicate?.evaluate($0) ?? true }
        hits.sort { a, b in
            if let descending = sortByAmount, a.transactionAmount.amount != b.transactionAmount.amount {
                // SQL sorts the micro-unit column: amounts equal there tie.
                let x = ExactDecimal.scaled(a.transactionAmount.amount) ?? Int64((NSDecimalNumber(decimal: a.transactionAmount.amount * 1_000_000)).int64Value)
                let y = ExactDecimal.scaled(b.transactionAmount.amount) ?? Int64((NSDecimalNumber(decimal: b.transactionAmount.amount * 1_000_000)).int64Value)
                if x != y { return descending ? x > y : x < y }
            }
            if a.transactionDate != b.transactionDate { return a.transactionDate < b.transactionDate }
            return a.id.uuidString < b.id.uuidString
        }
        let start = min(offset ?? 0, hits.count)
        let end = limit.map { min(hits.count, start + $0) } ?? hits.count
        return hits[start..<end].map(\.id)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func pushdownAgreesWithSwiftEvaluation(seed: UInt64) async throws {
        var rng = Seeded(state: seed)
        let (store, accounts) = try Self.randomStore(&rng, inexact: seed % 2 == 0)
        let all = try await store.transactions(query: TransactionQuery())
        for round in 0..<60 {
            let parts = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.randomPredicate(&rng, accounts, all) }
            let predicate = parts.count == 1 ? parts[0] : allOf(parts)
            let sortByAmount: Bool? = [nil, true, false].randomElement(using: &rng)!
            let limit: Int? = Bool.random(using: &rng) ? Int.random(in: 0...20, using: &rng) : nil
            let offset: Int? = Bool.random(using: &rng) ? Int.random(in: 0...30, using: &rng) : nil
            let sort: [SortDescriptor<Transaction>] = sortByAmount.map { [SortDescriptor(\.transactionAmount.amount, order: $0 ? .reverse : .forward)] } ?? []
            let search: String? = Int.random(in: 0..<4, using: &rng) == 0 ? Self.searches.randomElement(using: &rng)! : nil
            let query = TransactionQuery(sortDescriptors: sort, predicate: predicate, limit: limit, offset: offset, searchText: search)
            let got = try await store.transactions(query: query).map(\.id)
            let searched = search.map { text in all.filter { $0.matchesSearchText(text) } } ?? all
            let expected = try Self.reference(searched, predicate, sortByAmount: sortByAmount, limit: limit, offset: offset)
            #expect(got == expected, "seed \(seed) round \(round): \(store.explain(query))")
        }
    }
}
