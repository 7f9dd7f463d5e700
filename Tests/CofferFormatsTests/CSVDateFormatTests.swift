import CofferModel
import Foundation
import Testing
@testable import CofferFormats

@Suite struct CSVDateFormatTests {
    func day(_ pattern: String, _ text: String) throws -> String? {
        try CSVDateFormat(pattern).parse(text).map { CalendarDay.string($0.date) }
    }

    @Test func monthFirstAndDayFirstReadTheSameTextDifferently() throws {
        #expect(try day("MM/dd/yyyy", "03/04/2026") == "2026-03-04")
        #expect(try day("dd/MM/yyyy", "03/04/2026") == "2026-04-03")
        #expect(try day("dd.MM.yyyy", "14.03.2026") == "2026-03-14")
        #expect(try day("yyyy-MM-dd", "2026-03-14") == "2026-03-14")
        #expect(try day("d MMM yyyy", "4 Mar 2026") == "2026-03-04")
        #expect(try day("d MMM yyyy", "14 Okt. 2026") == "2026-10-14")
        #expect(try day("M/d/yy", "3/4/26") == "2026-03-04")
        #expect(try day("yyyy-MM-dd HH:mm:ss", "2026-03-14 23:59:59") == "2026-03-14")
        #expect(try day("dd.MM.yyyy", " 14.03.2026 ") == "2026-03-14")
    }

    @Test func impossibleOrMalformedDatesAreNil() throws {
        #expect(try day("MM/dd/yyyy", "13/45/2026") == nil)
        #expect(try day("MM/dd/yyyy", "02/30/2026") == nil)
        #expect(try day("MM/dd/yyyy", "02/29/2025") == nil)
        #expect(try day("MM/dd/yyyy", "02/29/2024") == "2024-02-29")
        #expect(try day("dd.MM.yyyy", "14.03.26") == nil)
        #expect(try day("dd.MM.yyyy", "14.03.2026x") == nil)
        #expect(try day("yyyy-MM-dd", "") == nil)
        #expect(try day("d MMM yyyy", "4 Foo 2026") == nil)
        #expect(try day("yyyy-MM-dd HH:mm:ss", "2026-03-14 24:00:00") == nil)
    }

    @Test func badPatternsAreRefused() {
        for pattern in ["MM/dd", "yyyy-MM-dd-dd", "yyyyy-MM-dd", "QQ/dd/yyyy", "dd.MM.yyy"] {
            #expect(throws: CSVDateFormat.FormatError.self, "\(pattern)") { try CSVDateFormat(pattern) }
        }
    }

    @Test func datesNeverShiftInAnyTimeZone() throws {
        let date = try #require(try CSVDateFormat("dd.MM.yyyy").parse("01.01.2026"))
        #expect(date.isDateOnly)
        #expect(date.date.timeIntervalSince1970 == 1_767_225_600)
    }
}
