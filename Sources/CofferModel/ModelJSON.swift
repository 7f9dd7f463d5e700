import Foundation

/// Compact JSON of a transaction, byte for byte what `JSONEncoder` writes for it with `.sortedKeys` and
/// `.withoutEscapingSlashes`, dates as `CalendarDay.text` and `Transaction.localDateText` set (the CLI's NDJSON
/// lines): a time is written in its own offset.
///
/// `JSONEncoder` spent about 40 µs on each transaction (boxing every value, sorting keys, a Foundation date
/// formatter per instant): most of a one-shot `coffer transactions --format ndjson`. Keys here are written in
/// their sorted order; strings are escaped as `JSONEncoder` escapes them. A test compares the two on varied
/// transactions.
package enum ModelJSON {
    /// The encoder of every other model (and of whole documents): FinanceKit's property names, keys sorted, enum
    /// case names, exact decimal strings, dates as `CalendarDay.text` (`2026-03-14` for a date-only value, else an
    /// ISO 8601 instant in UTC), a transaction's in its own offset. The CLI's `--format json` (pretty) and NDJSON
    /// lines, and `coffer serve`'s bodies (compact), are this encoder's output.
    package static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(CalendarDay.text(date))
        }
        encoder.userInfo[Transaction.localDateText] = true
        return encoder
    }

    /// One transaction as a JSON object, appended to `out` (no newline).
    package static func append(_ t: Transaction, to out: inout [UInt8]) {
        append(t, orderIDInKeyOrder: nil, to: &out)
    }

    /// `orderIDInKeyOrder`: an `"orderID"` among the sorted keys, where `JSONEncoder` puts it in a linked
    /// transaction (`--format json`); NDJSON lines and `coffer serve` put it last (`append(_:orderID:to:)`).
    private static func append(_ t: Transaction, orderIDInKeyOrder: UUID?, to out: inout [UInt8]) {
        out.append(contentsOf: Key.accountID); uuid(t.accountID, &out)
        out.append(contentsOf: Key.creditDebitIndicator); string(t.creditDebitIndicator.name, &out)
        if let foreign = t.foreignCurrencyAmount {
            out.append(contentsOf: Key.foreignCurrencyAmount); amount(foreign, &out)
        }
        if let rate = t.foreignCurrencyExchangeRate {
            out.append(contentsOf: Key.foreignCurrencyExchangeRate); string(ExactDecimal.text(rate), &out)
        }
        out.append(contentsOf: Key.id); uuid(t.id, &out)
        if let mcc = t.merchantCategoryCode {
            out.append(contentsOf: Key.merchantCategoryCode); out.append(contentsOf: String(mcc.rawValue).utf8)
        }
        if let merchant = t.merchantName {
            out.append(contentsOf: Key.merchantName); string(merchant, &out)
        }
        if let orderIDInKeyOrder {
            out.append(contentsOf: Key.orderID); uuid(orderIDInKeyOrder, &out)
        }
        out.append(contentsOf: Key.originalTransactionDescription); string(t.originalTransactionDescription, &out)
        if let posted = t.postedDate {
            out.append(contentsOf: Key.postedDate); string(CalendarDay.text(posted), &out)
        }
        out.append(contentsOf: Key.status); string(t.status.name, &out)
        if let offset = t.timeZoneOffset {
            out.append(contentsOf: Key.timeZoneOffset); out.append(contentsOf: String(offset).utf8)
        }
        out.append(contentsOf: Key.transactionAmount); amount(t.transactionAmount, &out)
        out.append(contentsOf: Key.transactionDate)
        string(t.timeZoneOffset.map { CalendarDay.text(t.transactionDate, offset: $0) } ?? CalendarDay.text(t.transactionDate), &out)
        out.append(contentsOf: Key.transactionDescription); string(t.transactionDescription, &out)
        out.append(contentsOf: Key.transactionType); string(t.transactionType.name, &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A transaction with Coffer's `orderID` (the Wallet order it paid for) after FinanceKit's properties, as
    /// `coffer transactions --format ndjson` and `coffer serve` write a linked one; without an order, `append`.
    package static func append(_ t: Transaction, orderID: UUID?, to out: inout [UInt8]) {
        append(t, to: &out)
        guard let orderID, out.last == UInt8(ascii: "}") else { return }
        out.removeLast()
        out.append(contentsOf: #","orderID":"#.utf8)
        uuid(orderID, &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Transactions as a JSON array, byte for byte what `encoder(pretty: true)` writes for them (the CLI's
    /// `--format json`), each with `"orderID"` when `orderIDs` links it to an order. `JSONEncoder` took 15 ms for
    /// 1,000 transactions, more than the rest of a one-shot `coffer transactions`.
    package static func prettyArray(_ transactions: [Transaction], orderIDs: [UUID: UUID] = [:]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(transactions.count * 560 + 4)
        var object: [UInt8] = []
        for (i, t) in transactions.enumerated() {
            object.removeAll(keepingCapacity: true)
            append(t, orderIDInKeyOrder: orderIDs.isEmpty ? nil : orderIDs[t.id], to: &object)
            out.append(contentsOf: i == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
            indent(1, &out)
            appendPretty(object, depth: 1, to: &out)
        }
        // An empty array too, as `JSONEncoder` writes it: "[", a blank line, "]".
        out.append(contentsOf: transactions.isEmpty ? [0x0A, 0x0A] : [0x0A])
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// One compact JSON value (as `append` writes it: no blank outside strings) laid out as `JSONEncoder`'s
    /// `.prettyPrinted` lays it out `depth` levels deep: one member or element a line, two spaces a level,
    /// `" : "` between a key and its value, an empty object or array as its brackets around a blank line.
    package static func appendPretty(_ compact: [UInt8], depth: Int, to out: inout [UInt8]) {
        var level = depth
        var inString = false
        var escaped = false
        var i = 0
        while i < compact.count {
            let byte = compact[i]
            i += 1
            if inString {
                out.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                out.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                if i < compact.count, compact[i] == byte + 2 {  // "}" and "]" follow "{" and "[" by two
                    out.append(contentsOf: [0x0A, 0x0A])
                    indent(level, &out)
                    out.append(compact[i])
                    i += 1
                } else {
                    level += 1
                    out.append(0x0A)
                    indent(level, &out)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                level -= 1
                out.append(0x0A)
                indent(level, &out)
                out.append(byte)
            case UInt8(ascii: ":"):
                out.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
            case UInt8(ascii: ","):
                out.append(contentsOf: [UInt8(ascii: ","), 0x0A])
                indent(level, &out)
            default:
                out.append(byte)
            }
        }
    }

    private static func indent(_ level: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x20, count: 2 * max(0, level)))
    }

    /// Each key with what comes before and after it, in sorted order (the object's first key opens it).
    private enum Key {
        static let accountID = Array(#"{"accountID":"#.utf8)
        static let creditDebitIndicator = Array(#","creditDebitIndicator":"#.utf8)
        static let foreignCurrencyAmount = Array(#","foreignCurrencyAmount":"#.utf8)
        static let foreignCurrencyExchangeRate = Array(#","foreignCurrencyExchangeRate":"#.utf8)
        static let id = Array(#","id":"#.utf8)
        static let merchantCategoryCode = Array(#","merchantCategoryCode":"#.utf8)
        static let merchantName = Array(#","merchantName":"#.utf8)
        static let orderID = Array(#","orderID":"#.utf8)
        static let originalTransactionDescription = Array(#","originalTransactionDescription":"#.utf8)
        static let postedDate = Array(#","postedDate":"#.utf8)
        static let status = Array(#","status":"#.utf8)
        static let timeZoneOffset = Array(#","timeZoneOffset":"#.utf8)
        static let transactionAmount = Array(#","transactionAmount":"#.utf8)
        static let transactionDate = Array(#","transactionDate":"#.utf8)
        static let transactionDescription = Array(#","transactionDescription":"#.utf8)
        static let transactionType = Array(#","transactionType":"#.utf8)
        static let amount = Array(#"{"amount":"#.utf8)
        static let currencyCode = Array(#","currencyCode":"#.utf8)
    }

    private static func amount(_ value: CurrencyAmount, _ out: inout [UInt8]) {
        out.append(contentsOf: Key.amount)
        string(value.amountText, &out)
        out.append(contentsOf: Key.currencyCode)
        string(value.currencyCode, &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Uppercase, hyphenated, quoted: `UUID.uuidString`.
    private static func uuid(_ id: UUID, _ out: inout [UInt8]) {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 38 bytes used
        withUnsafeMutableBytes(of: &text) { buffer in
            withUnsafeBytes(of: id.uuid) { bytes in
                buffer[0] = UInt8(ascii: "\"")
                var at = 1
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 { buffer[at] = UInt8(ascii: "-"); at += 1 }
                    buffer[at] = UInt8.hexDigit(bytes[i] >> 4, upper: true)
                    buffer[at + 1] = UInt8.hexDigit(bytes[i] & 15, upper: true)
                    at += 2
                }
                buffer[at] = UInt8(ascii: "\"")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<38]))
        }
    }

    /// A JSON string as `JSONEncoder` writes it: `"` and `\` escaped, control characters as `\n`-style escapes or
    /// `\u00XX`, everything else (slashes and non-ASCII included) as is.
    package static func string(_ text: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for i in bytes.indices {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                start = i + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case 0x08: out.append(contentsOf: #"\b"#.utf8)
                case 0x0C: out.append(contentsOf: #"\f"#.utf8)
                case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                case 0x09: out.append(contentsOf: #"\t"#.utf8)
                default:
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(UInt8.hexDigit(byte >> 4, upper: false))
                    out.append(UInt8.hexDigit(byte & 15, upper: false))
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension CalendarDay {
    /// How Coffer writes a date: `2026-03-14` for a date-only value (midnight UTC), else an ISO 8601 instant in
    /// UTC, `2026-03-14T09:30:00Z`, with milliseconds (`.250`) when it has a fraction of a second.
    ///
    /// Written by hand between 1970 and 9999 (as Foundation's formatter writes it: the instant rounded to the
    /// nearest millisecond); other dates go through `ISO8601DateFormatter`.
    package static func text(_ date: Date) -> String {
        isMidnightUTC(date) ? string(date) : text(date, offset: 0)
    }

    /// An instant as text in its own offset: `2026-03-31T20:00:00-08:00` (offset -28,800), `…Z` for offset 0; never
    /// the date-only form, even at midnight UTC. A nil offset (a date-only value) is `text(_:)`.
    package static func text(_ date: Date, offset: Int?) -> String {
        guard let offset else { return text(date) }
        let local = offset == 0 ? date : date.addingTimeInterval(TimeInterval(offset))
        let since1970 = date.timeIntervalSince1970
        let whole = since1970 == since1970.rounded(.towardZero)  // not `truncatingRemainder`: a libm fmod call
        // The instant as ICU receives it from Foundation: milliseconds since 1970 as a Double, truncated.
        let udate = (local.timeIntervalSinceReferenceDate + 978_307_200) * 1_000
        guard udate >= 0, udate < 253_402_300_800_000 else { return (whole ? seconds : fractional).string(from: date) }
        let ms = Int64(udate.rounded())
        let days = Int(ms / 86_400_000)
        var inDay = Int(ms % 86_400_000)
        let c = civilFromDays(days)
        let zone = offset == 0 ? 1 : 6
        var bytes = [UInt8](repeating: UInt8(ascii: "0"), count: (whole ? 19 : 23) + zone)
        func put(_ value: Int, _ at: Int, _ width: Int) {
            var v = value
            for i in (at..<(at + width)).reversed() { bytes[i] = UInt8(ascii: "0") + UInt8(v % 10); v /= 10 }
        }
        put(c.year, 0, 4); bytes[4] = UInt8(ascii: "-"); put(c.month, 5, 2); bytes[7] = UInt8(ascii: "-"); put(c.day, 8, 2)
        bytes[10] = UInt8(ascii: "T")
        let millis = inDay % 1_000
        inDay /= 1_000
        put(inDay / 3_600, 11, 2); bytes[13] = UInt8(ascii: ":"); put(inDay / 60 % 60, 14, 2); bytes[16] = UInt8(ascii: ":")
        put(inDay % 60, 17, 2)
        var at = 19
        if !whole {
            bytes[19] = UInt8(ascii: ".")
            put(millis, 20, 3)
            at = 23
        }
        if offset == 0 {
            bytes[at] = UInt8(ascii: "Z")
        } else {
            let minutes = abs(offset) / 60
            bytes[at] = UInt8(ascii: offset < 0 ? "-" : "+")
            put(minutes / 60, at + 1, 2); bytes[at + 3] = UInt8(ascii: ":"); put(minutes % 60, at + 4, 2)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // Formatting is thread-safe; made once (one per date cost ~200 µs).
    nonisolated(unsafe) static let seconds: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()
    nonisolated(unsafe) static let fractional: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}

extension UInt8 {
    /// The ASCII hex digit of a nibble (0–15), computed rather than looked up: a static table is a lazy global, and
    /// each read of one went through `swift_once` (32 per UUID; about 5% of writing a page of NDJSON). Inlinable:
    /// fingerprint keys write 16 per transaction.
    @inlinable @inline(__always)
    package static func hexDigit(_ nibble: UInt8, upper: Bool) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : (upper ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hex, two digits each (a digest's usual spelling). `String(format: "%02x")` per byte
    /// went through Foundation's formatter, about 5,000 instructions a byte.
    package var lowercaseHex: String {
        var digits: [UInt8] = []
        digits.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            digits.append(.hexDigit(byte >> 4, upper: false))
            digits.append(.hexDigit(byte & 0x0F, upper: false))
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
