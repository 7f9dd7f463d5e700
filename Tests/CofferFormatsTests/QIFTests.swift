import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// The QIF reader's rules one at a time: dates in Quicken's shapes and the order of day and month, amounts,
/// splits, cleared marks, card signs, and the located errors.
@Suite struct QIFTests {
    func parse(_ text: String, order: QIFDateOrder? = nil) throws -> [StatementEvent] {
        try LineFormatTestSupport.events(QIFParser(dateOrder: order), .string(text, name: "t.qif"))
    }

    @Test(arguments: [
        ("1/ 2'26", QIFDateOrder.mdy, "2026-01-02"), ("01/02/2026", .mdy, "2026-01-02"), ("01/02/2026", .dmy, "2026-02-01"),
        ("2026-01-02", .dmy, "2026-01-02"), ("12/31/98", .mdy, "1998-12-31"), ("1/ 1'00", .mdy, "2000-01-01"),
        ("31.12.2025", .dmy, "2025-12-31"), ("10/13'2026", .mdy, "2026-10-13"), (" 3/ 5' 26", .mdy, "2026-03-05"),
    ])
    func datesInQuickensShapes(_ text: String, order: QIFDateOrder, expected: String) throws {
        let date = try #require(QIFDate.parse(text))
        #expect(date.day(order)?.description == expected)
    }

    @Test(arguments: ["", "1/2", "1/2/3/4", "Jan 2 2026", "2026-13-01", "1/2'", "12345/1/1"])
    func notDates(_ text: String) {
        #expect(QIFDate.parse(text)?.day(.mdy) == nil)
    }

    @Test func ambiguousDatesNeedTheOrderAndGetIt() throws {
        let text = "!Type:Bank\nD01/02/2026\nT-1.00\nPA\n^\nD03/04/2026\nT-2.00\nPB\n^\n"
        #expect(throws: CofferError.self) { try parse(text) }
        let error = LineFormatTestSupport.failure(QIFParser(), text, name: "t.qif")
        #expect(error?.message.contains("--date-order") == true)
        #expect(error?.location?.line == 2 && error?.location?.element == "D")
        let dmy = LineFormatTestSupport.transactions(try parse(text, order: .dmy))
        #expect(dmy.map { $0.transactionDate!.description } == ["2026-02-01", "2026-04-03"])
        let mdy = LineFormatTestSupport.transactions(try parse(text, order: .mdy))
        #expect(mdy.map { $0.transactionDate!.description } == ["2026-01-02", "2026-03-04"])
    }

    @Test func oneUnambiguousDateDecidesTheWholeFile() throws {
        let text = "!Type:Bank\nD01/02/2026\nT-1.00\n^\nD25/02/2026\nT-2.00\n^\n"
        let days = LineFormatTestSupport.transactions(try parse(text)).map { $0.transactionDate!.description }
        #expect(days == ["2026-02-01", "2026-02-25"])
        let wrong = LineFormatTestSupport.failure(QIFParser(dateOrder: .mdy), text, name: "t.qif")
        #expect(wrong?.message.contains("--date-order mdy") == true && wrong?.location?.line == 5)
    }

    @Test(arguments: [("-1,234.56", false, "-1234.56"), ("1,234,567.89", false, "1234567.89"), ("-1.234,56", true, "-1234.56"),
                      ("12,50", true, "12.5"), ("1,234", false, "1234"), ("1,234", true, "1.234"), ("-0.5", false, "-0.5")])
    func amountsWithThousandsAndEitherMark(_ text: String, comma: Bool, expected: String) throws {
        let value = try #require(QIFAmount.parse(text, decimalComma: comma))
        #expect(ExactDecimal.text(value) == expected)
    }

    @Test func aDecimalCommaInOneAmountMakesAmbiguousOnesReadTheSameWay() throws {
        let text = "!Type:Bank\nD2026-01-02\nT-1,234\n^\nD2026-01-03\nT12,50\n^\n"
        let amounts = LineFormatTestSupport.transactions(try parse(text)).map(\.amount)
        #expect(amounts == [Decimal(string: "-1.234")!, Decimal(string: "12.5")!])
    }

    @Test func splitsBecomeOneTransactionWithTheirCategoriesInTheMemo() throws {
        let text = "!Type:Bank\nD2026-02-14\nT-100.00\nPTarget\nL--Split--\nSFood:Groceries\n$-70.00\nEwine\nSGifts\n$-30.00\n^\n"
        let tx = try #require(LineFormatTestSupport.transactions(try parse(text)).first)
        #expect(LineFormatTestSupport.transactions(try parse(text)).count == 1)
        #expect(tx.amount == -100)
        #expect(tx.memo == "split: Food:Groceries -70.00 (wine); Gifts -30.00")
        #expect(tx.category == "Food:Groceries")
    }

    @Test func onACardANegativeAmountIsACharge() throws {
        let text = "!Account\nNVisa\nTCCard\n^\n!Type:CCard\nD2026-01-05\nT-45.67\nPShop\n^\nD2026-01-06\nT100.00\nPPayment\n^\n"
        let events = try parse(text)
        #expect(LineFormatTestSupport.headers(events).first?.account.kind == .liability)
        let tx = LineFormatTestSupport.transactions(events)
        #expect(tx.map(\.resolvedIndicator) == [.debit, .credit])
    }

    @Test func unclearedRecordsArePendingOnlyInAFileThatMarksCleared() throws {
        let marked = "!Type:Bank\nD2026-01-05\nT-1.00\nCX\n^\nD2026-01-06\nT-2.00\n^\nD2026-01-07\nT-3.00\nC*\n^\n"
        #expect(LineFormatTestSupport.transactions(try parse(marked)).map(\.status) == [.booked, .pending, .booked])
        #expect(LineFormatTestSupport.headers(try parse(marked)).first?.listsPending == true)
        let plain = "!Type:Bank\nD2026-01-05\nT-1.00\n^\n"
        #expect(LineFormatTestSupport.transactions(try parse(plain)).map(\.status) == [.booked])
    }

    @Test func theLastAccountBlockBeforeASectionNamesItsAccount() throws {
        let text = "!Option:AutoSwitch\n!Account\nNA\nTBank\n^\n!Account\nNB\nTCCard\n^\n!Clear:AutoSwitch\n!Account\nNA\nTBank\n^\n"
            + "!Type:Bank\nD2026-01-05\nT-1.00\n^\n!Account\nNB\nTCCard\n^\n!Type:CCard\nD2026-01-05\nT-1.00\n"
        let names = LineFormatTestSupport.headers(try parse(text)).map(\.account.displayName)
        #expect(names == ["A", "B"])
    }

    @Test func transfersNumbersAndClasses() throws {
        let text = "!Type:Bank\nD2026-01-05\nT-1.00\nL[Savings]\nN1042\n^\nD2026-01-06\nT-2.00\nLDining/Trip\nNATM\n^\n"
            + "D2026-01-01\nT100.00\nPOpening Balance\nL[Checking]\n^\n"
        let tx = LineFormatTestSupport.transactions(try parse(text))
        #expect(tx[0].transactionType == .transfer && tx[0].category == nil && tx[0].checkNumber == "1042")
        #expect(tx[1].category == "Dining" && tx[1].typeCode == "ATM")
        #expect(tx[2].transactionType == .adjustment)
    }

    @Test(arguments: [
        ("!Type:Bank\nT-1.00\n^\n", "expected a D (date) field", 2),
        ("!Type:Bank\nD2026-01-05\nPNo amount\n^\n", "expected a T (amount) field", 2),
        ("!Type:Bank\nD2026-01-05\nTabc\n^\n", "expected an amount", 3),
        ("!Type:Bank\nDsoon\nT1\n^\n", "expected a date", 2),
        ("!Type:Bank\nD31/31/2026\nT1\n^\n", "no day in either order", 2),
        ("!Type:Cat\nNFood\n^\n", "holds no bank or card transactions", 1),
    ])
    func badInputIsLocated(_ text: String, message: String, line: Int) {
        let error = LineFormatTestSupport.failure(QIFParser(), text, name: "t.qif")
        #expect(error?.code == .badInput)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.location?.file == "t.qif" && error?.location?.line == line)
    }

    @Test func sniff() {
        func s(_ text: String) -> Bool { QIFParser.sniff(Array(text.utf8)) }
        #expect(s("!Type:Bank\r\n") && s("\u{FEFF}!type:CCard\n") && s("\n\n!Account\nNA\n") && s("!Option:AutoSwitch\n"))
        #expect(!s("Date,Amount\n") && !s(":20:X\n:25:Y\n") && !s("!Something else\n"))
    }
}
