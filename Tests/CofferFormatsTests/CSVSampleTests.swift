import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Every sample statement in feeds/csv parses to exactly the events in Tests/Golden/csv-events/<file>.events (outside the test target, so SwiftPM does not ask to declare them as resources).
///
/// Set COFFER_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change, then read the diff.
@Suite struct CSVSampleTests {
    static let samples: [(file: String, profile: String)] = [
        ("Apple Card Transactions - March 2026.csv", "apple-card"),
        ("Chase1234_Activity_20260315.CSV", "chase-checking"),
        ("activity.csv", "amex"),
        ("capital-one-2026-03.csv", "capital-one-card"),
        ("dkb-giro-2026-03.csv", "dkb-giro"),
        ("Umsaetze_DE27100777770209299700_2026.03.15.csv", "volksbank"),
        ("MonzoDataExport_2026-03.csv", "monzo"),
        ("revolut-statement-2026-03.csv", "revolut"),
    ]

    @Test(arguments: samples.map(\.file))
    func sampleMatchesGolden(file: String) throws {
        let input = StatementInput.file(CSVTestSupport.feedsDirectory + "/" + file)
        let profile = try #require(try CSVTestSupport.profiles().identify(input), "no profile identifies \(file)")
        let expectedID = try #require(Self.samples.first { $0.file == file }).profile
        #expect(profile.id == expectedID)
        let events = try CSVTestSupport.events(profile, input)
        let text = CSVTestSupport.dump(events).replacingOccurrences(of: CSVTestSupport.root + "/", with: "")
        let golden = CSVTestSupport.goldenDirectory + "/" + file + ".events"
        if ProcessInfo.processInfo.environment["COFFER_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: CSVTestSupport.goldenDirectory, withIntermediateDirectories: true)
            try text.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(text == expected)
    }

    @Test func appleCardPurchasesArePositiveOnTheCardSoNegativeForTheHolder() throws {
        let input = StatementInput.file(CSVTestSupport.feedsDirectory + "/Apple Card Transactions - March 2026.csv")
        let rows = CSVTestSupport.transactions(try CSVTestSupport.events(try CSVTestSupport.profile("apple-card"), input))
        #expect(rows.count == 7)
        #expect(rows[0].amount == Decimal(string: "-6.75"))
        #expect(rows[2].amount == Decimal(string: "-1204.18"))
        #expect(rows[3].amount == 500)
        #expect(rows[3].transactionType == .billPayment)
        #expect(rows[0].merchantName == "Blue Bottle Coffee")
        #expect(rows[0].postedDate.map { CalendarDay.string($0.date) } == "2026-03-15")
    }

    @Test func volksbankUsesTheSollHabenColumnAndIgnoresTheBalanceFooter() throws {
        let input = StatementInput.file(CSVTestSupport.feedsDirectory + "/Umsaetze_DE27100777770209299700_2026.03.15.csv")
        let events = try CSVTestSupport.events(try CSVTestSupport.profile("volksbank"), input)
        let rows = CSVTestSupport.transactions(events)
        #expect(rows.map(\.indicator) == [.debit, .credit, .debit])
        #expect(rows.map(\.amount) == [Decimal(string: "7.8"), Decimal(string: "1118.2"), Decimal(string: "12.5")])
        #expect(rows[0].merchantName == "Bäckerei Körner")
        #expect(rows[0].name == "Kartenzahlung\r\nBäckerei Körner Filiale 3")  // kept as sent
        #expect(CSVTestSupport.warnings(events).isEmpty)
    }

    @Test func dkbReadsWindows1252AndDecimalComma() throws {
        let input = StatementInput.file(CSVTestSupport.feedsDirectory + "/dkb-giro-2026-03.csv")
        let rows = CSVTestSupport.transactions(try CSVTestSupport.events(try CSVTestSupport.profile("dkb-giro"), input))
        #expect(rows.count == 4)
        #expect(rows[1].amount == Decimal(string: "-1023.45"))
        #expect(rows[3].transactionType == .transfer)
        #expect(rows[3].typeCode == "Überweisung")
        #expect(rows[3].name == "Miete März, Wohnung 3 \"links\"")
        #expect(rows.map { $0.location.line } == [8, 9, 10, 11])
    }

    @Test func chaseEmitsTheNewestRunningBalance() throws {
        let input = StatementInput.file(CSVTestSupport.feedsDirectory + "/Chase1234_Activity_20260315.CSV")
        let events = try CSVTestSupport.events(try CSVTestSupport.profile("chase-checking"), input)
        let balances = events.compactMap { if case .balance(let b) = $0 { b } else { nil } }
        #expect(balances.count == 1)
        #expect(balances.first?.amount == Decimal(string: "2045.12"))
        #expect(balances.first.map { CalendarDay.string($0.asOf.date) } == "2026-03-13")
        #expect(CSVTestSupport.transactions(events)[2].checkNumber == "1042")
    }

    @Test func monzoKeepsIdsAndForeignAmounts() throws {
        let input = StatementInput.file(CSVTestSupport.feedsDirectory + "/MonzoDataExport_2026-03.csv")
        let rows = CSVTestSupport.transactions(try CSVTestSupport.events(try CSVTestSupport.profile("monzo"), input))
        #expect(rows[0].externalID == "tx_0000AbCdEf0123456789")
        #expect(rows[0].foreignAmount == nil)
        #expect(rows[1].foreignAmount == 12)
        #expect(rows[1].foreignCurrencyCode == "EUR")
        #expect(rows[1].merchantName == "Café de Flore")
        #expect(rows[2].amount == 2150)
    }

    @Test func revolutMapsStatesToStatuses() throws {
        let input = StatementInput.file(CSVTestSupport.feedsDirectory + "/revolut-statement-2026-03.csv")
        let rows = CSVTestSupport.transactions(try CSVTestSupport.events(try CSVTestSupport.profile("revolut"), input))
        #expect(rows.map(\.status) == [.booked, .booked, .pending, .booked])
        #expect(rows[2].postedDate == nil)
    }
}
