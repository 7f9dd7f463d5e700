import CofferModel
import Foundation

/// The values inside MT940/MT942 fields: dates, amounts with a decimal comma, balances, the `:13D:` time.
enum MT940Values {
    /// `YYMMDD` → a calendar day; SWIFT's years run 1980–2079.
    static func date(_ text: Substring) -> RawDate? {
        guard text.count == 6, let n = Int(text), text.allSatisfy(\.isASCII) else { return nil }
        let yy = n / 10_000
        return RawDate.day(year: yy < 80 ? 2000 + yy : 1900 + yy, month: n / 100 % 100, day: n % 100)
    }

    /// The entry date `MMDD` of a `:61:` line, in the year that puts it nearest its value date: a booking on
    /// 2 January of a payment valued 31 December is in the next year, one on 30 December valued 2 January in the
    /// year before.
    static func entryDate(_ text: Substring, near value: RawDate) -> RawDate? {
        guard text.count == 4, let n = Int(text), text.allSatisfy(\.isASCII) else { return nil }
        let year = CalendarDay.utc.component(.year, from: value.date)
        let candidates = [year - 1, year, year + 1].compactMap { RawDate.day(year: $0, month: n / 100, day: n % 100) }
        return candidates.min { abs($0.date.timeIntervalSince(value.date)) < abs($1.date.timeIntervalSince(value.date)) }
    }

    /// An amount as SWIFT writes it: digits with a decimal comma (`1520,30`, `100,`, `,50`). A decimal point is
    /// read as well when there is no comma; anything else (a sign, a thousands separator, letters) is nil.
    static func amount(_ text: Substring) -> Decimal? {
        guard !text.isEmpty, text.count <= 20 else { return nil }
        let marks = text.filter { $0 == "," || $0 == "." }
        guard marks.count <= 1, text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "," || $0 == "." }),
              text.contains(where: \.isNumber) else { return nil }
        var digits = text.replacingOccurrences(of: ",", with: ".")
        if digits.hasSuffix(".") { digits.removeLast() }
        if digits.hasPrefix(".") { digits = "0" + digits }
        return ExactDecimal.parse(digits)
    }

    /// `:13D:` `YYMMDDHHMM+hhmm`: the time an MT942 report was made, with its offset.
    static func dateTime(_ text: Substring) -> RawDate? {
        let chars = Array(text)
        guard chars.count >= 10, let day = date(text.prefix(6)), let hh = Int(String(chars[6..<8])),
              let mm = Int(String(chars[8..<10])), (0..<24).contains(hh), (0..<60).contains(mm) else { return nil }
        var offset = 0
        if chars.count >= 15, chars[10] == "+" || chars[10] == "-", let oh = Int(String(chars[11..<13])),
           let om = Int(String(chars[13..<15])) {
            offset = (oh * 3600 + om * 60) * (chars[10] == "-" ? -1 : 1)
        }
        let instant = day.date.addingTimeInterval(TimeInterval(hh * 3600 + mm * 60 - offset))
        return RawDate(date: instant, isDateOnly: false, utcOffset: offset)
    }
}

/// A balance field: `:60F:`, `:60M:`, `:62F:`, `:62M:`, `:64:`, `:65:` — `C260228EUR1520,30`.
struct MT940Balance: Sendable {
    var indicator: CreditDebitIndicator
    var date: RawDate
    var currency: String
    var amount: Decimal

    /// Signed from the holder's side.
    var signed: Decimal { indicator == .debit ? -amount : amount }

    /// The balance, or a sentence saying what was expected.
    static func parse(_ text: String) -> Result<MT940Balance, MT940ValueError> {
        let value = Substring(text.filter { !$0.isWhitespace })
        guard let mark = value.first, mark == "C" || mark == "D" else {
            return .failure(MT940ValueError("expected C or D (credit or debit) first, found '\(value.prefix(1))'"))
        }
        let rest = value.dropFirst()
        guard let date = MT940Values.date(rest.prefix(6)) else {
            return .failure(MT940ValueError("expected a date YYMMDD after \(mark), found '\(rest.prefix(6))'"))
        }
        let currency = rest.dropFirst(6).prefix(3)
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return .failure(MT940ValueError("expected a currency code after the date, found '\(currency)'"))
        }
        guard let amount = MT940Values.amount(rest.dropFirst(9)) else {
            return .failure(MT940ValueError("expected an amount with a decimal comma (1520,30), found '\(rest.dropFirst(9))'"))
        }
        return .success(MT940Balance(indicator: mark == "D" ? .debit : .credit, date: date,
                                     currency: currency.uppercased(), amount: amount))
    }
}

/// What a value was expected to be, for the located error or warning its field gives.
struct MT940ValueError: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
