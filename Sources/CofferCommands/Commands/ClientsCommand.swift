import ArgumentParser
import Coffer
import Foundation

/// `coffer clients`: FinanceKit's authorization for other programs (docs/access.md).
struct ClientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients", abstract: "Programs that read the store through a grant: add, authorize, deny, revoke.",
        discussion: """
            FinanceKit's authorization for programs other than the store's owner. A client is added with a bearer \
            token, shown once; it opens the store with FinanceStore(path:clientToken:) (or over HTTP with coffer \
            serve; coffer's own reading commands read as a client when COFFER_CLIENT_TOKEN is set) and asks with \
            requestAuthorization(). It reads nothing until the owner authorizes it: which accounts, from which \
            date each, and which data types (accounts, accountBalances, transactions, orders: the names coffer \
            delivery uses). Every decision starts a new epoch: the client's history tokens of before are refused \
            and it reads again from nil. Revoking ends the token for good.
            """,
        subcommands: [Add.self, Authorize.self, Deny.self, Revoke.self, Remove.self, List.self, Show.self],
        defaultSubcommand: List.self)

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a client (notDetermined) and print its bearer token, once.",
            discussion: """
                The token (coffer_ and 256 random bits) is printed on standard output and never again: the store \
                keeps only its SHA-256. Give it to the program; a lost token is replaced by removing the client and \
                adding it again.
                """)
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The client's name: letters, digits, '.', '_', '-'.") var name: String
        @Flag(help: "Print the client and its token as JSON.") var json = false

        func run() async throws {
            try await guarded {
                let (client, token) = try storeOptions.openAsOwner(.readWrite).addClient(named: name)
                if json {
                    printLine(try JSON.document(AddedClient(client: ClientJSON(client, names: [:]), token: token)))
                    return
                }
                printLine(token)
                if isErrorTerminal {
                    FileHandle.standardError.write(Data("""
                        coffer: client \(name) added (notDetermined). Its token, above, is shown only now. Authorize it with \
                        coffer clients authorize \(name).\n
                        """.utf8))
                }
            }
        }
    }

    struct Authorize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authorize", abstract: "Grant a client accounts, an earliest date for each, and data types.",
            discussion: """
                Without --accounts, on a terminal, asks which accounts (numbers from a list, or all) and for each \
                the earliest date it may see (empty: all of its history). --accounts takes a comma list of \
                ACCOUNT[:YYYY-MM-DD] (an account by its id, last digits or part of its name; all for every \
                account), for example --accounts 1234:2026-01-01,Savings. The grant replaces the one before; the \
                client's older history tokens are refused from then on. A client sees a transaction dated on or \
                after its account's earliest date (the bank's own day), and a balance as of that date or later.
                """)
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The client's name.") var name: String
        @Option(help: ArgumentHelp("Accounts, comma-separated, each ACCOUNT[:YYYY-MM-DD]; all: every account stored now (an account "
                                   + "imported later is not added: authorize again).", valueName: "list"))
        var accounts: String?
        @Option(help: ArgumentHelp("Data types, comma-separated: accounts, accountBalances, transactions, orders.", valueName: "list"))
        var types = "accounts,accountBalances,transactions"
        @Flag(help: "Print the client as JSON.") var json = false

        func validate() throws {
            _ = try Self.parseTypes(types)
            if accounts == nil, isatty(STDIN_FILENO) != 1 {
                throw ValidationError("--accounts is needed when standard input is not a terminal (ACCOUNT[:YYYY-MM-DD],...)")
            }
        }

        static func parseTypes(_ text: String) throws -> [FinanceStore.ClientDataType] {
            let names = AccountSelector.split([text])
            let parsed = names.compactMap(FinanceStore.ClientDataType.init(rawValue:))
            guard !parsed.isEmpty, parsed.count == names.count else {
                throw ValidationError("--types takes accounts, accountBalances, transactions and/or orders, comma-separated; found \(text)")
            }
            return parsed
        }

        func run() async throws {
            try await guarded {
                let store = try storeOptions.openAsOwner(.readWrite)
                guard try store.client(named: name) != nil else {
                    let names = try store.clients().map(\.name)
                    throw CofferError(.usage, "no client named \(name)" + (names.isEmpty ? " (there are none: coffer clients add NAME)"
                                                                           : " (clients: \(names.joined(separator: ", ")))"))
                }
                let granted = if let accounts { try await Self.parseAccounts(accounts, in: store) } else { try await Self.ask(store) }
                let grant = FinanceStore.Grant(accounts: granted, dataTypes: try Self.parseTypes(types))
                let client = try store.authorizeClient(named: name, grant: grant)
                let names = try await Self.accountNames(store)
                if json {
                    printLine(try JSON.document(ClientJSON(client, names: names)))
                } else if isTerminal {
                    printLine("\(name): authorized, epoch \(client.epoch): \(ClientJSON.summary(client, names: names))")
                }
            }
        }

        /// `ACCOUNT[:YYYY-MM-DD],…`; `all` for every account.
        static func parseAccounts(_ text: String, in store: FinanceStore) async throws -> [FinanceStore.GrantedAccount] {
            var out: [FinanceStore.GrantedAccount] = []
            for part in AccountSelector.split([text]) {
                var selector = part
                var earliest: Date?
                if let colon = part.lastIndex(of: ":"), let date = CalendarDay.parse(String(part[part.index(after: colon)...])) {
                    selector = String(part[..<colon])
                    earliest = date
                } else if let colon = part.lastIndex(of: ":"), part[part.index(after: colon)...].first?.isNumber == true {
                    throw CofferError(.usage, "--accounts: '\(part)': the earliest date is YYYY-MM-DD")
                }
                let accounts = selector.lowercased() == "all" ? try await store.accounts(query: AccountQuery())
                                                              : [try await AccountSelector.resolve(selector, in: store)]
                for account in accounts where !out.contains(where: { $0.accountID == account.id }) {
                    out.append(FinanceStore.GrantedAccount(accountID: account.id, earliestDate: earliest))
                }
            }
            return out
        }

        /// The grant asked on the terminal: accounts by number, then each one's earliest date.
        static func ask(_ store: FinanceStore) async throws -> [FinanceStore.GrantedAccount] {
            let accounts = try await store.accounts(query: AccountQuery())
            guard !accounts.isEmpty else { throw CofferError(.usage, "the store has no accounts yet: import a statement first") }
            let masked = try await store.maskedAccountNumbers()
            for (index, account) in accounts.enumerated() {
                printLine("  \(index + 1)  \(account.displayName) (\(account.institutionName)\(masked[account.id].map { " " + $0 } ?? ""), \(account.currencyCode))")
            }
            var chosen: [Account] = []
            while chosen.isEmpty {
                let answer = try prompt("Accounts to share (numbers, comma-separated, or all): ")
                if answer.lowercased() == "all" { chosen = accounts; break }
                let numbers = AccountSelector.split([answer]).map { Int($0) }
                if !numbers.isEmpty, numbers.allSatisfy({ $0.map { (1...accounts.count).contains($0) } ?? false }) {
                    chosen = numbers.compactMap { $0 }.map { accounts[$0 - 1] }
                } else {
                    printLine("  Give numbers from 1 to \(accounts.count), or all.")
                }
            }
            var out: [FinanceStore.GrantedAccount] = []
            for account in chosen where !out.contains(where: { $0.accountID == account.id }) {
                while true {
                    let answer = try prompt("Earliest date for \(account.displayName) (YYYY-MM-DD, empty for all of it): ")
                    if answer.isEmpty {
                        out.append(FinanceStore.GrantedAccount(accountID: account.id))
                        break
                    }
                    if let date = CalendarDay.parse(answer) {
                        out.append(FinanceStore.GrantedAccount(accountID: account.id, earliestDate: date))
                        break
                    }
                    printLine("  A date is YYYY-MM-DD.")
                }
            }
            return out
        }

        static func prompt(_ text: String) throws -> String {
            FileHandle.standardOutput.write(Data(text.utf8))
            guard let line = readLine() else { throw CofferError(.usage, "no answer (end of input): nothing was changed") }
            return line.trimmingCharacters(in: .whitespaces)
        }
    }

    struct Deny: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deny", abstract: "Deny a client: it reads nothing (it may be authorized later).")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The client's name.") var name: String
        @Flag(help: "Print the client as JSON.") var json = false

        func run() async throws {
            try await guarded {
                let client = try storeOptions.openAsOwner(.readWrite).denyClient(named: name)
                if json { printLine(try JSON.document(ClientJSON(client, names: [:]))) } else if isTerminal { printLine("\(name): denied") }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Revoke a client: its grant goes and its token no longer works.",
            discussion: "Open history streams of the client end at their next look at the store. To let the program in again, remove the client and add it anew (a new token).")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The client's name.") var name: String
        @Flag(help: "Print the client as JSON.") var json = false

        func run() async throws {
            try await guarded {
                let client = try storeOptions.openAsOwner(.readWrite).revokeClient(named: name)
                if json { printLine(try JSON.document(ClientJSON(client, names: [:]))) } else if isTerminal { printLine("\(name): revoked") }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a client and its grant.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The client's name.") var name: String

        func run() async throws {
            try await guarded {
                guard try storeOptions.openAsOwner(.readWrite).removeClient(named: name) else {
                    throw CofferError(.usage, "no client named \(name)")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the clients, their status and grants; pending requests first.")
        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "table or json.") var format: OutputFormat = .table

        func validate() throws {
            guard format == .table || format == .json else { throw ValidationError("--format takes table or json") }
        }

        func run() async throws {
            try await guarded {
                let store = try storeOptions.openAsOwner(.readOnly)
                let clients = try store.clients().sorted { ($0.isPending ? 0 : 1, $0.name) < ($1.isPending ? 0 : 1, $1.name) }
                let names = try await ClientsCommand.Authorize.accountNames(store)
                if format == .json {
                    printLine(try JSON.document(clients.map { ClientJSON($0, names: names) }))
                    return
                }
                guard !clients.isEmpty else {
                    if isTerminal { printLine("no clients (coffer clients add NAME)") }
                    return
                }
                printLine(Table(headers: ["NAME", "STATUS", "EPOCH", "GRANT", "REQUESTED", "DECIDED"], rows: clients.map { client in
                    [client.name, ClientJSON.statusText(client), String(client.epoch), ClientJSON.summary(client, names: names),
                     client.requestedAt.map(Text.date) ?? "", client.decidedAt.map(Text.date) ?? ""]
                }).render())
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one client and its grant.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The client's name.") var name: String
        @Option(help: "table or json.") var format: OutputFormat = .table

        func validate() throws {
            guard format == .table || format == .json else { throw ValidationError("--format takes table or json") }
        }

        func run() async throws {
            try await guarded {
                let store = try storeOptions.openAsOwner(.readOnly)
                guard let client = try store.client(named: name) else { throw CofferError(.usage, "no client named \(name)") }
                let names = try await ClientsCommand.Authorize.accountNames(store)
                let shown = ClientJSON(client, names: names)
                if format == .json {
                    printLine(try JSON.document(shown))
                    return
                }
                var lines = [
                    "name       \(client.name)",
                    "id         \(client.id.uuidString)",
                    "status     \(ClientJSON.statusText(client))",
                    "epoch      \(client.epoch)",
                    "types      \(client.grant.dataTypes.map(\.rawValue).joined(separator: ", "))",
                    "added      \(Text.date(client.createdAt))",
                ]
                if let requested = client.requestedAt { lines.append("requested  \(Text.date(requested)) (\(client.requests) time(s))") }
                if let decided = client.decidedAt { lines.append("decided    \(Text.date(decided))") }
                printLine(lines.joined(separator: "\n"))
                if !shown.accounts.isEmpty {
                    printLine("")
                    printLine(Table(headers: ["ACCOUNT", "ID", "EARLIEST"], rows: shown.accounts.map {
                        [$0.name ?? "(no such account: linked or removed)", $0.id.uuidString, $0.earliestDate ?? "all"]
                    }).render())
                }
            }
        }
    }
}

extension ClientsCommand.Authorize {
    /// Account names by id, for showing grants.
    static func accountNames(_ store: FinanceStore) async throws -> [UUID: String] {
        Dictionary(uniqueKeysWithValues: try await store.accounts(query: AccountQuery()).map { ($0.id, $0.displayName) })
    }
}

/// A client as `coffer clients` prints it in JSON: FinanceKit's status beside Coffer's state (which tells a revoked
/// client from a denied one), the grant with account names, times in ISO 8601.
struct ClientJSON: Encodable {
    struct GrantedAccount: Encodable {
        var id: UUID
        var name: String?
        var earliestDate: String?
    }

    var id: UUID
    var name: String
    var status: AuthorizationStatus
    var state: String
    var epoch: Int64
    var dataTypes: [String]
    var accounts: [GrantedAccount]
    var createdAt: Date
    var decidedAt: Date?
    var requestedAt: Date?
    var requests: Int
    var pending: Bool

    init(_ client: FinanceStore.Client, names: [UUID: String]) {
        id = client.id
        name = client.name
        status = client.status
        state = client.state.rawValue
        epoch = client.epoch
        dataTypes = client.grant.dataTypes.map(\.rawValue)
        accounts = client.grant.accounts.map {
            GrantedAccount(id: $0.accountID, name: names[$0.accountID], earliestDate: $0.earliestDate.map(CalendarDay.string))
        }
        createdAt = client.createdAt
        decidedAt = client.decidedAt
        requestedAt = client.requestedAt
        requests = client.requests
        pending = client.isPending
    }

    /// `notDetermined (asked 2 times)`, `authorized`, `revoked`.
    static func statusText(_ client: FinanceStore.Client) -> String {
        client.isPending ? "notDetermined (asked \(client.requests) time(s))" : client.state.rawValue
    }

    /// `Checking from 2026-01-01, Savings; transactions, accounts`, or `-`.
    static func summary(_ client: FinanceStore.Client, names: [UUID: String]) -> String {
        guard client.state == .authorized else { return "-" }
        let accounts = client.grant.accounts.map { account in
            (names[account.accountID] ?? String(account.accountID.uuidString.prefix(8)) + "… (gone)")
                + (account.earliestDate.map { " from " + CalendarDay.string($0) } ?? "")
        }
        return (accounts.isEmpty ? "no accounts" : accounts.joined(separator: ", ")) + "; "
            + client.grant.dataTypes.map(\.rawValue).joined(separator: ", ")
    }
}

/// What `coffer clients add --json` prints.
struct AddedClient: Encodable {
    var client: ClientJSON
    var token: String
}
