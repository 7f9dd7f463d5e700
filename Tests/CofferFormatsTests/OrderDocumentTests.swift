@testable import CofferFormats
import CofferModel
import Foundation
import Testing

/// order.json (Apple's Wallet Order format) read into `WalletOrder`, and bad fields located by their path.
@Suite struct OrderDocumentTests {
    static let minimal = """
        {"schemaVersion": 1, "orderTypeIdentifier": "order.test", "orderIdentifier": "A1", "status": "open",
         "createdAt": "2026-03-01T10:00:00.250Z", "updatedAt": "2026-03-02T10:00:00+01:00",
         "merchant": {"displayName": "Corner Bakery"},
         "payment": {"total": {"amount": 0.1, "currency": "eur"},
                     "summaryItems": [{"label": "Subtotal", "value": {"amount": "12345678901234.99", "currency": "EUR"}}]}}
        """

    @Test func amountsStayExactAndDatesKeepTheirOffsets() throws {
        let order = try OrderDocument.decode(Data(Self.minimal.utf8), archive: "a.order")
        #expect(order.payment?.total == CurrencyAmount(amount: Decimal(string: "0.1")!, currencyCode: "EUR"))
        #expect(order.payment?.summaryItems.first?.value.amount == Decimal(string: "12345678901234.99"))
        #expect(order.createdAt == Date(timeIntervalSince1970: 1_772_359_200.25))
        #expect(order.updatedAt == Date(timeIntervalSince1970: 1_772_442_000))
        #expect(order.lineItems.isEmpty && order.fulfillments.isEmpty)
    }

    @Test(arguments: [
        ("\"orderIdentifier\": \"A1\",", "", "order.json: orderIdentifier", "missing"),
        ("\"updatedAt\": \"2026-03-02T10:00:00+01:00\"", "\"updatedAt\": \"yesterday\"", "order.json: updatedAt", "ISO 8601"),
        ("\"amount\": 0.1", "\"amount\": \"ten\"", "order.json: payment.total.amount", "decimal"),
        ("\"currency\": \"eur\"", "\"currency\": \"euro\"", "order.json: payment.total.currency", "ISO 4217"),
        ("\"amount\": \"12345678901234.99\"", "\"amount\": \"-1\"", "order.json: payment.summaryItems[0].value.amount", "negative"),
        ("\"displayName\": \"Corner Bakery\"", "\"displayName\": \"\"", "order.json: merchant.displayName", "empty"),
    ])
    func aBadFieldIsNamed(replacing: String, with: String, element: String, message: String) throws {
        let text = Self.minimal.replacingOccurrences(of: replacing, with: with)
        #expect(text != Self.minimal)
        do {
            _ = try OrderDocument.decode(Data(text.utf8), archive: "a.order")
            Issue.record("accepted")
        } catch let error as CofferError {
            #expect(error.code == .badInput)
            #expect(error.location == SourceLocation(file: "a.order", element: element), "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func notJSONIsRefused() {
        #expect(throws: CofferError.self) { try OrderDocument.decode(Data("<order/>".utf8), archive: "a.order") }
    }

    @Test func limitsAreTheArchiveReadersOwn() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden/orders/greenleaf-v1.order")
        let data = try Data(contentsOf: sample)
        #expect(try OrderArchiveReader.read(data, name: "v1").files.keys.sorted() == ["order.json"])
        var small = OrderArchiveLimits()
        small.archiveBytes = 100
        #expect(throws: CofferError.self) { try OrderArchiveReader.read(data, name: "v1", limits: small) }
        small = OrderArchiveLimits()
        small.entries = 2
        #expect(throws: CofferError.self) { try OrderArchiveReader.read(data, name: "v1", limits: small) }
    }
}
