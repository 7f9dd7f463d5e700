import Foundation

/// An amount of money in one currency. In Coffer, as in FinanceKit, transaction and balance amounts are
/// always positive; `CreditDebitIndicator` gives the direction.
///
/// Encodes as `{"amount": "12.30", "currencyCode": "USD"}`: the amount as exact decimal text, padded to the
/// currency's minor units, never a binary floating-point number.
public struct CurrencyAmount: Hashable, Sendable, Codable {
    /// The amount, exact; positive in transactions and balances, where an indicator gives the direction.
    public let amount: Decimal
    /// ISO 4217 code, e.g. `"USD"`.
    public let currencyCode: String

    /// Creates an amount in a currency.
    @inlinable
    public init(amount: Decimal, currencyCode: String) {
        self.amount = amount
        self.currencyCode = currencyCode
    }

    /// The amount as text with the currency's minor units: `12.3 USD` → `"12.30"`, `5 JPY` → `"5"`.
    public var amountText: String {
        ExactDecimal.text(amount, minimumFractionDigits: CurrencyAmount.minorUnits(for: currencyCode))
    }

    /// ISO 4217 minor units; 2 where the code is not one of the exceptions.
    public static func minorUnits(for currencyCode: String) -> Int {
        // Codes are stored upper-case: no `uppercased()` copy for them (every amount written as JSON asks).
        let isUpper = currencyCode.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        switch isUpper ? currencyCode : currencyCode.uppercased() {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV",
             "XAF", "XOF", "XPF":
            return 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
            return 3
        case "CLF", "UYW":
            return 4
        default:
            return 2
        }
    }

    private enum CodingKeys: String, CodingKey { case amount, currencyCode }

    /// Encodes `{"amount": "12.30", "currencyCode": "USD"}`, the amount as exact text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amountText, forKey: .amount)
        try container.encode(currencyCode, forKey: .currencyCode)
    }

    /// Decodes what `encode(to:)` wrote; the amount may be text or a JSON number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currencyCode = try container.decode(String.self, forKey: .currencyCode)
        if let text = try? container.decode(String.self, forKey: .amount) {
            guard let value = ExactDecimal.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .amount, in: container, debugDescription: "'\(text)' is not a decimal number")
            }
            amount = value
        } else {
            amount = try container.decode(Decimal.self, forKey: .amount)
        }
    }
}
