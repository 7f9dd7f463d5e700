import CofferModel
import Foundation

/// Reads camt leaf values (amounts, dates, codes, free text) strictly, without Foundation's lenient parsers.
///
/// For example:
/// ```swift
/// CamtValues.date("2026-03-14")                    // 2026-03-14, date-only
/// CamtValues.dateTime("2026-03-14T09:30:00+01:00") // 2026-03-14T08:30:00Z
/// ```
enum CamtValues {
    /// An amount: `[digits][.digits]`, exact; nil for anything else (empty, `12,50`, `1e3`).
    static func amount(_ text: String) -> Decimal? {
        guard !text.isEmpty else { return nil }
        return ExactDecimal.parse(text)
    }

    /// `amount(_:)` over UTF-8 bytes: the same grammar and the same value (mantissa and exponent).
    static func amount(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        guard !bytes.isEmpty else { return nil }
        return ExactDecimal.parse(utf8: bytes)
    }

    /// An ISO date `YYYY-MM-DD` as a calendar day. A zone suffix (`Z`, `+01:00`) or a time part some banks append
    /// is accepted and ignored: the day is what the bank wrote.
    static func date(_ text: String) -> RawDate? {
        var text = text
        return text.withUTF8(date(utf8:))
    }

    /// `date(_:)` over UTF-8 bytes.
    static func date(utf8 b: UnsafeBufferPointer<UInt8>) -> RawDate? {
        guard b.count >= 10, let (y, m, d) = ymd(b) else { return nil }
        if b.count > 10 {
            let rest = b[10...]
            guard rest.first == UInt8(ascii: "T") || rest.first == UInt8(ascii: "Z")
                || rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") else { return nil }
            if rest.first == UInt8(ascii: "T") { guard dateTime(utf8: b) != nil else { return nil } }
        }
        return RawDate.day(year: y, month: m, day: d)
    }

    /// An ISO date-time `YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]` as an instant, with its offset. Without a zone the
    /// time is read as UTC (the bank's own zone is not knowable from the file) and `utcOffset` is nil. A bare `YYYY-MM-DD` is accepted as a day.
    static func dateTime(_ text: String) -> RawDate? {
        var text = text
        return text.withUTF8(dateTime(utf8:))
    }

    /// `dateTime(_:)` over UTF-8 bytes.
    static func dateTime(utf8 b: UnsafeBufferPointer<UInt8>) -> RawDate? {
        guard let (y, m, d) = ymd(b) else { return nil }
        if b.count == 10 { return RawDate.day(year: y, month: m, day: d) }
        guard b.count >= 16, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
              let hh = number(b, 11, 2), b[13] == UInt8(ascii: ":"), let mi = number(b, 14, 2),
              hh <= 24, mi <= 59, let day = CalendarDay.date(year: y, month: m, day: d) else { return nil }
        var i = 16
        var seconds = 0.0
        if i < b.count, b[i] == UInt8(ascii: ":") {
            guard let ss = number(b, i + 1, 2), ss <= 60 else { return nil }
            seconds = Double(ss)
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                var scale = 0.1
                let start = i
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                    if i - start < 9 { seconds += Double(b[i] - 0x30) * scale; scale /= 10 }
                    i += 1
                }
                guard i > start else { return nil }
            }
        }
        var offset = 0
        var zoned = false
        if i < b.count {
            zoned = true
            if b[i] == UInt8(ascii: "Z"), i + 1 == b.count {
                offset = 0
            } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b.count == i + 6,
                      let oh = number(b, i + 1, 2), b[i + 3] == UInt8(ascii: ":"), let om = number(b, i + 4, 2),
                      oh <= 18, om <= 59 {
                offset = (oh * 60 + om) * 60 * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        let interval = day.timeIntervalSince1970 + Double(hh * 3600 + mi * 60 - offset) + seconds
        return RawDate(date: Date(timeIntervalSince1970: interval), isDateOnly: false, utcOffset: zoned ? offset : nil)
    }

    /// `CRDT` or `DBIT`; nil for anything else.
    static func indicator(_ text: String) -> CreditDebitIndicator? {
        switch text {
        case "CRDT": .credit
        case "DBIT": .debit
        default: nil
        }
    }

    /// `indicator(_:)` over UTF-8 bytes.
    static func indicator(utf8 b: UnsafeBufferPointer<UInt8>) -> CreditDebitIndicator? {
        guard b.count == 4 else { return nil }
        let word = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        switch word {
        case 0x4352_4454: return .credit  // CRDT
        case 0x4442_4954: return .debit  // DBIT
        default: return nil
        }
    }

    /// An ISO 20022 boolean (`true`, `false`, `1`, `0`).
    static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }

    /// Trims the text and folds runs of whitespace (line breaks inside a tag) into single spaces; nil when empty.
    static func text(_ raw: String) -> String? {
        // Fast path: single inner spaces and no other whitespace is already clean. Every non-ASCII whitespace
        // character (U+0085, U+00A0, U+1680, U+2000–U+205F, U+3000) starts with byte C2, E1, E2 or E3: text with
        // one of those goes the slow way; other non-ASCII letters (ä, é) stay on the fast one.
        var clean = true
        var previousSpace = true
        for b in raw.utf8 {
            if b >= 0x80 {
                if b == 0xC2 || (b >= 0xE1 && b <= 0xE3) { clean = false; break }
                previousSpace = false
                continue
            }
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                if previousSpace || b != 0x20 { clean = false; break }
                previousSpace = true
            } else {
                previousSpace = false
            }
        }
        if raw.isEmpty { return nil }
        // `previousSpace` still set at the end means a trailing space (or nothing but one).
        return clean && !previousSpace ? raw : normalized(raw)
    }

    /// `text(_:)` over UTF-8 bytes (as libxml2 delivers them): a `String` is made only of the clean part.
    static func text(utf8 raw: UnsafeBufferPointer<UInt8>) -> String? {
        guard let clean = cleanRange(raw) else { return text(String(decoding: raw, as: UTF8.self)) }
        return clean.isEmpty ? nil : String(decoding: UnsafeBufferPointer(rebasing: raw[clean]), as: UTF8.self)
    }

    /// The bytes `text(_:)` keeps when it only trims: `raw` without its leading and trailing ASCII whitespace,
    /// when what is left has single inner spaces, no other whitespace and none of the bytes that start a
    /// non-ASCII whitespace character (`text(_:)`'s fast-path test); nil when `text(_:)` has more to do.
    static func cleanRange(_ raw: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = 0
        var end = raw.count
        while start < end, isASCIISpace(raw[start]) { start &+= 1 }
        while end > start, isASCIISpace(raw[end &- 1]) { end &-= 1 }
        var previousSpace = false
        var i = start
        while i < end {
            let b = raw[i]
            if b >= 0x80 {
                if b == 0xC2 || (b >= 0xE1 && b <= 0xE3) { return nil }
                previousSpace = false
            } else if b == 0x20 {
                if previousSpace { return nil }
                previousSpace = true
            } else if b >= 0x09 && b <= 0x0D {
                return nil
            } else {
                previousSpace = false
            }
            i &+= 1
        }
        return start..<end
    }

    private static func isASCIISpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    private static func normalized(_ raw: String) -> String? {
        var out = ""
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            let isSpace = scalar.isASCII
                ? (scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D))
                : scalar.properties.isWhitespace
            if isSpace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.unicodeScalars.append(" "); pendingSpace = false }
                out.unicodeScalars.append(scalar)
            }
        }
        return out.isEmpty ? nil : out
    }

    private static func ymd(_ b: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard b.count >= 10, let y = number(b, 0, 4), b[4] == UInt8(ascii: "-"), let m = number(b, 5, 2),
              b[7] == UInt8(ascii: "-"), let d = number(b, 8, 2) else { return nil }
        return (y, m, d)
    }

    private static func number(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= b.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            let c = b[i]
            guard c >= 0x30, c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }
}
