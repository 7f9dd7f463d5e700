import CofferModel
import CofferStore
import Foundation
import Hummingbird

/// `GET /v1/accounts`, `/v1/accounts/{id}`, `/v1/balances`, `/v1/transactions` and `/v1/authorization`: the
/// CLI's queries, read through the client's grant (`FinanceStore.scoped(to:)`), each model as the CLI writes it.
struct ReadRoutes {
    let owner: FinanceStore

    /// Most transactions one page returns (`limit`'s largest value, and its default).
    static let pageLimits = (default: 100, maximum: 1_000)

    func add(to group: RouterGroup<ClientContext>) {
        group.get("accounts") { request, context in try await accounts(request, context) }
        group.get("accounts/{id}") { request, context in try await account(request, context) }
        group.get("balances") { request, context in try await balances(request, context) }
        group.get("transactions") { request, context in try await transactions(request, context) }
        group.get("authorization") { request, context in try authorization(request, context) }
        group.post("authorization") { request, context in try await requestAuthorization(request, context) }
    }

    func accounts(_ request: Request, _ context: ClientContext) async throws -> Response {
        _ = try Parameters(request, allowed: [])
        let store = try context.store(owner, for: .accounts)
        var body = JSONBody()
        body.raw("{")
        body.key("accounts", first: true)
        try body.array(try await store.accounts(query: AccountQuery()))
        body.raw("}")
        return body.response()
    }

    /// One account, or the one not-found answer: an id not granted is exactly an id that does not exist.
    func account(_ request: Request, _ context: ClientContext) async throws -> Response {
        _ = try Parameters(request, allowed: [])
        let store = try context.store(owner, for: .accounts)
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else { throw Problem.notFound }
        guard let account = try await store.accounts(query: AccountQuery(predicate: #Predicate { $0.id == id })).first else {
            throw Problem.notFound
        }
        var body = JSONBody()
        try body.model(account)
        return body.response()
    }

    func balances(_ request: Request, _ context: ClientContext) async throws -> Response {
        let parameters = try Parameters(request, allowed: ["account", "latest"])
        let store = try context.store(owner, for: .accountBalances)
        let ids = try parameters.filter("account", TransactionFilter.accountIDs)
        let latest = try parameters.bool("latest")
        let predicate: Predicate<AccountBalance>? = ids.map { ids in #Predicate { ids.contains($0.accountID) } }
        var balances = try await store.accountBalances(query: AccountBalanceQuery(predicate: predicate))
        if latest { balances = AccountBalance.latest(balances) }
        var body = JSONBody()
        body.raw("{")
        body.key("balances", first: true)
        try body.array(balances)
        body.raw("}")
        return body.response()
    }

    /// A page of transactions; `nextCursor` (absent on the last page) is passed back as `after` with the same
    /// filters and sort, and a deep page costs what the first does.
    func transactions(_ request: Request, _ context: ClientContext) async throws -> Response {
        let parameters = try Parameters(request, allowed: [
            "account", "from", "to", "status", "type", "mcc", "text", "min", "max", "direction", "sort", "limit", "after",
        ])
        let store = try context.store(owner, for: .transactions)
        var filter = TransactionFilter()
        filter.accountIDs = try parameters.filter("account", TransactionFilter.accountIDs)
        filter.fromDay = try parameters.filter("from", TransactionFilter.day)
        filter.throughDay = try parameters.filter("to", TransactionFilter.day)
        filter.statuses = try parameters.filter("status", TransactionFilter.statuses)
        filter.types = try parameters.filter("type", TransactionFilter.types)
        filter.codes = try parameters.filter("mcc", TransactionFilter.codes)
        filter.minimum = try parameters.filter("min", TransactionFilter.amount)
        filter.maximum = try parameters.filter("max", TransactionFilter.amount)
        switch try parameters["direction"] {
        case nil: break
        case "debit": filter.indicator = .debit
        case "credit": filter.indicator = .credit
        case let text?: throw Problem.badRequest("direction expects debit or credit, not '\(text)'")
        }
        let sort = try parameters.filter("sort", TransactionFilter.sortDescriptors)
            ?? (try TransactionFilter.sortDescriptors("date", "sort"))
        let limit = try parameters.integer("limit", default: Self.pageLimits.default, in: 1...Self.pageLimits.maximum)
        var query = TransactionQuery(sortDescriptors: sort, predicate: filter.predicate(), limit: limit,
                                     searchText: try parameters["text"])
        query.after = try parameters["after"].map { TransactionQuery.Cursor(stringValue: $0) }
        let page = try await store.transactionPage(query: query)
        // Coffer's `orderID` beside FinanceKit's properties, as the CLI's JSON has it (only a client granted
        // orders sees the links, and only to its own orders).
        let orders = try await store.orderIDs(forTransactionIDs: page.transactions.map(\.id))
        var body = JSONBody()
        body.raw("{")
        var first = true
        if let next = page.nextCursor {
            body.key("nextCursor", first: true)
            body.string(next.stringValue)
            first = false
        }
        body.key("transactions", first: first)
        body.raw("[")
        for (index, transaction) in page.transactions.enumerated() {
            if index > 0 { body.raw(",") }
            body.transaction(transaction, orderID: orders[transaction.id])
        }
        body.raw("]}")
        return body.response()
    }

    /// FinanceKit's `authorizationStatus()`: the owner's decision and, when authorized, the grant.
    func authorization(_ request: Request, _ context: ClientContext) throws -> Response {
        _ = try Parameters(request, allowed: [])
        return try Self.document(try context.client)
    }

    /// FinanceKit's `requestAuthorization()`: records the request while the owner has not decided (`coffer clients
    /// list` shows it pending), and answers the status as `GET` does. It never authorizes anything.
    func requestAuthorization(_ request: Request, _ context: ClientContext) async throws -> Response {
        _ = try Parameters(request, allowed: [])
        let client = try context.client
        _ = try await owner.scoped(to: client.id).requestAuthorization()
        guard let current = try owner.client(id: client.id), current.state != .revoked else { throw Problem.unauthorized }
        return try Self.document(current)
    }

    /// `{"client", "status", and when authorized "accounts": [{"accountID", "earliestDate"?}], "dataTypes"}`.
    static func document(_ client: FinanceStore.Client) throws -> Response {
        var body = JSONBody()
        body.raw("{")
        let authorized = client.state == .authorized
        if authorized {
            body.key("accounts", first: true)
            body.raw("[" + client.grant.accounts.map { account in
                "{\"accountID\":\"\(account.accountID.uuidString)\""
                    + (account.earliestDate.map { ",\"earliestDate\":\"\(CalendarDay.text($0))\"" } ?? "") + "}"
            }.joined(separator: ",") + "]")
        }
        body.key("client", first: !authorized)
        body.string(client.name)
        if authorized {
            body.key("dataTypes")
            body.raw("[" + client.grant.dataTypes.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]")
        }
        body.key("status")
        body.string(client.status.name)
        body.raw("}")
        return body.response()
    }
}
