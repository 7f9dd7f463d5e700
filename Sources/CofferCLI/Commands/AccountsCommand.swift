import ArgumentParser
import Coffer
import Foundation

struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List the accounts in the store, or rename one.",
        subcommands: [AccountsListCommand.self, AccountsRenameCommand.self], defaultSubcommand: AccountsListCommand.self)
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
    @Option(help: "Only this account: its id, last digits of its number, or part of its name.") var account: String?
    @Flag(help: "Only the newest balance of each account.") var latest = false
    @Option(help: "table, json, ndjson or csv.") var format: OutputFormat = .table

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            var predicate: Predicate<AccountBalance>?
            if let account {
                let id = try await AccountSelector.resolve(account, in: store).id
                predicate = #Predicate { $0.accountID == id }
            }
            var balances = try await store.accountBalances(query: AccountBalanceQuery(predicate: predicate))
            if latest {
                var newest: [UUID: AccountBalance] = [:]
                for b in balances { newest[b.accountID] = b }
                balances = balances.filter { newest[$0.accountID]?.id == $0.id }
            }
            let names = Dictionary(try await store.accounts(query: AccountQuery()).map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
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
