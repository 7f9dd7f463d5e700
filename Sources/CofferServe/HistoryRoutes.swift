import AsyncAlgorithms
import CofferModel
import CofferStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /v1/history/{kind}` (one page of changes) and `GET /v1/history/{kind}/stream` (Server-Sent Events): the
/// store's history streams, read through the client's grant, their tokens the client's own.
struct HistoryRoutes {
    let owner: FinanceStore
    /// Time between heartbeat comments on an open stream (15 s; tests shorten it).
    let heartbeat: Duration

    static let pageLimits = (default: 500, maximum: 5_000)

    /// The three streams, by the path's name for them (FinanceKit's type names).
    enum Kind: String, CaseIterable {
        case transactions, accounts, accountBalances

        var dataType: FinanceStore.ClientDataType {
            switch self {
            case .transactions: .transactions
            case .accounts: .accounts
            case .accountBalances: .accountBalances
            }
        }
    }

    func add(to group: RouterGroup<ClientContext>) {
        group.get("history/{kind}") { request, context in try await page(request, context) }
        group.get("history/{kind}/stream") { request, context in try await stream(request, context) }
    }

    /// What a route asked for: the stream, its account (none for accounts), where to start.
    private struct Selection {
        let kind: Kind
        let store: FinanceStore
        let accountID: UUID?
        let since: HistoryToken?
    }

    private func selection(_ request: Request, _ context: ClientContext, _ parameters: Parameters, since: String?) throws -> Selection {
        guard let kind = context.parameters.get("kind").flatMap(Kind.init(rawValue:)) else { throw Problem.notFound }
        let store = try context.store(owner, for: kind.dataType)
        let accounts = try parameters.filter("account", TransactionFilter.accountIDs)
        if let accounts, kind == .accounts || accounts.count > 1 {
            throw Problem.badRequest(kind == .accounts
                ? "account: the accounts stream is of every granted account; leave account out"
                : "account: a history stream is of one account or of all; give one id, not \(accounts.count)")
        }
        return Selection(kind: kind, store: store, accountID: accounts?.first, since: since.map { HistoryToken(stringValue: $0) })
    }

    // MARK: One page

    /// Up to `limit` changes after `since` (the current state as inserted when it is absent), `newToken` to pass
    /// as the next `since`, and `hasMore` when more changes follow it already.
    func page(_ request: Request, _ context: ClientContext) async throws -> Response {
        let parameters = try Parameters(request, allowed: ["account", "since", "limit"])
        let selected = try selection(request, context, parameters, since: try parameters["since"].flatMap { $0.isEmpty ? nil : $0 })
        let limit = try parameters.integer("limit", default: Self.pageLimits.default, in: 1...Self.pageLimits.maximum)
        switch selected.kind {
        case .transactions:
            let history = selected.accountID.map { selected.store.transactionHistory(forAccountID: $0, since: selected.since, isMonitoring: false) }
                ?? selected.store.allTransactionHistory(since: selected.since, isMonitoring: false)
            return try await Self.page(history.batched(limit), since: selected.since)
        case .accountBalances:
            let history = selected.accountID.map { selected.store.accountBalanceHistory(forAccountID: $0, since: selected.since, isMonitoring: false) }
                ?? selected.store.allAccountBalanceHistory(since: selected.since, isMonitoring: false)
            return try await Self.page(history.batched(limit), since: selected.since)
        case .accounts:
            return try await Self.page(selected.store.accountHistory(since: selected.since, isMonitoring: false).batched(limit),
                                       since: selected.since)
        }
    }

    private static func page<M: Encodable & Identifiable & Sendable>(_ history: FinanceStore.History<M>, since: HistoryToken?) async throws
        -> Response where M.ID == UUID {
        var iterator = history.makeAsyncIterator()
        let changes: Changes<M>
        let hasMore: Bool
        if let batch = try await iterator.next() {
            changes = batch
            hasMore = try history.hasChanges(after: batch.newToken)
        } else if let since {
            // Caught up (the sequence checked the token, a one-row probe): nothing, the same token again, and no
            // second probe for hasMore (it was half of a "nothing new" request's server time).
            changes = Changes(inserted: [], updated: [], deleted: [], newToken: since)
            hasMore = false
        } else {
            throw Problem(.internalServerError, "the history sequence ended without its first batch")
        }
        return JSONBody(bytes: try JSONBody.changes(changes, hasMore: hasMore)).response()
    }

    // MARK: The stream

    /// Server-Sent Events: one `changes` event per batch, its `id` the token that resumes after it (a reconnecting
    /// EventSource sends it back as `Last-Event-ID`, which wins over `since`), a comment every `heartbeat` so
    /// proxies keep the connection, and on an error (the grant changed, the token is no longer valid) one `error`
    /// event with the problem, then the end. A graceful shutdown of the server ends open streams.
    func stream(_ request: Request, _ context: ClientContext) async throws -> Response {
        let parameters = try Parameters(request, allowed: ["account", "since"])
        // A reconnecting EventSource's Last-Event-ID wins over the URL's since (which it repeats); empty is absent.
        let query = try parameters["since"]
        let since = (request.headers[.lastEventID] ?? query).flatMap { $0.isEmpty ? nil : $0 }
        let selected = try selection(request, context, parameters, since: since)
        switch selected.kind {
        case .transactions:
            let history = selected.accountID.map { selected.store.transactionHistory(forAccountID: $0, since: selected.since, isMonitoring: true) }
                ?? selected.store.allTransactionHistory(since: selected.since, isMonitoring: true)
            return try events(history, since: selected.since)
        case .accountBalances:
            let history = selected.accountID.map { selected.store.accountBalanceHistory(forAccountID: $0, since: selected.since, isMonitoring: true) }
                ?? selected.store.allAccountBalanceHistory(since: selected.since, isMonitoring: true)
            return try events(history, since: selected.since)
        case .accounts:
            return try events(selected.store.accountHistory(since: selected.since, isMonitoring: true), since: selected.since)
        }
    }

    private func events<M: Encodable & Identifiable & Sendable>(_ history: FinanceStore.History<M>, since: HistoryToken?) throws
        -> Response where M.ID == UUID {
        // A token that is not valid here is a 410 before the stream opens, not an event after it.
        if let since { _ = try history.hasChanges(after: since) }
        let heartbeat = self.heartbeat
        let body = ResponseBody { writer in
            // Two producers, one writer: the history's events and the heartbeat meet in a channel whose `send`
            // waits for the write (a slow reader slows its producer instead of filling memory).
            let channel = AsyncChannel<ByteBuffer>()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await Self.produce(history, into: channel)
                    channel.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: heartbeat)
                        await channel.send(ByteBuffer(string: ": heartbeat\n\n"))
                    }
                }
                try await writer.write(ByteBuffer(string: ": coffer history stream\nretry: 2000\n\n"))
                for await chunk in channel.cancelOnGracefulShutdown() {
                    try await writer.write(chunk)
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache",
                                               HTTPField.Name("X-Accel-Buffering")!: "no"], body: body)
    }

    /// Sends each batch as a `changes` event until the sequence ends (cancelled) or throws (an `error` event).
    private static func produce<M: Encodable & Identifiable & Sendable>(_ history: FinanceStore.History<M>,
                                                                         into channel: AsyncChannel<ByteBuffer>) async where M.ID == UUID {
        do {
            for try await changes in history {
                var event = Array("id: \(changes.newToken.stringValue)\nevent: changes\ndata: ".utf8)
                event.append(contentsOf: try JSONBody.changes(changes, hasMore: nil))
                event.append(contentsOf: "\n\n".utf8)
                await channel.send(ByteBuffer(bytes: event))
                if Task.isCancelled { return }
            }
        } catch {
            let problem: Problem = switch error {
            case FinanceError.historyTokenInvalid: .tokenGone
            case FinanceError.dataRestricted: .forbidden("this stream")
            default: Problem(.internalServerError, "the stream failed inside the server")
            }
            var event = Array("event: error\ndata: ".utf8)
            event.append(contentsOf: problem.json)
            event.append(contentsOf: "\n\n".utf8)
            await channel.send(ByteBuffer(bytes: event))
        }
    }
}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
