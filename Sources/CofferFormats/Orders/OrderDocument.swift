import CofferModel
import Foundation

/// Reads `order.json`, Apple's Wallet Order format, into a `WalletOrder`. Fields Coffer does not model are ignored;
/// a missing or malformed field it needs is refused with its path (`payment.total.amount`).
package enum OrderDocument {
    /// The order; throws `CofferError(.badInput)` located at `archive` and `order.json`, naming the field.
    package static func decode(_ data: Data, archive: String) throws -> WalletOrder {
        func refuse(_ field: String, _ message: String) -> CofferError {
            CofferError(.badInput, message, location: SourceLocation(file: archive, element: field.isEmpty ? "order.json" : "order.json: " + field))
        }
        let raw: RawOrder
        do {
            raw = try JSONDecoder().decode(RawOrder.self, from: data)
        } catch let error as DecodingError {
            let (path, message) = describe(error)
            throw refuse(path, message)
        } catch {
            throw refuse("", "not JSON: \(error.localizedDescription)")
        }
        guard !raw.orderTypeIdentifier.isEmpty else { throw refuse("orderTypeIdentifier", "empty; expected the order type identifier") }
        guard !raw.orderIdentifier.isEmpty else { throw refuse("orderIdentifier", "empty; expected the order identifier") }
        guard !raw.merchant.displayName.isEmpty else { throw refuse("merchant.displayName", "empty; expected the merchant's name") }
        return WalletOrder(
            schemaVersion: raw.schemaVersion, orderTypeIdentifier: raw.orderTypeIdentifier, orderIdentifier: raw.orderIdentifier,
            orderNumber: raw.orderNumber, status: raw.status, createdAt: raw.createdAt.date, updatedAt: raw.updatedAt.date,
            merchant: WalletOrder.Merchant(displayName: raw.merchant.displayName, merchantIdentifier: raw.merchant.merchantIdentifier,
                                           url: raw.merchant.url),
            orderManagementURL: raw.orderManagementURL,
            lineItems: (raw.lineItems ?? []).map {
                WalletOrder.LineItem(title: $0.title, subtitle: $0.subtitle, quantity: $0.quantity?.value, price: $0.price?.amount)
            },
            payment: raw.payment.map { payment in
                WalletOrder.Payment(total: payment.total?.amount,
                                    summaryItems: (payment.summaryItems ?? []).map { WalletOrder.SummaryItem(label: $0.label, value: $0.value.amount) },
                                    status: payment.status, paymentMethods: (payment.paymentMethods ?? []).compactMap(\.displayName))
            },
            fulfillments: (raw.fulfillments ?? []).map {
                WalletOrder.Fulfillment(fulfillmentType: $0.fulfillmentType, fulfillmentIdentifier: $0.fulfillmentIdentifier,
                                        status: $0.status, carrier: $0.carrier, trackingNumber: $0.trackingNumber,
                                        trackingURL: $0.trackingURL, estimatedDeliveryAt: $0.estimatedDeliveryAt?.date,
                                        deliveredAt: $0.deliveredAt?.date)
            })
    }

    /// `lineItems[1].price.amount` and a sentence, from a decoding error.
    static func describe(_ error: DecodingError) -> (String, String) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath + [key])
            return (at, "missing; Wallet orders carry \(key.stringValue)")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(expected(type)), found something else")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "null; expected \(expected(type))")
        case .dataCorrupted(let context):
            let at = path(context.codingPath)
            return (at, at.isEmpty ? "not JSON: \(context.debugDescription)" : context.debugDescription)
        @unknown default:
            return ("", "\(error)")
        }
    }

    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type: "a whole number"
        case is Array<Any>.Type: "a list"
        default: "\(type)"
        }
    }

    // The JSON as Apple's format writes it.
    struct RawOrder: Decodable {
        var schemaVersion: Int
        var orderTypeIdentifier: String
        var orderIdentifier: String
        var orderNumber: String?
        var status: String
        var createdAt: Instant
        var updatedAt: Instant
        var merchant: RawMerchant
        var orderManagementURL: String?
        var lineItems: [RawLineItem]?
        var payment: RawPayment?
        var fulfillments: [RawFulfillment]?
    }

    struct RawMerchant: Decodable {
        var displayName: String
        var merchantIdentifier: String?
        var url: String?
    }

    struct RawLineItem: Decodable {
        var title: String
        var subtitle: String?
        var quantity: Amount?
        var price: Money?
    }

    struct RawPayment: Decodable {
        var total: Money?
        var summaryItems: [RawSummaryItem]?
        var status: String?
        var paymentMethods: [RawPaymentMethod]?
    }

    struct RawSummaryItem: Decodable {
        var label: String
        var value: Money
    }

    struct RawPaymentMethod: Decodable {
        var displayName: String?
    }

    struct RawFulfillment: Decodable {
        var fulfillmentType: String
        var fulfillmentIdentifier: String?
        var status: String
        var carrier: String?
        var trackingNumber: String?
        var trackingURL: String?
        var estimatedDeliveryAt: Instant?
        var deliveredAt: Instant?
    }

    /// `{"amount": "12.50", "currency": "USD"}`, the amount as text or a JSON number, exact either way.
    struct Money: Decodable {
        var amount: CurrencyAmount

        enum CodingKeys: String, CodingKey { case amount, currency }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let currency = try container.decode(String.self, forKey: .currency)
            guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw DecodingError.dataCorruptedError(forKey: .currency, in: container,
                                                       debugDescription: "'\(currency)' is not an ISO 4217 currency code such as USD")
            }
            let value = try container.decode(Amount.self, forKey: .amount).value
            guard value >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .amount, in: container, debugDescription: "negative; an order's amounts are positive")
            }
            amount = CurrencyAmount(amount: value, currencyCode: currency.uppercased())
        }
    }

    /// A decimal, as text (`"12.50"`) or a JSON number, kept exact.
    struct Amount: Decodable {
        var value: Decimal

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                guard let value = ExactDecimal.parse(text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a decimal number like 12.50")
                }
                self.value = value
            } else if let value = try? container.decode(Decimal.self) {
                self.value = value
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a decimal number like 12.50")
            }
        }
    }

    /// An ISO 8601 instant, with or without fractional seconds.
    struct Instant: Decodable {
        var date: Date

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Self.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date-time like 2026-03-14T09:30:00Z")
            }
            self.date = date
        }

        static func parse(_ text: String) -> Date? {
            let plain = ISO8601DateFormatter()
            if let date = plain.date(from: text) { return date }
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return fractional.date(from: text)
        }
    }
}
