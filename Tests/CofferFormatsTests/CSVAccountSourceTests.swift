import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// `account.number_from`: the account comes from the file — a column (rows grouped by account over the whole
/// file), the file name, or a preamble line — so a person's own export lands in the person's own account.
@Suite struct CSVAccountSourceTests {
    typealias S = CSVTestSupport

    static func statements(_ events: [StatementEvent]) -> [(number: String?, amounts: [Decimal], balances: [Decimal])] {
        var out: [(String?, [Decimal], [Decimal])] = []
        for event in events {
            switch event {
            case .begin(let h): out.append((h.account.accountNumber, [], []))
            case .transaction(let t): out[out.count - 1].1.append(t.amount)
            case .balance(let b): out[out.count - 1].2.append(b.amount)
            default: break
            }
        }
        return out
    }

    static let cards = """
        id: cards
        institution: Card Bank
        match: {header: [Date, Card No., Description, Debit, Credit, Balance]}
        date_format: yyyy-MM-dd
        columns: {date: Date, description: Description, debit: Debit, credit: Credit, balance: Balance}
        account: {number_from: {column: Card No.}, masked: true, kind: liability, currency: USD, display_name: Card Bank card}
        """

    @Test func rowsNamingSeveralAccountsAreGroupedOverTheWholeFile() throws {
        let text = """
            Date,Card No.,Description,Debit,Credit,Balance
            2026-03-04,1111,Grocer,20.00,,-120.00
            2026-03-04,2222,Fuel,40.00,,-40.00
            2026-03-03,1111,Payment,,50.00,-100.00
            2026-03-02,2222,Books,12.00,,
            2026-03-01,1111,Cafe,150.00,,-150.00

            """
        let events = try S.events(try S.profile(yaml: Self.cards), .string(text, name: "cards.csv"))
        let statements = Self.statements(events)
        #expect(statements.map(\.number) == ["1111", "2222"])
        #expect(statements[0].amounts == [-20, 50, -150])
        #expect(statements[1].amounts == [-40, -12])
        // Each account's own running balance, as of its newest row.
        #expect(statements[0].balances == [-120])
        #expect(statements[1].balances == [-40])
        let header = try #require(events.compactMap { if case .begin(let h) = $0 { h } else { nil } }.first)
        #expect(header.account.isMasked)
        #expect(header.account.displayName == "Card Bank card ••••1111")
    }

    @Test func aDataRowWithoutItsAccountIsALocatedError() throws {
        let text = "Date,Card No.,Description,Debit,Credit,Balance\n2026-03-04,1111,Grocer,20.00,,\n2026-03-03,,Fuel,5,,\n"
        let error = S.error { _ = try S.events(try S.profile(yaml: Self.cards), .string(text, name: "cards.csv")) }
        #expect(error?.location?.line == 3)
        #expect(error?.message.contains("Card No.") == true)
    }

    static let chase = """
        id: chase-like
        institution: Chase-like Bank
        match: {header: [Posting Date, Description, Amount], file_name: "Chase*Activity*.CSV"}
        date_format: MM/dd/yyyy
        columns: {date: Posting Date, description: Description, amount: Amount}
        account: {number_from: {file_name: "^Chase(?<number>\\\\d{4})_"}, kind: asset, currency: USD}
        """

    @Test func theNumberFromTheFileName() throws {
        let text = "Posting Date,Description,Amount\n03/02/2026,Coffee,-4.50\n"
        let profile = try S.profile(yaml: Self.chase)
        let a = Self.statements(try S.events(profile, .string(text, name: "/tmp/Chase1234_Activity_20260315.CSV")))
        let b = Self.statements(try S.events(profile, .string(text, name: "Chase9876_Activity_20260315.CSV")))
        #expect(a.map(\.number) == ["1234"])
        #expect(b.map(\.number) == ["9876"])
        let error = S.error { _ = try S.events(profile, .string(text, name: "activity.CSV")) }
        #expect(error?.message.contains("does not match account.number_from.file_name") == true)
    }

    static let dkbLike = """
        id: dkb-like
        institution: DKB-like Bank
        match: {header: [Buchungstag, Verwendungszweck, Betrag (EUR)]}
        delimiter: ";"
        decimal_mark: ","
        date_format: dd.MM.yyyy
        columns: {date: Buchungstag, description: Verwendungszweck, amount: Betrag (EUR)}
        account: {number_from: {preamble: "\\"Kontonummer:\\";\\"(?<number>DE\\\\d{20})"}, kind: asset, currency: EUR}
        """

    @Test func theNumberFromAPreambleLine() throws {
        let text = """
            "Kontonummer:";"DE44500105175407324931 / Girokonto";

            "Von:";"01.03.2026";
            "Buchungstag";"Verwendungszweck";"Betrag (EUR)";
            "02.03.2026";"Miete";"-900,00";

            """
        let statements = Self.statements(try S.events(try S.profile(yaml: Self.dkbLike), .string(text, name: "x.csv")))
        #expect(statements.map(\.number) == ["DE44500105175407324931"])
        #expect(statements[0].amounts == [-900])
        let none = S.error { _ = try S.events(try S.profile(yaml: Self.dkbLike),
                                              .string(text.replacingOccurrences(of: "Kontonummer", with: "Konto"), name: "x.csv")) }
        #expect(none?.message.contains("no line before the header matches") == true)
    }

    @Test func aProfileNumberIsTheFallbackWhenTheFileSaysNone() throws {
        let yaml = Self.chase.replacingOccurrences(of: "kind: asset", with: "number: \"000000123456789\", kind: asset")
        let statements = Self.statements(try S.events(try S.profile(yaml: yaml),
                                                      .string("Posting Date,Description,Amount\n03/02/2026,Coffee,-4.50\n", name: "activity.CSV")))
        #expect(statements.map(\.number) == ["000000123456789"])
    }

    @Test func numberFromNeedsExactlyOneSourceAndANumberGroup() throws {
        let two = S.error { _ = try S.profile(yaml: Self.chase.replacingOccurrences(
            of: "{file_name: \"^Chase(?<number>\\\\d{4})_\"}", with: "{file_name: \"^C(?<number>\\\\d)\", column: Amount}")) }
        #expect(two?.message.contains("exactly one of column, file_name or preamble") == true)
        let group = S.error { _ = try S.profile(yaml: Self.chase.replacingOccurrences(of: "(?<number>\\\\d{4})", with: "(\\\\d{4})")) }
        #expect(group?.message.contains("no group named number") == true)
    }

    @Test func aRuleCanSetTheAccount() throws {
        let yaml = """
            id: joint
            institution: Joint Bank
            match: {header: [Date, Holder, Description, Amount]}
            date_format: yyyy-MM-dd
            columns: {date: Date, description: Description, amount: Amount}
            rules:
              - when: {column: Holder, equals: Sam}
                set: {account: "JB-SAM-000001"}
            account: {number: "JB-ALX-000001", kind: asset, currency: EUR}
            """
        let text = "Date,Holder,Description,Amount\n2026-03-01,Alex,A,-1\n2026-03-02,Sam,B,-2\n2026-03-03,Alex,C,-3\n"
        let statements = Self.statements(try S.events(try S.profile(yaml: yaml), .string(text, name: "j.csv")))
        #expect(statements.map(\.number) == ["JB-ALX-000001", "JB-SAM-000001"])
        #expect(statements.map(\.amounts) == [[-1, -3], [-2]])
    }
}
