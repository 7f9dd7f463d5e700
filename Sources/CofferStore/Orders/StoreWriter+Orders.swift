import CofferModel
import Foundation
import GRDB

/// What the pipeline hands the store to save: an order whose archive was verified.
package struct VerifiedOrder: Sendable {
    package var order: WalletOrder
    package var archive: Data
    package var archiveSHA256: String
    package var verification: OrderVerification

    package init(order: WalletOrder, archive: Data, archiveSHA256: String, verification: OrderVerification) {
        self.order = order
        self.archive = archive
        self.archiveSHA256 = archiveSHA256
        self.verification = verification
    }
}

extension FinanceStore {
    /// The `updated_at` of the saver's own copy of the order, if it saved one: what a new version is compared with.
    package func savedVersion(of fqoid: FullyQualifiedOrderIdentifier, by saver: OrderSaver) throws -> Int64? {
        try pool.read { db in try Self.ownRow(fqoid, saver, db)?.updatedAt }
    }

    /// Stores `verified` for `saver` in one write: `.newerExisting` (nothing written) when the saver's copy is at least
    /// as new, else inserts it or replaces the saver's older copy, keeping its id. Returns the stored order for `.added`.
    package func storeOrder(_ verified: VerifiedOrder, by saver: OrderSaver, transactionID: UUID?,
                            at date: Date = Date()) throws -> (SaveOrderResult, StoredOrder?) {
        _ = try requireOrders(saver)
        return try orderWrite { db in
            let fqoid = verified.order.fullyQualifiedOrderIdentifier
            let existing = try Self.ownRow(fqoid, saver, db)
            if let existing, existing.updatedAt >= Rows.millis(verified.order.updatedAt) { return (.newerExisting, nil) }
            let record = try OrderRecord(id: existing?.id ?? UUID(), order: verified.order, clientID: saver.clientID,
                                         archive: verified.archive, archiveSHA256: verified.archiveSHA256,
                                         verification: verified.verification, transactionID: transactionID, savedAt: date)
            if existing != nil { try record.update(db) } else { try record.insert(db) }
            return (.added, try record.storedOrder())
        }
    }

    /// Links a stored order to the transaction that paid for it (nil: unlinks it).
    package func linkOrder(id: UUID, toTransaction transactionID: UUID?) throws {
        try orderWrite { db in
            try db.execute(sql: "UPDATE wallet_order SET transaction_id = ? WHERE id = ?", arguments: [transactionID, id])
        }
    }

    /// Transactions already linked to an order other than `fqoid` (any saver's), which a new link must not take.
    package func transactionsLinked(except fqoid: FullyQualifiedOrderIdentifier?) throws -> Set<UUID> {
        try pool.read { db in
            var request = OrderRecord.filter(OrderRecord.Columns.transactionID != nil)
            if let fqoid {
                request = request.filter(!(OrderRecord.Columns.orderTypeIdentifier == fqoid.orderTypeIdentifier
                                           && OrderRecord.Columns.orderIdentifier == fqoid.orderIdentifier))
            }
            return Set(try UUID.fetchAll(db, request.select(OrderRecord.Columns.transactionID)))
        }
    }

    /// Every stored order (any saver's) with no live transaction link: what a new import may pay for.
    package func unlinkedOrders() throws -> [StoredOrder] {
        try pool.read { db in
            let records = try OrderRecord.select(OrderRecord.summaryColumns)
                .filter(sql: "transaction_id IS NULL OR transaction_id NOT IN (SELECT id FROM txn)")
                .order(OrderRecord.Columns.createdAt, OrderRecord.Columns.id).fetchAll(db)
            return try Self.stored(records, db)
        }
    }

    /// One write transaction on the order table, for the owner or a client (`write` is the owner's alone: a client
    /// saves orders and nothing else).
    func orderWrite<T>(_ body: (Database) throws -> T) throws -> T {
        guard access == .readWrite else {
            throw CofferError(.storeReadOnly, "\(path) was opened read-only; saving an order needs write access")
        }
        do {
            return try pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw StoreFile.describe(error, path: path)
        }
    }

    static func ownRow(_ fqoid: FullyQualifiedOrderIdentifier, _ saver: OrderSaver, _ db: Database) throws -> OrderRecord? {
        var request = OrderRecord.select(OrderRecord.summaryColumns)
            .filter(OrderRecord.Columns.orderTypeIdentifier == fqoid.orderTypeIdentifier
                    && OrderRecord.Columns.orderIdentifier == fqoid.orderIdentifier)
        switch saver {
        case .owner: request = request.filter(OrderRecord.Columns.clientID == nil)
        case .client(let id): request = request.filter(OrderRecord.Columns.clientID == id)
        }
        return try request.fetchOne(db)
    }
}
