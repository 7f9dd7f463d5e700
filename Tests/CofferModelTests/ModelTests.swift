import CofferModel
import Foundation
import Testing

private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(T.self, from: encoder.encode(value))
}

private func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

let day = CalendarDay.date(year: 2026, month: 3, day: 14)!

@Test func everyModelTypeRoundTripsThroughJSON() throws {
    let usd = CurrencyAmount(amount: ExactDecimal.parse("12.30")!, currencyCode: "USD")
    let t = Transaction(id: UUID(), accountID: UUID(), transactionAmount: usd,
                        foreignCurrencyAmount: CurrencyAmount(amount: ExactDecimal.parse("11.05")!, currencyCode: "EUR"),
                        foreignCurrencyExchangeRate: ExactDecimal.parse("1.113122"), creditDebitIndicator: .debit,
                        transactionDescription: "Blue Bottle Coffee", originalTransactionDescription: "SQ *BLUE BOTTLE #12",
                        merchantCategoryCode: MerchantCategoryCode(rawValue: 5814), merchantName: "Blue Bottle Coffee",
                        transactionType: .pointOfSale, status: .pending, transactionDate: day, postedDate: nil)
    #expect(try roundTrip(t) == t)
    let asset = Account.asset(AssetAccount(id: UUID(), displayName: "Checking", institutionName: "Bank", currencyCode: "USD"))
    let liability = Account.liability(LiabilityAccount(
        id: UUID(), displayName: "Card", accountDescription: "Visa", institutionName: "Bank", currencyCode: "USD",
        openingDate: day, creditInformation: AccountCreditInformation(creditLimit: usd, nextPaymentDueDate: day)))
    #expect(try roundTrip(asset) == asset)
    #expect(try roundTrip(liability) == liability)
    let balance = Balance(amount: usd, asOfDate: day, creditDebitIndicator: .credit)
    for current in [CurrentBalance.available(balance), .booked(balance), .availableAndBooked(available: balance, booked: balance)] {
        let b = AccountBalance(id: UUID(), accountID: UUID(), currentBalance: current)
        #expect(try roundTrip(b) == b)
    }
    #expect(try roundTrip(usd) == usd)
    #expect(try roundTrip(MerchantCategoryCode(rawValue: 5411)) == MerchantCategoryCode(rawValue: 5411))
    for type in TransactionType.allCases { #expect(try roundTrip([type]) == [type]) }
    for status in TransactionStatus.allCases { #expect(try roundTrip([status]) == [status]) }
    let token = HistoryToken(stringValue: "abc")
    #expect(try JSONDecoder().decode(HistoryToken.self, from: JSONEncoder().encode(token)).stringValue == "abc")
}

@Test func jsonUsesFinanceKitNamesAndExactDecimalStrings() throws {
    let t = Transaction(id: UUID(), accountID: UUID(), transactionAmount: CurrencyAmount(amount: ExactDecimal.parse("0.10")!, currencyCode: "USD"),
                        creditDebitIndicator: .debit, transactionDescription: "x", originalTransactionDescription: "x",
                        transactionType: .pointOfSale, transactionDate: day)
    let text = try json(t)
    #expect(text.contains(#""creditDebitIndicator":"debit""#))
    #expect(text.contains(#""transactionType":"pointOfSale""#))
    #expect(text.contains(#""amount":"0.10""#))
    #expect(try json(Account.asset(AssetAccount(id: UUID(), displayName: "A", institutionName: "B", currencyCode: "JPY"))).contains(#""kind":"asset""#))
}

@Test func allSeventeenTransactionTypesAndFiveStatuses() {
    #expect(TransactionType.allCases.count == 17)
    #expect(TransactionStatus.allCases.count == 5)
    #expect(Set(TransactionType.allCases.map(\.name)).count == 17)
}

@Test func zeroBalanceIsCreditAndSidesFollowTheAccountKind() {
    func indicator(_ amount: String, _ kind: AccountKind) -> CreditDebitIndicator {
        Balance(signedAmount: ExactDecimal.parse(amount)!, currencyCode: "USD", asOfDate: day, accountKind: kind).creditDebitIndicator
    }
    #expect(indicator("0", .asset) == .credit)
    #expect(indicator("0", .liability) == .credit)
    #expect(indicator("100", .asset) == .credit)
    #expect(indicator("-100", .asset) == .debit)
    #expect(indicator("250", .liability) == .debit)   // money owed on a card
    #expect(indicator("-20", .liability) == .credit)  // card in credit
    let b = Balance(signedAmount: ExactDecimal.parse("-100.50")!, currencyCode: "USD", asOfDate: day, accountKind: .asset)
    #expect(b.amount.amount == ExactDecimal.parse("100.5")!)
    #expect(b.signedAmount == ExactDecimal.parse("-100.5")!)
}

@Test func merchantCategoryCodesDescribeTheStandardListAndRoundTripTheirDescription() {
    #expect(MerchantCategoryCode(rawValue: 5411).description == "Grocery Stores, Supermarkets")
    #expect(MerchantCategoryCode("5812")?.rawValue == 5812)
    #expect(MerchantCategoryCode("MCC 0742")?.rawValue == 742)
    #expect(MerchantCategoryCode("grocery stores, supermarkets")?.rawValue == 5411)
    #expect(MerchantCategoryCode("no such category") == nil)
    #expect(MerchantCategoryCode.allKnown.count == 981)
    for code in MerchantCategoryCode.allKnown { #expect(MerchantCategoryCode(code.description) == code) }
    #expect(MerchantCategoryCode(rawValue: 1).description == "MCC 0001")
    #expect(MerchantCategoryCode(MerchantCategoryCode(rawValue: 1).description)?.rawValue == 1)
}

@Test func exactDecimalIsStrict() {
    #expect(ExactDecimal.parse("12abc") == nil)
    #expect(ExactDecimal.parse("12,5") == nil)
    #expect(ExactDecimal.parse("") == nil)
    #expect(ExactDecimal.parse("-") == nil)
    #expect(ExactDecimal.parse("1e3") == nil)
    #expect(ExactDecimal.parse("+0000000100.00000") == Decimal(100))
    #expect(ExactDecimal.parse("-.5") == Decimal(string: "-0.5"))
    #expect(ExactDecimal.scaled(ExactDecimal.parse("1.5")!) == 1_500_000)
    #expect(ExactDecimal.scaled(ExactDecimal.parse("0.0000001")!) == nil)
    #expect(ExactDecimal.text(ExactDecimal.parse("12.3")!, minimumFractionDigits: 2) == "12.30")
    #expect(CurrencyAmount(amount: 5, currencyCode: "JPY").amountText == "5")
}

@Test func calendarDaysNeverShift() {
    #expect(CalendarDay.string(day) == "2026-03-14")
    #expect(CalendarDay.isMidnightUTC(day))
    #expect(CalendarDay.date(year: 2026, month: 2, day: 30) == nil)
    #expect(CalendarDay.date(year: 2024, month: 2, day: 29) != nil)
    #expect(CalendarDay.parse("2026-03-14") == day)
}

@Test func timeOrderedUUIDsSortByCreation() {
    let a = UUID.timeOrdered(at: Date(timeIntervalSince1970: 1000))
    let b = UUID.timeOrdered(at: Date(timeIntervalSince1970: 2000))
    #expect(a.uuidString < b.uuidString)
    #expect(a.uuidString.dropFirst(14).first == "7")
    // The first 48 bits are the milliseconds, big-endian; then version 7 and the RFC 4122 variant.
    var random = FastRandom()
    let ms: UInt64 = 0x0123_4567_89AB
    let id = UUID.timeOrdered(at: Date(timeIntervalSince1970: Double(ms) / 1000), using: &random)
    let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
    #expect(bytes[0..<6].reduce(0) { $0 << 8 | UInt64($1) } == ms)
    #expect(bytes[6] >> 4 == 7)
    #expect(bytes[8] >> 6 == 0b10)
    let many = (0..<1_000).map { _ in UUID.timeOrdered(at: Date(), using: &random) }
    #expect(Set(many).count == 1_000)
}

/// An import's ids only grow: within one millisecond, across milliseconds, and when the clock steps back; each
/// is a valid version 7 UUID whose first 48 bits are the (possibly carried) milliseconds.
@Test func monotonicUUIDsOnlyGrow() {
    func bytes(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }
    var ids = MonotonicUUIDs()
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    var last: [UInt8]? = nil
    // 200,000 ids at one clock reading (as the preparer makes them), then later, then a clock stepped back.
    let clock = Array(repeating: start, count: 200_000) + Array(repeating: start.addingTimeInterval(0.002), count: 1_000)
        + Array(repeating: start.addingTimeInterval(-5), count: 1_000)
    for at in clock {
        let b = bytes(ids.next(at: at))
        #expect(b[6] >> 4 == 7 && b[8] >> 6 == 0b10)
        if let last, !(last.lexicographicallyPrecedes(b)) {
            Issue.record("not increasing: \(last) then \(b)")
            return
        }
        last = b
    }
    let ms = bytes(ids.next(at: start.addingTimeInterval(60)))[0..<6].reduce(0) { $0 << 8 | UInt64($1) }
    #expect(ms == 1_800_000_060_000)
    // The carries: the 62 low bits into the 12 high ones, and those into the next millisecond.
    for (high, low) in [(UInt64(5), UInt64(0x3FFF_FFFF_FFFF_FFF0)), (0xFFF, 0x3FFF_FFFF_FFFF_FFF0)] {
        let at = UInt64(1_800_000_000_000)
        var carrying = MonotonicUUIDs(after: at, high: high, low: low)
        var previous = bytes(carrying.next(at: start))
        for _ in 0..<64 {
            let b = bytes(carrying.next(at: start))
            #expect(previous.lexicographicallyPrecedes(b) && b[6] >> 4 == 7 && b[8] >> 6 == 0b10, "\(previous) then \(b)")
            previous = b
        }
        let milliseconds = previous[0..<6].reduce(0) { $0 << 8 | UInt64($1) }
        let highBits = UInt64(previous[6] & 0x0F) << 8 | UInt64(previous[7])
        if high == 0xFFF {
            #expect(milliseconds == at + 1 && highBits == 0)
        } else {
            #expect(milliseconds == at && highBits == high + 1)
        }
    }
    // Two generators (two imports) at the same instant make different ids.
    var other = MonotonicUUIDs()
    var first = MonotonicUUIDs()
    #expect(Set((0..<1_000).flatMap { _ in [first.next(at: start), other.next(at: start)] }).count == 2_000)
}

@Test func fastDecimalConversionsAgreeWithFoundation() {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
        let whole = UInt64.random(in: 0...999_999_999_999, using: &rng)
        let places = Int.random(in: 0...9, using: &rng)
        var text = String(whole)
        if places > 0 {
            if text.count <= places { text = String(repeating: "0", count: places - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -places))
        }
        if Bool.random(using: &rng) { text = "-" + text }
        let value = ExactDecimal.parse(text)!
        #expect(value == Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!, "\(text)")
        #expect(ExactDecimal.text(value) == value.description, "\(text)")
        let slow: Int64? = {
            var shifted = value * 1_000_000
            var rounded = Decimal()
            NSDecimalRound(&rounded, &shifted, 0, .plain)
            return rounded == shifted ? Int64(rounded.description) : nil
        }()
        #expect(ExactDecimal.scaled(value) == slow, "\(text)")
    }
}

@Suite struct ExactDecimalUTF8Tests {
    /// `parse(utf8:)` (the read path's) gives what `parse(_:)` gives, value and representation, or nil alike.
    @Test func bytesParseLikeStrings() {
        var samples = ["0", "1", "-1", "+1", "12.30", "0.001", ".5", "5.", "-.5", "+.5", "-0", "-0.00", "007.50", "", "+", "-",
                       ".", "1.2.3", "1e3", "12abc", " 1", "1 ", "١٢", "1,5", "--1", "+-1", "99999999999999999999",
                       "1234567890123456789", "12345678901234567890", "0.000000000000000000001",
                       "123456789012345678901234567890123456789", "12345678901234567890123456789012345678",
                       "0000000000000000000000000001.5", "1\u{301}"]
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789.-+")
        for _ in 0..<3_000 {
            let length = Int.random(in: 1...24, using: &rng)
            samples.append(String((0..<length).map { _ in
                Bool.random(using: &rng) ? alphabet[Int.random(in: 0..<10, using: &rng)] : alphabet.randomElement(using: &rng)!
            }))
        }
        for text in samples {
            let expected = ExactDecimal.parse(text)
            let got = Array(text.utf8).withUnsafeBufferPointer { ExactDecimal.parse(utf8: $0) }
            #expect(got == expected, "\(text)")
            #expect(got.map { ExactDecimal.text($0) } == expected.map { ExactDecimal.text($0) }, "\(text)")
        }
    }
}

@Suite struct ModelJSONTests {
    @Test func minorUnitsFollowISO4217InAnyLetterCase() {
        for (code, units) in [("USD", 2), ("usd", 2), ("JPY", 0), ("jpy", 0), ("Kwd", 3), ("KWD", 3), ("CLF", 4), ("clf", 4),
                              ("", 2), ("XYZ", 2), ("JP", 2), ("JPY ", 2), ("ÄÖÜ", 2)] {
            #expect(CurrencyAmount.minorUnits(for: code) == units, "\(code)")
        }
        #expect(CurrencyAmount(amount: 5, currencyCode: "jpy").amountText == "5")
        #expect(CurrencyAmount(amount: 5, currencyCode: "eur").amountText == "5.00")
    }

    /// What the CLI wrote before `CalendarDay.text`: Foundation's ISO 8601 formatters.
    static func referenceDate(_ date: Date) -> String {
        if CalendarDay.isMidnightUTC(date) { return CalendarDay.string(date) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0
            ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(referenceDate(date))
        }
        return encoder
    }()

    @Test func datesAreWrittenAsFoundationsFormatterWritesThem() {
        var rng = SystemRandomNumberGenerator()
        var dates: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 0.001), Date(timeIntervalSince1970: 86_399.999),
                             Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: -86_400 * 800),
                             Date(timeIntervalSince1970: 253_402_300_799.999), Date(timeIntervalSince1970: 253_402_300_800.5)]
        for _ in 0..<4_000 {
            // As the store makes them (integer milliseconds), and arbitrary instants.
            let ms = Int64.random(in: 0...4_102_444_800_000, using: &rng)
            dates.append(Date(timeIntervalSince1970: Double(ms) / 1_000))
            dates.append(Date(timeIntervalSince1970: Double(ms / 1_000)))
            dates.append(Date(timeIntervalSince1970: Double.random(in: 0...4_102_444_800, using: &rng)))
        }
        for date in dates {
            #expect(CalendarDay.text(date) == Self.referenceDate(date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func transactionLinesAreWhatJSONEncoderWrites() throws {
        let texts = ["Coffee", "", "a \"quoted\" \\ back/slash", "tab\tnew\nline\rcr\u{8}\u{c}", "ctl \u{0}\u{1}\u{1f}\u{7f}",
                     "café ☕️ 東京 \u{2028}\u{2029} 🇩🇪", "</script>", String(repeating: "long ", count: 40)]
        var rng = SystemRandomNumberGenerator()
        for (i, text) in texts.enumerated() {
            for variant in 0..<4 {
                let amount = ["12.30", "0", "1234567.891234567", "5"][variant]
                var t = Transaction(id: UUID(), accountID: UUID(),
                                    transactionAmount: CurrencyAmount(amount: ExactDecimal.parse(amount)!, currencyCode: ["USD", "JPY", "KWD", "EUR"][variant]),
                                    creditDebitIndicator: variant % 2 == 0 ? .credit : .debit, transactionDescription: text,
                                    originalTransactionDescription: texts[(i + variant) % texts.count],
                                    transactionType: TransactionType.allCases.randomElement(using: &rng)!,
                                    status: TransactionStatus.allCases.randomElement(using: &rng)!,
                                    transactionDate: Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &rng))))
                if variant >= 1 {
                    t.merchantName = texts[(i + 1) % texts.count]
                    t.merchantCategoryCode = MerchantCategoryCode(rawValue: Int16(variant * 1_000 + i))
                    t.postedDate = Date(timeIntervalSince1970: Double(Int64.random(in: 0...2_000_000_000_000, using: &rng)) / 1_000)
                }
                if variant >= 2 {
                    t.foreignCurrencyAmount = CurrencyAmount(amount: ExactDecimal.parse("98.7654321")!, currencyCode: "CHF")
                    t.foreignCurrencyExchangeRate = ExactDecimal.parse("1.000000001")
                }
                var line: [UInt8] = []
                ModelJSON.append(t, to: &line)
                #expect(String(decoding: line, as: UTF8.self) == String(decoding: try Self.encoder.encode(t), as: UTF8.self))
            }
        }
    }
}
