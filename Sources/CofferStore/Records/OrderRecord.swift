import CofferModel
import Foundation
import GRDB

/// A row of `wallet_order`, the GRDB way (see `AccountRecord`); `storedOrder` and `init(_:…)` map it to `StoredOrder`.
struct OrderRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "wallet_order"

    var id: UUID
    var orderTypeIdentifier: String
    var orderIdentifier: String
    /// The client that saved it; nil for the owner.
    var clientID: UUID?
    /// order.json's `updatedAt` and `createdAt`, milliseconds since 1970.
    var updatedAt: Int64
    var createdAt: Int64
    var merchantName: String
    var status: String
    /// The payment's total, exact text and micro-units, and its currency.
    var totalAmount: String?
    var totalScaled: Int64?
    var currencyCode: String?
    /// `WalletOrder`, JSON.
    var orderJSON: Data
    /// The signed archive as received; empty when read through `summaryColumns`.
    var archive: Data
    var archiveSHA256: String
    /// `OrderVerification`, JSON.
    var verification: String
    var transactionID: UUID?
    var savedAt: Int64

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, orderTypeIdentifier = "order_type_identifier", orderIdentifier = "order_identifier", clientID = "client_id",
             updatedAt = "updated_at", createdAt = "created_at", merchantName = "merchant_name", status,
             totalAmount = "total_amount", totalScaled = "total_scaled", currencyCode = "currency_code",
             orderJSON = "order_json", archive, archiveSHA256 = "archive_sha256", verification,
             transactionID = "transaction_id", savedAt = "saved_at"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let orderTypeIdentifier = Column(CodingKeys.orderTypeIdentifier)
        static let orderIdentifier = Column(CodingKeys.orderIdentifier)
        static let clientID = Column(CodingKeys.clientID)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let createdAt = Column(CodingKeys.createdAt)
        static let transactionID = Column(CodingKeys.transactionID)
    }

    /// Every column, the archive read as empty: what listing and showing orders read.
    static var summaryColumns: [any SQLSelectable] { CodingKeys.allCases.filter { $0 != .archive }.map(Column.init)
        + [SQL(sql: "x'' AS archive")] }

    /// How `order_json` and `verification` are written: dates in milliseconds, keys sorted (the same order, the same bytes).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    /// A new row for `order`, saved by `clientID` (nil: the owner).
    init(id: UUID, order: WalletOrder, clientID: UUID?, archive: Data, archiveSHA256: String, verification outcome: OrderVerification,
         transactionID: UUID?, savedAt: Date) throws {
        self.id = id
        orderTypeIdentifier = order.orderTypeIdentifier
        orderIdentifier = order.orderIdentifier
        self.clientID = clientID
        updatedAt = Rows.millis(order.updatedAt)
        createdAt = Rows.millis(order.createdAt)
        merchantName = order.merchant.displayName
        status = order.status
        totalAmount = order.payment?.total.map { ExactDecimal.text($0.amount) }
        totalScaled = order.payment?.total.map { Rows.scaled($0.amount) }
        currencyCode = order.payment?.total?.currencyCode
        orderJSON = try Self.encoder.encode(order)
        self.archive = archive
        self.archiveSHA256 = archiveSHA256
        verification = String(decoding: try Self.encoder.encode(outcome), as: UTF8.self)
        self.transactionID = transactionID
        self.savedAt = Rows.millis(savedAt)
    }

    /// The stored order this row holds; `live` says whether its transaction still exists (a dangling link reads as none).
    func storedOrder(transactionExists: Bool = true) throws -> StoredOrder {
        do {
            return StoredOrder(id: id, order: try Self.decoder.decode(WalletOrder.self, from: orderJSON), clientID: clientID,
                               savedAt: Rows.date(savedAt),
                               verification: try Self.decoder.decode(OrderVerification.self, from: Data(verification.utf8)),
                               transactionID: transactionExists ? transactionID : nil, archiveSHA256: archiveSHA256)
        } catch {
            throw CofferError(.notAStore, "wallet_order \(id): the stored order cannot be read; the store is damaged", underlying: error)
        }
    }
}
