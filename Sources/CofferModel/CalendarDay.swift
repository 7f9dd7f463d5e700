import Foundation

/// Calendar days as Coffer stores them: a day without a time is midnight UTC of that day.
public enum CalendarDay {
    /// The UTC Gregorian calendar all day arithmetic uses.
    public static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Midnight UTC of a day, or nil when the day does not exist (February 30th).
    public static func date(year: Int, month: Int, day: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (1...9999).contains(year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let date = Date(timeIntervalSince1970: TimeInterval(days) * 86_400)
        // Reject days that roll over (2026-02-30 would become 2026-03-02).
        let back = civilFromDays(days)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return date
    }

    /// The UTC day a date falls on, as days since 1970-01-01.
    public static func dayNumber(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The calendar day of an instant in its own offset (seconds east of UTC; nil for a date-only value, whose day
    /// is its UTC day), as days since 1970-01-01: `2026-04-01T04:00:00Z` at -8 h is March 31.
    @inline(__always)
    public static func localDay(_ date: Date, offset: Int?) -> Int {
        dayNumber(offset.map { date.addingTimeInterval(TimeInterval($0)) } ?? date)
    }

    /// Midnight UTC of a day number (days since 1970-01-01): how Coffer writes that calendar day as a `Date`.
    public static func date(day: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(day) * 86_400) }

    /// `2026-03-14` for a day number.
    public static func string(day: Int) -> String { string(date(day: day)) }

    /// Midnight UTC of the day a date falls on.
    public static func startOfDay(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(dayNumber(date)) * 86_400)
    }

    /// `2026-03-14` for any date, in UTC.
    public static func string(_ date: Date) -> String {
        let days = dayNumber(date)
        let c = civilFromDays(days)
        // By hand: String(format:) costs more than the rest of a fingerprint. Ten bytes make a small string, written
        // in place (no array to allocate).
        return String(unsafeUninitializedCapacity: 10) { bytes in
            write(year: c.year, month: c.month, day: c.day, into: bytes)
            return 10
        }
    }

    /// Writes the day number's `2026-03-14` (ten bytes, as `string(day:)`) at the start of `bytes`.
    package static func write(day: Int, into bytes: UnsafeMutableBufferPointer<UInt8>) {
        let c = civilFromDays(day)
        write(year: c.year, month: c.month, day: c.day, into: bytes)
    }

    @inline(__always)
    static func write(year: Int, month: Int, day: Int, into bytes: UnsafeMutableBufferPointer<UInt8>) {
        var y = max(0, min(9999, year))
        for i in (0..<4).reversed() { bytes[i] = UInt8(ascii: "0") + UInt8(y % 10); y /= 10 }
        bytes[4] = UInt8(ascii: "-")
        bytes[5] = UInt8(ascii: "0") + UInt8(month / 10)
        bytes[6] = UInt8(ascii: "0") + UInt8(month % 10)
        bytes[7] = UInt8(ascii: "-")
        bytes[8] = UInt8(ascii: "0") + UInt8(day / 10)
        bytes[9] = UInt8(ascii: "0") + UInt8(day % 10)
    }

    /// Whether the date is exactly midnight UTC (a date-only value).
    public static func isMidnightUTC(_ date: Date) -> Bool {
        date.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) == 0
    }

    /// Parses `YYYY-MM-DD`.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        return date(year: y, month: m, day: d)
    }

    // Howard Hinnant's days-from-civil algorithm: exact and independent of any time zone database.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
