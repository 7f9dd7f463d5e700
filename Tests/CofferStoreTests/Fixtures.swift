import CofferStore
import Foundation
import Testing

/// A fresh store file in its own temporary folder.
func makeStore(_ name: String = #function) throws -> (FinanceStore, String) {
    let folder = NSTemporaryDirectory() + "coffer-tests/" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/store.sqlite"
    return (try FinanceStore(path: path), path)
}

func day(_ text: String) -> Date { CalendarDay.parse(text)! }
func money(_ text: String, _ currency: String = "USD") -> CurrencyAmount {
    CurrencyAmount(amount: ExactDecimal.parse(text)!, currencyCode: currency)
}

/// Inserts an account through the write API and returns it.
@discardableResult
func addAccount(_ store: FinanceStore, number: String = "12345678", kind: AccountKind = .asset, name: String = "Checking") throws -> Account {
    try store.write { w in
        let identity = w.accountIdentity(institution: "Test Bank", number: number)
        let account: Account = kind == .asset
            ? .asset(AssetAccount(id: identity.id, displayName: name, institutionName: "Test Bank", currencyCode: "USD"))
            : .liability(LiabilityAccount(id: identity.id, displayName: name, institutionName: "Test Bank", currencyCode: "USD"))
        try w.insertAccount(account, identityKey: identity.key, maskedNumber: "••••" + number.suffix(4))
        return account
    }
}

func makeTransaction(_ account: UUID, _ amount: String, on date: String, _ text: String = "Coffee",
                     indicator: CreditDebitIndicator = .debit, status: TransactionStatus = .booked,
                     type: TransactionType = .pointOfSale, mcc: Int16? = 5814) -> Transaction {
    Transaction(id: .timeOrdered(), accountID: account, transactionAmount: money(amount), creditDebitIndicator: indicator,
                transactionDescription: text, originalTransactionDescription: text.uppercased(),
                merchantCategoryCode: mcc.map(MerchantCategoryCode.init(rawValue:)), merchantName: text,
                transactionType: type, status: status, transactionDate: day(date))
}

/// Inserts transactions in one write.
@discardableResult
func insert(_ store: FinanceStore, _ transactions: [Transaction]) throws -> [Transaction] {
    try store.write { w in
        for t in transactions { try w.insert(t, keys: DedupeKeys(externalID: t.id.uuidString)) }
    }
    return transactions
}

/// Collects a finite history sequence.
func collect<M>(_ history: FinanceStore.History<M>) async throws -> [Changes<M>] {
    var out: [Changes<M>] = []
    for try await changes in history { out.append(changes) }
    return out
}

/// SQLite's `EXPLAIN QUERY PLAN` for an explained query (parameters unbound: the plan does not depend on them),
/// read by a separate program so the test sees what any SQLite client would.
func sqliteQueryPlan(_ path: String, _ explained: QueryExplanation) throws -> String {
    try sqliteQueryPlan(path, sql: explained.sql)
}

/// SQLite's `EXPLAIN QUERY PLAN` for `sql`, as `sqliteQueryPlan(_:_:)`; its parameters are `?` or numbered (`?1`).
func sqliteQueryPlan(_ path: String, sql: String) throws -> String {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", """
        import re,sqlite3,sys
        c=sqlite3.connect(sys.argv[1]); sql=sys.argv[2]
        n=max([int(k) for k in re.findall(r"\\?(\\d+)", sql)] or [0]) or sql.count("?")
        print("\\n".join(r[3] for r in c.execute("EXPLAIN QUERY PLAN " + sql, [None] * n)))
        """, path, sql]
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
}
