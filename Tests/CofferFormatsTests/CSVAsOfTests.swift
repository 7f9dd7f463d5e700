import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// `as_of`: the date a CSV export states for itself (its statement's as-of time, docs/dedupe.md), from the file's
/// name or a preamble line; without it, or when the file does not say, the latest row's day.
@Suite struct CSVAsOfTests {
    typealias S = CSVTestSupport

    static func header(_ events: [StatementEvent]) -> RawStatementHeader? {
        events.compactMap { if case .begin(let h) = $0 { h } else { nil } }.first
    }
    static func warnings(_ events: [StatementEvent]) -> [String] {
        events.compactMap { if case .warning(let w) = $0 { w.description } else { nil } }
    }

    static let byName = """
        id: named
        institution: Named Bank
        match: {header: [Date, Description, Amount]}
        date_format: MM/dd/yyyy
        columns: {date: Date, description: Description, amount: Amount}
        account: {number: "123456789", kind: asset, currency: USD}
        as_of: {file_name: "^export_(?<date>\\\\d{4}-\\\\d{2}-\\\\d{2})"}
        """
    static let rows = "Date,Description,Amount\n03/02/2026,Coffee,-4.50\n03/05/2026,Books,-12.00\n"

    @Test func theFileNameGivesTheDate() throws {
        let events = try S.events(try S.profile(yaml: Self.byName), .string(Self.rows, name: "/in/export_2026-03-09.csv"))
        let asOf = try #require(Self.header(events)?.asOf)
        #expect(CalendarDay.string(asOf.date) == "2026-03-09" && asOf.isDateOnly)
        #expect(Self.warnings(events).isEmpty)
    }

    /// A name that does not say (a renamed download) is no error: the statement is as of its latest row's day, and
    /// a warning names the file and the pattern.
    @Test func aNameThatDoesNotSayIsAWarning() throws {
        let events = try S.events(try S.profile(yaml: Self.byName), .string(Self.rows, name: "download (1).csv"))
        #expect(Self.header(events)?.asOf == nil)
        let warning = try #require(Self.warnings(events).first)
        #expect(warning.contains("download (1).csv") && warning.contains("does not match as_of.file_name"))
        #expect(warning.contains("latest row's day"))
    }

    @Test func aDateThatIsNoDateIsAWarning() throws {
        let events = try S.events(try S.profile(yaml: Self.byName), .string(Self.rows, name: "export_2026-02-31.csv"))
        #expect(Self.header(events)?.asOf == nil)
        #expect(Self.warnings(events).first?.contains("'2026-02-31' in the file name is not a date") == true)
    }

    static let byPreamble = """
        id: preamble
        institution: Preamble Bank
        match: {header: [Buchungstag, Verwendungszweck, Betrag (EUR)]}
        delimiter: ";"
        decimal_mark: ","
        date_format: dd.MM.yyyy
        columns: {date: Buchungstag, description: Verwendungszweck, amount: Betrag (EUR)}
        account: {number: "DE44500105175407324931", kind: asset, currency: EUR}
        as_of: {preamble: "\\"Kontostand vom (?<date>[0-9.]+)"}
        """

    /// The profile's own date format reads it (`dd.MM.yyyy` here); `date_format` may say another.
    @Test func aPreambleLineGivesTheDate() throws {
        let text = """
            "Konto:";"DE44500105175407324931";
            "Kontostand vom 15.03.2026:";"1.234,56 EUR";

            "Buchungstag";"Verwendungszweck";"Betrag (EUR)";
            "02.03.2026";"Miete";"-900,00";

            """
        let events = try S.events(try S.profile(yaml: Self.byPreamble), .string(text, name: "x.csv"))
        #expect(Self.header(events)?.asOf.map { CalendarDay.string($0.date) } == "2026-03-15")
        let other = Self.byPreamble.replacingOccurrences(of: "(?<date>[0-9.]+)", with: "(?<date>[0-9/]+)")
        let slashed = try S.profile(yaml: other.replacingOccurrences(of: "as_of: {preamble:", with: "as_of: {date_format: \"MM/dd/yyyy\", preamble:"))
        let events2 = try S.events(slashed, .string(text.replacingOccurrences(of: "vom 15.03.2026", with: "vom 03/15/2026"), name: "x.csv"))
        #expect(Self.header(events2)?.asOf.map { CalendarDay.string($0.date) } == "2026-03-15")
        let none = try S.events(try S.profile(yaml: Self.byPreamble),
                                .string(text.replacingOccurrences(of: "Kontostand", with: "Saldo"), name: "x.csv"))
        #expect(Self.header(none)?.asOf == nil)
        #expect(Self.warnings(none).first?.contains("no line before the header matches as_of.preamble") == true)
    }

    @Test func asOfNeedsOneSourceADateGroupAndAKnownFormat() throws {
        let both = S.error { _ = try S.profile(yaml: Self.byName.replacingOccurrences(
            of: "as_of: {file_name:", with: "as_of: {preamble: \"^(?<date>x)\", file_name:")) }
        #expect(both?.message.contains("exactly one of file_name or preamble") == true)
        let group = S.error { _ = try S.profile(yaml: Self.byName.replacingOccurrences(of: "(?<date>", with: "(")) }
        #expect(group?.message.contains("no group named date") == true)
        let format = S.error { _ = try S.profile(yaml: Self.byName.replacingOccurrences(
            of: "as_of: {", with: "as_of: {date_format: \"QQ-yyyy\", ")) }
        #expect(format != nil)
        let unknown = S.error { _ = try S.profile(yaml: Self.byName.replacingOccurrences(of: "as_of: {", with: "as_of: {when: now, ")) }
        #expect(unknown?.message.contains("when") == true)
    }
}
