import ArgumentParser
import Coffer
import Foundation

struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List the accounts in the store, or rename one.",
        subcommands: [AccountsListCommand.self, AccountsRenameCommand.self, AccountsLinkCommand.self], defaultSubcommand: AccountsListCommand.self)
}

/// `coffer accounts rename ACCOUNT NAME`.
struct AccountsRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Give an account the name you choose (an update in account history).")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The account: its id, last digits of its number, or part of its name.") var account: String
    @Argument(help: "Its new name.") var name: String

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readWrite)
            let target = try await AccountSelector.resolve(account, in: store)
            let renamed = try store.renameAccount(id: target.id, to: name)
            if isTerminal { printLine("\(target.displayName) → \(renamed.displayName)") }
        }
    }
}

struct AccountsLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Make two accounts that are one real account one (undoable).",
        discussion: """
            OTHER's transactions are matched into KEEP the way an import matches another source's records (the \
            institution's id within its source, else amount, direction and currency within 3 days and agreeing \
            text; same-day twins stay two): the ones KEEP holds already are not doubled, the rest move with their \
            ids. Balances move; OTHER's identities become aliases of KEEP, so later imports of either source land on \
            KEEP; OTHER is deleted. In history each moved transaction is a deletion in OTHER's stream and an \
            insertion in KEEP's. The link is an entry in the import ledger: coffer imports undo ID reverts it.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The account to keep: its id, last digits of its number, or part of its name.") var keep: String
    @Argument(help: "The account to merge into it and remove.") var other: String
    @Flag(help: "Show what would happen without changing the store.") var dryRun = false
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readWrite)
            let kept = try await AccountSelector.resolve(keep, in: store)
            let removed = try await AccountSelector.resolve(other, in: store)
            let report = try store.linkAccounts(keep: kept.id, other: removed.id, dryRun: dryRun)
            if json {
                printLine(try JSON.document(report))
                return
            }
            printLine((dryRun ? "would link " : "linked ") + "\(removed.displayName) into \(kept.displayName): "
                      + "\(report.moved) transaction(s) moved, \(report.matched) already there (not doubled)"
                      + (report.redated > 0 ? ", \(report.redated) dated earlier" : "")
                      + ", \(report.balancesMoved) balance(s) moved, \(report.aliases) identit\(report.aliases == 1 ? "y" : "ies") now lead to it"
                      + (dryRun ? "" : "; coffer imports undo \(report.ledgerID ?? 0) reverts it"))
        }
    }
}

struct AccountsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the accounts in the store.",
        discussion: "Account numbers are never stored in clear; the table shows their last four characters.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "table, json, ndjson or csv.") var format: OutputFormat = .table

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            let accounts = try await store.accounts(query: AccountQuery())
            let masked = try await store.maskedAccountNumbers()
            try emit(accounts, format: format) {
                Table(headers: ["ID", "KIND", "NAME", "NUMBER", "INSTITUTION", "CURRENCY"],
                      rows: accounts.map { [$0.id.uuidString, $0.kind.rawValue, $0.displayName, masked[$0.id] ?? "", $0.institutionName, $0.currencyCode] })
            }
        }
    }
}

struct BalancesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balances", abstract: "List account balances, every one the statements reported.",
        discussion: "Amounts are signed for people: a debit balance (overdrawn, or owed on a card) shows as minus.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("Only these accounts: an id, last digits of a number, or part of a name; a comma list, or "
                               + "repeat the option.", valueName: "account"))
    var account: [String] = []
    @Flag(help: "Per account, the latest booked and the latest available balance, each with its own date.") var latest = false
    @Option(help: "table, json, ndjson or csv.") var format: OutputFormat = .table

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            var predicate: Predicate<AccountBalance>?
            if let ids = try await AccountSelector.resolveAll(account, in: store)?.map(\.id) {
                predicate = #Predicate { ids.contains($0.accountID) }
            }
            var balances = try await store.accountBalances(query: AccountBalanceQuery(predicate: predicate))
            let names = Dictionary(try await store.accounts(query: AccountQuery()).map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            if latest {
                balances = AccountBalance.latest(balances)
                try emit(balances, format: format) {
                    Table(headers: ["ACCOUNT", "BOOKED", "BOOKED AS OF", "AVAILABLE", "AVAILABLE AS OF", "CURRENCY"],
                          rows: balances.map { b in
                              [names[b.accountID] ?? b.accountID.uuidString,
                               b.booked.map { Text.signed($0.amount, $0.creditDebitIndicator) } ?? "", b.booked.map { Text.date($0.asOfDate) } ?? "",
                               b.available.map { Text.signed($0.amount, $0.creditDebitIndicator) } ?? "",
                               b.available.map { Text.date($0.asOfDate) } ?? "", b.currencyCode]
                          }, rightAligned: [1, 3])
                }
                return
            }
            try emit(balances, format: format) {
                Table(headers: ["AS OF", "ACCOUNT", "BOOKED", "AVAILABLE", "CURRENCY"],
                      rows: balances.map { b in
                          [Text.date((b.booked ?? b.available)!.asOfDate), names[b.accountID] ?? b.accountID.uuidString,
                           b.booked.map { Text.signed($0.amount, $0.creditDebitIndicator) } ?? "",
                           b.available.map { Text.signed($0.amount, $0.creditDebitIndicator) } ?? "", b.currencyCode]
                      }, rightAligned: [2, 3])
            }
        }
    }
}
