import CofferModel
import Foundation

/// Reads OFX date-times from value bytes: `YYYYMMDD[HHMM[SS[.XXX]]][[±H[.MM][:NAME]]]`.
///
/// For example:
/// ```swift
/// OFXDate.parse(Array("20260314".utf8)[...])                    // 2026-03-14, date only
/// OFXDate.parse(Array("20260314120000.000[-5:EST]".utf8)[...])  // 2026-03-14T17:00:00Z
/// OFXDate.parse(Array("20260314000000[+5.30:IST]".utf8)[...])   // 2026-03-13T18:30:00Z
/// ```
/// Rules, decided here:
/// - Only an 8-digit value is date-only (`RawDate.isDateOnly`), and it keeps its calendar day whatever zone
///   follows it. Any value with a time, even `000000` or `120000`, is an instant.
/// - No zone means GMT, as the OFX specification says (`utcOffset` nil: the file said none).
/// - The offset is kept (`RawDate.utcOffset`): the transaction belongs to the calendar day of its own offset
///   (`20260331200000[-8:PST]` is March 31, though in UTC it is April 1).
/// - A fractional offset `H.MM` means hours and minutes when the part after the dot is two digits below 60, so
///   `+5.30` (IST) is 5 h 30 min; a single digit or a two-digit part of 60 or more is a decimal fraction of an
///   hour (`+5.5` is 5 h 30 min, `+5.75` is 5 h 45 min).
/// - A zone given by name only (`[EST]`) is read for GMT/UTC/Z and the US zone names; other names fail.
/// - Fractions of a second are kept to the millisecond and beyond; a leap second `60` is accepted.
enum OFXDate {
    static func parse<Bytes: RandomAccessCollection<UInt8>>(_ value: Bytes) -> RawDate? where Bytes.Index == Int {
        var start = value.startIndex
        var end = value.endIndex
        while start < end, OFXText.isSpace(value[start]) { start &+= 1 }
        while end > start, OFXText.isSpace(value[end &- 1]) { end &-= 1 }
        var digitsEnd = start
        while digitsEnd < end, isDigit(value[digitsEnd]) { digitsEnd &+= 1 }
        let digitCount = digitsEnd &- start
        guard digitCount == 8 || digitCount == 12 || digitCount == 14 else { return nil }
        let year = number(value, start, 4), month = number(value, start &+ 4, 2), day = number(value, start &+ 6, 2)
        guard let midnight = CalendarDay.date(year: year, month: month, day: day) else { return nil }
        var i = digitsEnd
        var fraction = 0.0
        if i < end, value[i] == 0x2E {  // .XXX
            i &+= 1
            var scale = 0.1
            let fractionStart = i
            while i < end, isDigit(value[i]) {
                fraction += Double(value[i] &- 0x30) * scale
                scale /= 10
                i &+= 1
            }
            guard i > fractionStart, digitCount == 14 else { return nil }
        }
        while i < end, OFXText.isSpace(value[i]) { i &+= 1 }
        var offsetSeconds = 0
        var zoned = false
        if i < end {
            guard value[i] == 0x5B, value[end &- 1] == 0x5D,
                  let offset = zoneOffset(value[(i &+ 1)..<(end &- 1)]) else { return nil }
            offsetSeconds = offset
            zoned = true
        }
        if digitCount == 8 { return RawDate(date: midnight, isDateOnly: true) }
        let hour = number(value, start &+ 8, 2), minute = number(value, start &+ 10, 2)
        let second = digitCount == 14 ? number(value, start &+ 12, 2) : 0
        guard hour <= 23, minute <= 59, second <= 60 else { return nil }
        let seconds = hour * 3600 + minute * 60 + second - offsetSeconds
        return RawDate(date: midnight.addingTimeInterval(TimeInterval(seconds) + fraction), isDateOnly: false,
                       utcOffset: zoned ? offsetSeconds : nil)
    }

    /// Seconds east of GMT for the inside of `[...]`.
    private static func zoneOffset<Bytes: RandomAccessCollection<UInt8>>(_ zone: Bytes) -> Int? where Bytes.Index == Int {
        var i = zone.startIndex
        let end = zone.endIndex
        while i < end, OFXText.isSpace(zone[i]) { i &+= 1 }
        var sign = 1
        if i < end, zone[i] == 0x2D || zone[i] == 0x2B {
            sign = zone[i] == 0x2D ? -1 : 1
            i &+= 1
        }
        let hoursStart = i
        var hours = 0
        while i < end, isDigit(zone[i]), i &- hoursStart < 2 { hours = hours * 10 + Int(zone[i] &- 0x30); i &+= 1 }
        guard i > hoursStart else { return namedZone(zone[hoursStart..<end]) }
        var minutes = 0
        if i < end, zone[i] == 0x2E {
            i &+= 1
            let fractionStart = i
            while i < end, isDigit(zone[i]), i &- fractionStart < 2 { i &+= 1 }
            let digits = i &- fractionStart
            let part = digits == 0 ? 0 : number(zone, fractionStart, digits)
            if digits == 2, part < 60 { minutes = part } else if digits == 2 { minutes = part * 60 / 100 }
            else if digits == 1 { minutes = part * 6 }
        }
        guard hours <= 14, i == end || zone[i] == 0x3A else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func namedZone<Bytes: RandomAccessCollection<UInt8>>(_ name: Bytes) -> Int? {
        let text = String(decoding: name, as: UTF8.self).trimmingCharacters(in: .whitespaces).uppercased()
        let hours: [String: Int] = ["GMT": 0, "UTC": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
                                    "MST": -7, "MDT": -6, "PST": -8, "PDT": -7]
        return hours[text].map { $0 * 3600 }
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private static func number<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ at: Int, _ count: Int) -> Int where Bytes.Index == Int {
        var n = 0
        for k in 0..<count { n = n * 10 + Int(bytes[at &+ k] &- 0x30) }
        return n
    }
}
