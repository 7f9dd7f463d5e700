import ArgumentParser
import Coffer
import Foundation

struct TransactionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions", abstract: "List transactions, filtered and sorted.",
        discussion: """
            Filters combine with AND; each list option takes commas (--status pending,booked). Dates are calendar \
            days (YYYY-MM-DD) as the bank dates them: a time is on the day of its own offset (20:00 PST on March 31 \
            is March 31); --to is inclusive. Amounts compare the positive amount; --min 10 --max 50; --debit for \
            money out only, --credit for money in.
            Examples:
              coffer transactions --account 1234 --from 2026-03-01 --to 2026-03-31
              coffer transactions --mcc 5411,5814 --min 20 --sort amount:desc --format csv
              coffer transactions --text coffee --limit 20 --after CURSOR
            Paging: with --limit, when more rows follow, the last line on stderr is \
            'coffer: next page: --after CURSOR' (in every format: stdout keeps its shape). Pass the cursor to \
            --after with the same --sort for the next page: a deep page costs what the first does, where --offset \
            reads every row before it.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var filters: TransactionFilters
    @Option(help: "date, amount or posted; add :desc for descending (amount:desc, or --sort=-amount).") var sort: String = "date"
    @Option(help: "At most this many.") var limit: Int?
    @Option(help: "Skip this many first.") var offset: Int?
    @Option(help: ArgumentHelp("Continue after the row this cursor names (printed by a previous --limit page; same --sort).",
                               valueName: "cursor"))
    var after: String?
    @Option(help: "table, json, ndjson or csv.") var format: OutputFormat = .table
    @Flag(help: "Print the SQL the query becomes instead of running it.") var explain = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit cannot be negative") }
        if let offset, offset < 0 { throw ValidationError("--offset cannot be negative") }
        _ = try sortDescriptors()
    }

    func sortDescriptors() throws -> [SortDescriptor<Transaction>] {
        do { return try TransactionFilter.sortDescriptors(sort, "--sort") } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            let accountIDs = try await AccountSelector.resolveAll(filters.account, in: store)?.map(\.id)
            var query = TransactionQuery(sortDescriptors: try sortDescriptors(), predicate: try filters.predicate(accountIDs: accountIDs),
                                         limit: limit, offset: offset, searchText: filters.text)
            query.after = after.map { TransactionQuery.Cursor(stringValue: $0) }
            if explain {
                printLine(store.explain(query).description)
                return
            }
            let page = try await store.transactionPage(query: query)
            let transactions = page.transactions
            let next = page.nextCursor?.stringValue
            // Account names only for the formats that show them.
            let names = format == .table || format == .csv
                ? Dictionary(try await store.accounts(query: AccountQuery()).map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
                : [:]
            // Coffer's addition beside FinanceKit's properties: the Wallet order a transaction paid for (`orderID`).
            let orders = format == .json || format == .ndjson
                ? try await store.orderIDs(forTransactionIDs: transactions.map(\.id)) : [:]
            if !orders.isEmpty {
                try Self.emitLinked(transactions, orders: orders, format: format)
            } else { try emit(transactions, format: format) {
                if format == .csv { return Self.csvTable(transactions, names: names) }
                return Table(headers: ["DATE", "ACCOUNT", "AMOUNT", "CUR", "STATUS", "TYPE", "MCC", "DESCRIPTION"],
                      rows: transactions.map { t in
                          [Text.date(t), names[t.accountID] ?? "", Text.signed(t.transactionAmount, t.creditDebitIndicator),
                           t.transactionAmount.currencyCode, t.status.name, t.transactionType.name,
                           t.merchantCategoryCode?.code ?? "", t.transactionDescription]
                      }, rightAligned: [2])
            } }
            // On stderr in every format: stdout keeps the shape it has without paging (a JSON array, one
            // transaction per NDJSON line), so a script's parsing does not depend on whether a page follows.
            if let next { FileHandle.standardError.write(Data("coffer: next page: --after \(next)\n".utf8)) }
        }
    }

    /// JSON or NDJSON of transactions, each linked one with `"orderID"` (the stored order's id) beside FinanceKit's
    /// properties.
    static func emitLinked(_ transactions: [Transaction], orders: [UUID: UUID], format: OutputFormat) throws {
        if format == .json {
            var out = ModelJSON.prettyArray(transactions, orderIDs: orders)
            out.append(0x0A)
            FileHandle.standardOutput.write(Data(out))
            return
        }
        var out: [UInt8] = []
        for t in transactions {
            ModelJSON.append(t, orderID: orders[t.id], to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        FileHandle.standardOutput.write(Data(out))
    }

    /// CSV for a spreadsheet or another program: every row identified (the transaction's and the account's id),
    /// both dates, the signed amount and the parts of the text (display, merchant, the bank's original).
    static func csvTable(_ transactions: [Transaction], names: [UUID: String]) -> Table {
        Table(headers: ["ID", "DATE", "POSTED", "ACCOUNT ID", "ACCOUNT", "AMOUNT", "CURRENCY", "STATUS", "TYPE", "MCC",
                        "MERCHANT", "DESCRIPTION", "ORIGINAL DESCRIPTION"],
              rows: transactions.map { t in
                  [t.id.uuidString, Text.date(t), t.postedDate.map(Text.date) ?? "", t.accountID.uuidString, names[t.accountID] ?? "",
                   Text.signed(t.transactionAmount, t.creditDebitIndicator), t.transactionAmount.currencyCode, t.status.name,
                   t.transactionType.name, t.merchantCategoryCode?.code ?? "", t.merchantName ?? "", t.transactionDescription,
                   t.originalTransactionDescription]
              })
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
