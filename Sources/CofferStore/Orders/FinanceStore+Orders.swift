import CofferModel
import Foundation
import GRDB

extension FinanceStore {
    /// FinanceKit's name for what `saveOrder(signedArchive:)` did.
    public typealias SaveOrderResult = CofferModel.SaveOrderResult
    /// FinanceKit's name for what `containsOrder(matching:updatedDate:)` found.
    public typealias ContainsOrderResult = CofferModel.ContainsOrderResult

    /// Whether the order is stored, and how its stored version compares with `updatedDate` (FinanceKit's
    /// `containsOrder`).
    ///
    /// For example:
    /// ```swift
    /// let fqoid = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "A-1001")
    /// switch try await store.containsOrder(matching: fqoid, updatedDate: myCopy.updatedAt) {
    /// case .olderExists: try await store.saveOrder(signedArchive: newerArchive)
    /// default: break
    /// }
    /// ```
    /// With no `updatedDate`, `.exists` when it is stored at all. Dates compare to the millisecond. A client sees only
    /// the orders it saved (`.notFound` for anyone else's); the owner sees every order, and the newest saved version
    /// counts.
    public func containsOrder(matching fqoid: FullyQualifiedOrderIdentifier, updatedDate: Date? = nil) async throws -> ContainsOrderResult {
        try await containsOrder(matching: fqoid, updatedDate: updatedDate, as: orderSaver)
    }

    /// `containsOrder(matching:updatedDate:)` for `saver`.
    package func containsOrder(matching fqoid: FullyQualifiedOrderIdentifier, updatedDate: Date?, as saver: OrderSaver) async throws -> ContainsOrderResult {
        _ = try requireOrders(saver)
        let stored = try await orderRead { db in
            try Self.visibleOrders(saver).filter(OrderRecord.Columns.orderTypeIdentifier == fqoid.orderTypeIdentifier
                                                 && OrderRecord.Columns.orderIdentifier == fqoid.orderIdentifier)
                .select(max(OrderRecord.Columns.updatedAt)).asRequest(of: Int64?.self).fetchOne(db) ?? nil
        }
        return Self.compare(stored: stored, asked: updatedDate)
    }

    /// How a stored version (`updated_at`, nil when none) compares with the asked date.
    package static func compare(stored: Int64?, asked: Date?) -> ContainsOrderResult {
        guard let stored else { return .notFound }
        guard let asked else { return .exists }
        let wanted = Rows.millis(asked)
        if stored > wanted { return .newerExists }
        if stored < wanted { return .olderExists }
        return .exists
    }

    /// The orders this store's saver may see, newest placed first: a client's own, or every order for the owner.
    ///
    /// For example:
    /// ```swift
    /// for stored in try await store.orders() { print(stored.order.merchant.displayName, stored.transactionID as Any) }
    /// ```
    public func orders() async throws -> [StoredOrder] {
        try await orders(as: orderSaver)
    }

    /// `orders()` for `saver`.
    package func orders(as saver: OrderSaver) async throws -> [StoredOrder] {
        let scope = try requireOrders(saver)
        return try await orderRead { db in
            let records = try Self.visibleOrders(saver).select(OrderRecord.summaryColumns)
                .order(OrderRecord.Columns.createdAt.desc, OrderRecord.Columns.id).fetchAll(db)
            return try Self.stored(records, db, scope: scope)
        }
    }

    /// The stored order with this id, if the saver may see it.
    public func order(id: UUID) async throws -> StoredOrder? {
        try await order(id: id, as: orderSaver)
    }

    /// `order(id:)` for `saver`.
    package func order(id: UUID, as saver: OrderSaver) async throws -> StoredOrder? {
        let scope = try requireOrders(saver)
        return try await orderRead { db in
            guard let record = try Self.visibleOrders(saver).select(OrderRecord.summaryColumns)
                .filter(OrderRecord.Columns.id == id).fetchOne(db) else { return nil }
            return try Self.stored([record], db, scope: scope).first
        }
    }

    /// The signed archive of the stored order with this id, as it was received, if the saver may see it.
    public func orderArchive(id: UUID) async throws -> Data? {
        let saver = orderSaver
        _ = try requireOrders(saver)
        return try await orderRead { db in
            try Self.visibleOrders(saver).select(Column(OrderRecord.CodingKeys.archive)).filter(OrderRecord.Columns.id == id)
                .asRequest(of: Data.self).fetchOne(db)
        }
    }

    /// The order linked to each of these transactions, by transaction id: what `coffer transactions --format json`
    /// shows as `orderID`. Transactions without a visible linked order are absent.
    public func orderIDs(forTransactionIDs ids: [UUID]) async throws -> [UUID: UUID] {
        let saver = orderSaver
        // A client without the orders type sees no links (its transactions still list).
        do { _ = try requireOrders(saver) } catch { return [:] }
        guard !ids.isEmpty else { return [:] }
        // On the store's reader connections, as queries: `coffer transactions --format ndjson` asks this in a
        // one-shot process, which then never opens GRDB's connections (`GRDBPool`).
        do {
            return try await readOffPool { job in try job.read { connection in
                var sql = "SELECT transaction_id, id FROM wallet_order WHERE transaction_id IS NOT NULL"
                if case .client = saver { sql += " AND client_id = ?" }
                // The owner may see two savers' copies of one order: the first saved is shown.
                let statement = try connection.statement(sql + " ORDER BY saved_at, id")
                if case .client(let id) = saver { try statement.bind(id, at: 1) }
                var out: [UUID: UUID] = [:]
                let wanted = Set(ids)
                while try statement.step() {
                    let transaction = try statement.uuid(0, column: "transaction_id")
                    if wanted.contains(transaction), out[transaction] == nil { out[transaction] = try statement.uuid(1, column: "id") }
                }
                return out
            } }
        } catch FinanceError.dataRestricted {
            throw FinanceError.dataRestricted(.orders)
        }
    }

    /// The saver's orders.
    static func visibleOrders(_ saver: OrderSaver) -> QueryInterfaceRequest<OrderRecord> {
        switch saver {
        case .owner: OrderRecord.all()
        case .client(let id): OrderRecord.filter(OrderRecord.Columns.clientID == id)
        }
    }

    /// Records as stored orders; a link to a transaction that no longer exists reads as none, and so does, for a
    /// client (`scope`), one to a transaction outside its grant.
    static func stored(_ records: [OrderRecord], _ db: Database, scope: AccessScope? = nil) throws -> [StoredOrder] {
        let linked = records.compactMap(\.transactionID)
        var live = Set<UUID>()
        if !linked.isEmpty {
            let rows = try Row.fetchAll(db, sql: "SELECT id, account_id, local_day FROM txn WHERE id IN (\(linked.map { _ in "?" }.joined(separator: ",")))",
                                        arguments: StatementArguments(linked))
            for row in rows {
                let id: UUID = row[0]
                if let scope {
                    guard scope.types.contains(.transactions), scope.contains(.transaction, accountID: row[1], day: row[2]) else { continue }
                }
                live.insert(id)
            }
        }
        return try records.map { try $0.storedOrder(transactionExists: $0.transactionID.map(live.contains) ?? true) }
    }

    /// A read of the order table, with `read`'s error mapping (orders' own `dataRestricted` type).
    func orderRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch let error as DatabaseError {
            if case FinanceError.dataRestricted = restricted(error) { throw FinanceError.dataRestricted(.orders) }
            throw error
        }
    }
}
