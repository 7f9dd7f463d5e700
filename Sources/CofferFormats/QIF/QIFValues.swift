import CofferModel
import Foundation

/// The order of day and month in dates like `01/02/2026`: Quicken's US versions write month first, its UK and
/// European versions (and Microsoft Money there) day first.
package enum QIFDateOrder: String, Sendable, CaseIterable {
    case dmy, mdy
}

/// A QIF `D` value split into its parts, before the order of day and month is known.
///
/// Quicken writes `1/ 2'26` (space-padded, an apostrophe before a two-digit year of the 2000s), `01/02/2026`,
/// `1/2/98` (a slash before a two-digit year: 1970–2069 by the usual pivot), others `01.02.2026`, `01-02-2026` or
/// `2026-01-02` (year first: always year, month, day).
struct QIFDate: Sendable, Equatable {
    var first: Int
    var second: Int
    var year: Int
    var yearFirst: Bool

    static func parse(_ text: String) -> QIFDate? {
        let value = text.filter { !$0.isWhitespace }
        var parts: [String] = []
        var current = ""
        var apostropheYear = false
        for c in value {
            if c.isASCII, c.isNumber {
                current.append(c)
            } else if "/.-'".contains(c) {
                guard !current.isEmpty else { return nil }
                parts.append(current)
                current = ""
                if c == "'" { apostropheYear = true }
            } else {
                return nil
            }
        }
        parts.append(current)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        if parts[0].count == 4 {
            guard !apostropheYear else { return nil }
            return QIFDate(first: numbers[1], second: numbers[2], year: numbers[0], yearFirst: true)
        }
        guard parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 2 || parts[2].count == 4 else { return nil }
        var year = numbers[2]
        if parts[2].count == 2 { year += apostropheYear ? 2000 : (year < 70 ? 2000 : 1900) }
        return QIFDate(first: numbers[0], second: numbers[1], year: year, yearFirst: false)
    }

    /// The day in `order`; nil when it does not exist.
    func day(_ order: QIFDateOrder) -> RawDate? {
        if yearFirst { return RawDate.day(year: year, month: first, day: second) }
        return order == .mdy ? RawDate.day(year: year, month: first, day: second)
            : RawDate.day(year: year, month: second, day: first)
    }

    /// Whether both orders give a day, and different ones.
    var isAmbiguous: Bool {
        !yearFirst && first != second && day(.mdy) != nil && day(.dmy) != nil
    }
}

/// QIF amounts: `-1,234.56`, `1234.5`, and in files written with a decimal comma `-1.234,56` or `12,50`.
enum QIFAmount {
    /// The mark a value can only be read with: `.`, `,`, or nil when both readings work (`12.50` is only `.`
    /// with `,` for thousands… but `1,234` could be either) or neither does.
    static func onlyMark(_ text: String) -> Character? {
        let dot = parse(text, decimalComma: false) != nil
        let comma = parse(text, decimalComma: true) != nil
        if dot && !comma { return "." }
        if comma && !dot { return "," }
        return nil
    }

    static func parse(_ text: String, decimalComma: Bool) -> Decimal? {
        let value = text.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty, value.count <= 40 else { return nil }
        return decimalComma ? AmountText.parse(value, decimalMark: ",", thousandsSeparator: ".")
            : AmountText.parse(value, decimalMark: ".", thousandsSeparator: ",")
    }
}

/// The kind of transactions a `!Type:` header announces.
enum QIFSection: Equatable, Sendable {
    case bank, cash, creditCard, otherAsset, otherLiability
    case investment
    /// Lists that hold no transactions: categories, classes, memorized transactions, prices, securities.
    case list(String)
    case unknown(String)

    init(header: String) {
        let name = header.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
        switch name {
        case "bank": self = .bank
        case "cash": self = .cash
        case "ccard", "credit card", "creditcard": self = .creditCard
        case "oth a", "otha", "other asset": self = .otherAsset
        case "oth l", "othl", "other liability": self = .otherLiability
        case "invst", "port", "investment": self = .investment
        case "cat", "class", "memorized", "prices", "security", "template", "budget", "invitem", "bill", "payee":
            self = .list(name)
        default: self = .unknown(name)
        }
    }

    /// The same word in an `!Account` block's `T` field.
    init(accountType: String) {
        self.init(header: "!Type:" + accountType)
    }

    var holdsTransactions: Bool {
        switch self {
        case .bank, .cash, .creditCard, .otherAsset, .otherLiability: true
        default: false
        }
    }

    var kind: AccountKind { self == .creditCard || self == .otherLiability ? .liability : .asset }

    /// The account type word Coffer describes accounts by (`StatementAccount.describe`).
    var accountType: String? {
        switch self {
        case .creditCard: "CREDITCARD"
        case .cash: "CASH"
        case .otherAsset: "OTHERASSET"
        case .otherLiability: "OTHERLIABILITY"
        default: nil
        }
    }
}
