import ArgumentParser
import Coffer
import Foundation

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Print change batches as NDJSON, each with the token that resumes after it.",
        discussion: """
            Each line: {"token": "…", "inserted": [...], "updated": [...], "deleted": ["<id>", …]}. Without --since, \
            the current state comes first as inserted. Save the last token and pass it to --since to get only what \
            changed after it. --follow stays open and prints commits of any process within about a second (Ctrl-C \
            ends it). An invalid or compacted token exits 1 with a message: start again without --since.
            """)

    enum Kind: String, ExpressibleByArgument, CaseIterable { case transactions, accounts, balances }

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "transactions, accounts or balances.") var kind: Kind = .transactions
    @Option(help: ArgumentHelp("Only this account's changes (its id, last digits of its number, or part of its name). A "
                               + "history stream and its tokens are of one account, or of all.", valueName: "account"))
    var account: [String] = []

    func validate() throws {
        let accounts = AccountSelector.split(account)
        if accounts.count > 1 {
            throw ValidationError("--account: history follows one account (its tokens resume that account's stream) or all of "
                                  + "them; give one, not \(accounts.count) (\(accounts.joined(separator: ", ")))")
        }
    }
    @Option(help: "Resume after this token.") var since: String?
    @Flag(help: "Keep following new commits.") var follow = false

    struct Line<Model: Encodable>: Encodable {
        let token: String
        let inserted: [Model]
        let updated: [Model]
        let deleted: [UUID]
    }

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            let token = since.map { HistoryToken(stringValue: $0) }
            let accountID = try await AccountSelector.resolveAll(account, in: store)?.first?.id
            switch kind {
            case .transactions:
                let history = accountID.map { store.transactionHistory(forAccountID: $0, since: token, isMonitoring: follow) }
                    ?? store.allTransactionHistory(since: token, isMonitoring: follow)
                try await print(history)
            case .balances:
                let history = accountID.map { store.accountBalanceHistory(forAccountID: $0, since: token, isMonitoring: follow) }
                    ?? store.allAccountBalanceHistory(since: token, isMonitoring: follow)
                try await print(history)
            case .accounts:
                try await print(store.accountHistory(since: token, isMonitoring: follow))
            }
        }
    }

    func print<M: Encodable & Identifiable & Sendable>(_ history: FinanceStore.History<M>) async throws {
        for try await changes in history {
            printLine(try JSON.line(Line(token: changes.newToken.stringValue, inserted: changes.inserted,
                                         updated: changes.updated, deleted: changes.deleted)))
        }
    }
}

struct CompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact", abstract: "Drop change history older than a horizon.",
        discussion: """
            The current accounts, balances and transactions are untouched; only the change log shrinks. History \
            tokens older than the horizon become invalid, and their clients start again from the current state.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "How much history to keep: 180d, 26w, 12h.") var keep: String
    @Flag(help: "Print the result as JSON.") var json = false

    static func seconds(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Double(text.dropLast()), number >= 0 else { return nil }
        switch unit {
        case "d": return number * 86_400
        case "w": return number * 7 * 86_400
        case "h": return number * 3_600
        default: return nil
        }
    }

    func validate() throws {
        if Self.seconds(keep) == nil { throw ValidationError("--keep expects a duration such as 180d, 26w or 12h, not '\(keep)'") }
    }

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readWrite)
            let result = try store.compact(before: Date().addingTimeInterval(-(Self.seconds(keep) ?? 0)))
            if json {
                printLine(try JSON.document(result))
            } else if isTerminal {
                printLine("removed \(result.removedChanges) change(s); history horizon is now sequence \(result.historyHorizon)")
            }
        }
    }
}

struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show the store: path, schema version, counts, history horizon.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "table, json, ndjson (one line) or csv (a header row and one row).") var format: OutputFormat = .table

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            let info = try await store.info()
            switch format {
            case .json: printLine(try JSON.document(info)); return
            case .ndjson: printLine(try JSON.line(info)); return
            case .csv:
                // The JSON fields as columns, in the JSON's (sorted) order.
                let object = try JSONSerialization.jsonObject(with: Data(try JSON.line(info).utf8)) as? [String: Any] ?? [:]
                let keys = object.keys.sorted()
                printLine(Table(headers: keys, rows: [keys.map { key in
                    switch object[key] {
                    case let text as String: text
                    case let number as NSNumber: number.stringValue
                    default: ""
                    }
                }]).csv())
                return
            case .table: break
            }
            let rows: [(String, String)] = [
                ("store", info.path), ("store id", info.storeID.uuidString), ("schema", info.schemaVersion),
                ("accounts", "\(info.accounts)"), ("balances", "\(info.balances)"), ("transactions", "\(info.transactions)"),
                ("imports", "\(info.imports)"), ("change log", "\(info.changeLogEntries) entries, last sequence \(info.lastSequence)"),
                ("history horizon", info.historyHorizon == 0 ? "none (complete history)" : "sequence \(info.historyHorizon)"),
                ("oldest change", info.oldestChange.map(Text.date) ?? "-"),
            ]
            for (key, value) in rows { printLine(key.padding(toLength: 16, withPad: " ", startingAt: 0) + value) }
        }
    }
}
