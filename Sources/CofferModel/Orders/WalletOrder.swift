import Foundation

/// The content of a Wallet order (`order.json` in an order archive), as far as Coffer reads it: who sold what, for
/// how much, paid how, and where it is. Property names are those of Apple's Wallet Order format.
///
/// For example:
/// ```swift
/// for order in try await store.orders() where order.order.status == "open" {
///     print(order.order.merchant.displayName, order.order.payment?.total?.amountText ?? "")
/// }
/// ```
/// Fields Coffer does not model (barcodes, images, customer, localizations) stay in the stored archive.
public struct WalletOrder: Hashable, Sendable, Codable {
    /// The format's version (`schemaVersion`), 1 today.
    public var schemaVersion: Int
    /// The order type identifier; with `orderIdentifier`, the order's name.
    public var orderTypeIdentifier: String
    /// The order identifier, unique within its type.
    public var orderIdentifier: String
    /// The number the merchant shows its customer, if any.
    public var orderNumber: String?
    /// `open`, `completed` or `cancelled`.
    public var status: String
    /// When the order was placed.
    public var createdAt: Date
    /// When this version of the order was made: saving compares it with the stored version's.
    public var updatedAt: Date
    /// The merchant.
    public var merchant: Merchant
    /// Where the customer manages the order on the merchant's site.
    public var orderManagementURL: String?
    /// What was bought.
    public var lineItems: [LineItem]
    /// What was paid, if the order says.
    public var payment: Payment?
    /// Shipping and pick-up, with tracking.
    public var fulfillments: [Fulfillment]

    /// An order; give what the archive says.
    public init(schemaVersion: Int = 1, orderTypeIdentifier: String, orderIdentifier: String, orderNumber: String? = nil,
                status: String, createdAt: Date, updatedAt: Date, merchant: Merchant, orderManagementURL: String? = nil,
                lineItems: [LineItem] = [], payment: Payment? = nil, fulfillments: [Fulfillment] = []) {
        self.schemaVersion = schemaVersion
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.orderNumber = orderNumber
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.merchant = merchant
        self.orderManagementURL = orderManagementURL
        self.lineItems = lineItems
        self.payment = payment
        self.fulfillments = fulfillments
    }

    /// The order's full identifier.
    public var fullyQualifiedOrderIdentifier: FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier)
    }

    /// The merchant that sold it.
    public struct Merchant: Hashable, Sendable, Codable {
        /// The name shown to the customer; what an order is matched with a transaction's text by.
        public var displayName: String
        /// The merchant's own identifier, if given.
        public var merchantIdentifier: String?
        /// The merchant's site.
        public var url: String?

        /// A merchant.
        public init(displayName: String, merchantIdentifier: String? = nil, url: String? = nil) {
            self.displayName = displayName
            self.merchantIdentifier = merchantIdentifier
            self.url = url
        }
    }

    /// One thing bought.
    public struct LineItem: Hashable, Sendable, Codable {
        /// What it is.
        public var title: String
        /// A second line (size, colour).
        public var subtitle: String?
        /// How many.
        public var quantity: Decimal?
        /// The price of the line.
        public var price: CurrencyAmount?

        /// A line item.
        public init(title: String, subtitle: String? = nil, quantity: Decimal? = nil, price: CurrencyAmount? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.quantity = quantity
            self.price = price
        }
    }

    /// What was paid.
    public struct Payment: Hashable, Sendable, Codable {
        /// The total charged: what a transaction is matched against.
        public var total: CurrencyAmount?
        /// The lines of the total (subtotal, shipping, tax).
        public var summaryItems: [SummaryItem]
        /// `pending`, `paid`, `refunded` and the like, as the merchant says.
        public var status: String?
        /// The payment methods' display names (`Visa •••• 1234`).
        public var paymentMethods: [String]

        /// A payment.
        public init(total: CurrencyAmount?, summaryItems: [SummaryItem] = [], status: String? = nil, paymentMethods: [String] = []) {
            self.total = total
            self.summaryItems = summaryItems
            self.status = status
            self.paymentMethods = paymentMethods
        }
    }

    /// One line of a payment's summary.
    public struct SummaryItem: Hashable, Sendable, Codable {
        /// `Subtotal`, `Shipping`, `Tax`.
        public var label: String
        /// Its amount.
        public var value: CurrencyAmount

        /// A summary line.
        public init(label: String, value: CurrencyAmount) {
            self.label = label
            self.value = value
        }
    }

    /// A shipment or a pick-up.
    public struct Fulfillment: Hashable, Sendable, Codable {
        /// `shipping` or `pickup`.
        public var fulfillmentType: String
        /// The merchant's id of it.
        public var fulfillmentIdentifier: String?
        /// `open`, `processing`, `onTheWay`, `outForDelivery`, `delivered`, `readyForPickup`, `pickedUp`, `issue`,
        /// `cancelled`, as the merchant says.
        public var status: String
        /// The carrier's name.
        public var carrier: String?
        /// The tracking number.
        public var trackingNumber: String?
        /// Where to follow it.
        public var trackingURL: String?
        /// When it is expected.
        public var estimatedDeliveryAt: Date?
        /// When it was delivered or picked up.
        public var deliveredAt: Date?

        /// A fulfillment.
        public init(fulfillmentType: String, fulfillmentIdentifier: String? = nil, status: String, carrier: String? = nil,
                    trackingNumber: String? = nil, trackingURL: String? = nil, estimatedDeliveryAt: Date? = nil,
                    deliveredAt: Date? = nil) {
            self.fulfillmentType = fulfillmentType
            self.fulfillmentIdentifier = fulfillmentIdentifier
            self.status = status
            self.carrier = carrier
            self.trackingNumber = trackingNumber
            self.trackingURL = trackingURL
            self.estimatedDeliveryAt = estimatedDeliveryAt
            self.deliveredAt = deliveredAt
        }
    }
}
