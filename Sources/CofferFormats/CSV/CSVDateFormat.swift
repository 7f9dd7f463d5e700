import CofferModel
import Foundation

/// A date pattern such as `MM/dd/yyyy`, `dd.MM.yyyy`, `yyyy-MM-dd` or `d MMM yyyy`, parsed by hand on UTF-8 bytes.
///
/// For example:
/// ```swift
/// let format = try CSVDateFormat("dd.MM.yyyy")
/// format.parse("14.03.2026")   // RawDate for 2026-03-14
/// format.parse("31.02.2026")   // nil: the day does not exist
/// ```
/// Tokens: `yyyy` (four digits), `yy` (two digits, 2000–2099), `MM`/`dd` (two digits), `M`/`d` (one or two
/// digits), `MMM` (an English or German month abbreviation, any case, or the full month name), and `HH`, `H`,
/// `mm`, `ss` (a time of day, checked and then dropped: a CSV row's date is the calendar day the bank meant).
/// Any other character is a literal. `DateFormatter` is not used: it is slow per row and lenient.
package struct CSVDateFormat: Sendable, Hashable, CustomStringConvertible {
    enum Token: Hashable, Sendable {
        case year4, year2, month2, month1, monthName, day2, day1, hour, hour1, minute, second
        case literal(UInt8)
    }

    let tokens: [Token]
    package let pattern: String

    /// Reads a pattern; throws a message when it has an unknown letter, or lacks a year, month or day.
    package init(_ pattern: String) throws(FormatError) {
        var tokens: [Token] = []
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            var run = 1
            while i + run < chars.count, chars[i + run] == c { run += 1 }
            switch (c, run) {
            case ("y", 4): tokens.append(.year4)
            case ("y", 2): tokens.append(.year2)
            case ("M", 1): tokens.append(.month1)
            case ("M", 2): tokens.append(.month2)
            case ("M", 3), ("M", 4): tokens.append(.monthName)
            case ("d", 1): tokens.append(.day1)
            case ("d", 2): tokens.append(.day2)
            case ("H", 1): tokens.append(.hour1)
            case ("H", 2): tokens.append(.hour)
            case ("m", 2): tokens.append(.minute)
            case ("s", 2): tokens.append(.second)
            default:
                guard !c.isLetter else {
                    throw FormatError("'\(String(repeating: c, count: run))' is not a date pattern token "
                        + "(use yyyy, yy, MM, M, MMM, dd, d, HH, mm, ss)")
                }
                for byte in String(c).utf8 { tokens.append(.literal(byte)) }
                run = 1
            }
            i += run
        }
        let years = tokens.filter { $0 == .year4 || $0 == .year2 }.count
        let months = tokens.filter { $0 == .month1 || $0 == .month2 || $0 == .monthName }.count
        let days = tokens.filter { $0 == .day1 || $0 == .day2 }.count
        guard years == 1, months == 1, days == 1 else {
            throw FormatError("'\(pattern)' needs exactly one year (yyyy or yy), one month (MM, M or MMM) and one day (dd or d)")
        }
        self.tokens = tokens
        self.pattern = pattern
    }

    package var description: String { pattern }

    /// Whether the pattern spells months with letters (so letters in a date cell are expected).
    var usesMonthNames: Bool { tokens.contains(.monthName) }

    /// The day in `text`, or nil when the text does not follow the pattern or the day does not exist.
    package func parse(_ text: some StringProtocol) -> RawDate? {
        Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// The day in `bytes` (UTF-8, surrounding spaces ignored), or nil.
    func parse(bytes: UnsafeBufferPointer<UInt8>) -> RawDate? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        var i = start
        var year = 0, month = 0, day = 0
        func digits(min: Int, max: Int) -> Int? {
            var value = 0
            var count = 0
            while count < max, i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                value = value * 10 + Int(bytes[i] &- 0x30)
                count += 1
                i += 1
            }
            return count >= min ? value : nil
        }
        for token in tokens {
            switch token {
            case .year4: guard let v = digits(min: 4, max: 4) else { return nil }; year = v
            case .year2: guard let v = digits(min: 2, max: 2) else { return nil }; year = 2000 + v
            case .month2: guard let v = digits(min: 2, max: 2) else { return nil }; month = v
            case .month1: guard let v = digits(min: 1, max: 2) else { return nil }; month = v
            case .day2: guard let v = digits(min: 2, max: 2) else { return nil }; day = v
            case .day1: guard let v = digits(min: 1, max: 2) else { return nil }; day = v
            case .hour: guard let v = digits(min: 2, max: 2), v < 24 else { return nil }
            case .hour1: guard let v = digits(min: 1, max: 2), v < 24 else { return nil }
            case .minute, .second: guard let v = digits(min: 2, max: 2), v < 60 else { return nil }
            case .monthName:
                var wordEnd = i
                while wordEnd < end, Self.isLetterByte(bytes[wordEnd]) { wordEnd += 1 }
                guard let v = Self.monthNumber(UnsafeBufferPointer(rebasing: bytes[i..<wordEnd])) else { return nil }
                month = v
                i = wordEnd
            case .literal(let byte):
                guard i < end, bytes[i] == byte else { return nil }
                i += 1
            }
        }
        guard i == end else { return nil }
        return RawDate.day(year: year, month: month, day: day)
    }

    static func isLetterByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b >= 0x80 || b == 0x2E
    }

    /// Month names and abbreviations (English and German), lower-cased, to their number.
    static let monthNames: [String: Int] = {
        var table: [String: Int] = [:]
        let english = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                       "october", "november", "december"]
        let german = ["januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september",
                      "oktober", "november", "dezember"]
        for (index, names) in zip(english, german).enumerated() {
            for name in [names.0, names.1] {
                table[name] = index + 1
                table[String(name.prefix(3))] = index + 1
                table[String(name.prefix(3)) + "."] = index + 1
            }
        }
        table["sept"] = 9
        table["mrz"] = 3
        table["jän"] = 1
        return table
    }()

    static func monthNumber(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !word.isEmpty, word.count <= 12 else { return nil }
        return monthNames[String(decoding: word, as: UTF8.self).lowercased()]
    }

    /// Why a date pattern was refused.
    package struct FormatError: Error, Sendable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
