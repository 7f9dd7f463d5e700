import CofferStore
import Foundation
import Testing

/// The reconciliation policy as pure functions: which days statements cover, which gaps need a person, which
/// booking days lie between two balances.
@Suite struct ReconciliationTests {
    static let account = UUID()

    static func statement(_ id: Int64, from: Date?, through: Date?, stated: Bool = true, asOf: Date? = nil,
                          closing: (String, Date)? = nil) -> StatementPeriod {
        var s = StatementPeriod(accountID: account, currencyCode: "USD", location: "s\(id).ofx:1", start: from, end: through,
                                periodStated: stated, asOf: asOf ?? through ?? day("2026-01-01"),
                                closing: closing.map { StatementBalance(code: "LEDGERBAL", amount: ExactDecimal.parse($0.0)!.magnitude,
                                                                        indicator: $0.0.hasPrefix("-") ? .debit : .credit, asOf: $0.1) })
        s.id = id
        s.path = "s\(id).ofx"
        return s
    }

    static func days(_ r: AccountReconciliation) -> [String] {
        r.covered.map { CalendarDay.string($0.first) + "…" + CalendarDay.string($0.last) }
    }

    @Test func overlappingAndAdjoiningStatementsMergeAndAGapIsTheDaysBetween() {
        let r = Reconciliation.account(Self.account, statements: [
            Self.statement(1, from: day("2026-01-01"), through: day("2026-01-31")),
            Self.statement(2, from: day("2026-01-20"), through: day("2026-02-10")),
            Self.statement(3, from: day("2026-02-11"), through: day("2026-02-28")),
            Self.statement(4, from: day("2026-03-16"), through: day("2026-03-31")),
        ], daily: [:], open: [], newestTransaction: nil)
        #expect(Self.days(r) == ["2026-01-01…2026-02-28", "2026-03-16…2026-03-31"])
        #expect(r.covered.map(\.statements) == [3, 1])
        #expect(r.gaps.count == 1)
        #expect(r.gaps.first.map { (CalendarDay.string($0.first), CalendarDay.string($0.last), $0.days) } ?? ("", "", 0)
                    == ("2026-03-01", "2026-03-15", 15))
        #expect(r.gaps.first?.needsAttention == true)
        #expect(r.needsAttention)
    }

    @Test func aShortGapBesideAStatementWithoutAStatedPeriodIsNotFlagged() {
        // CSV exports: rows from the 2nd to the 27th, then from the 2nd: the days between may have had no rows.
        let short = Reconciliation.account(Self.account, statements: [
            Self.statement(1, from: day("2026-03-02"), through: day("2026-03-27"), stated: false),
            Self.statement(2, from: day("2026-04-02"), through: day("2026-04-29"), stated: false),
        ], daily: [:], open: [], newestTransaction: nil)
        #expect(short.gaps.map(\.days) == [5])
        #expect(short.gaps.first?.needsAttention == false)
        #expect(!short.needsAttention)
        // A week or more without a single row is a missing export.
        let long = Reconciliation.account(Self.account, statements: [
            Self.statement(1, from: day("2026-03-02"), through: day("2026-03-20"), stated: false),
            Self.statement(2, from: day("2026-04-02"), through: day("2026-04-29"), stated: false),
        ], daily: [:], open: [], newestTransaction: nil)
        #expect(long.gaps.first?.needsAttention == true)
    }

    @Test func periodEndsWithATimeAreReadAtTheirNearestMidnight() {
        func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? .distantPast }
        // 2026-03-01T00:00+01:00 to 2026-03-31T23:59:59+02:00 (a German camt.053), then an OFX month in PST.
        let camt = Self.statement(1, from: instant("2026-02-28T23:00:00Z"),
                                  through: instant("2026-03-31T21:59:59Z"))
        let ofx = Self.statement(2, from: instant("2026-04-01T08:00:00Z"),
                                 through: instant("2026-05-01T07:59:59Z"))
        let r = Reconciliation.account(Self.account, statements: [camt, ofx], daily: [:], open: [], newestTransaction: nil)
        #expect(Self.days(r) == ["2026-03-01…2026-04-30"])
        #expect(r.gaps.isEmpty)
        // A balance as of the morning is the day before's; as of 23:59:59 in PST, that day's.
        #expect(StatementPeriod.lastDay(through: instant("2026-03-15T13:30:00Z"))
                    == CalendarDay.dayNumber(day("2026-03-15")))
        #expect(StatementPeriod.lastDay(through: instant("2026-03-15T08:30:00Z"))
                    == CalendarDay.dayNumber(day("2026-03-14")))
        #expect(StatementPeriod.lastDay(through: day("2026-03-15")) == CalendarDay.dayNumber(day("2026-03-15")))
    }

    @Test func aLedgerBalanceFollowsFromTheBalanceBeforeAndTheDaysBetween() throws {
        let d = { CalendarDay.dayNumber(day($0)) }
        // Booked per day: 03-31 −19.99 (in March's balance), 04-03 −42.17, 04-30 −1,200.00, 05-01 +9.00 (after).
        let daily = DailyBooked([(d("2026-03-31"), -19_990_000, 1), (d("2026-04-03"), -42_170_000, 1),
                                 (d("2026-04-30"), -1_200_000_000, 2), (d("2026-05-01"), 9_000_000, 1)])
        #expect(daily.between(after: d("2026-03-31"), through: d("2026-04-30"))! == (-1_242_170_000, 3))
        #expect(daily.between(after: d("2026-04-30"), through: d("2026-04-30"))! == (0, 0))
        let march = Self.statement(1, from: day("2026-03-01"), through: day("2026-03-31"), closing: ("1000.00", day("2026-03-31")))
        let april = Self.statement(2, from: day("2026-04-01"), through: day("2026-04-30"), closing: ("-242.17", day("2026-04-30")))
        let ok = Reconciliation.account(Self.account, statements: [april, march], daily: ["USD": daily], open: [],
                                        newestTransaction: nil)
        #expect(ok.sequenceChecks == 1 && ok.mismatches.isEmpty)
        #expect(BalanceChain.previous(of: april, in: [march, april])?.id == 1)
        var off = april
        off.closing?.amount = ExactDecimal.parse("250.00")!
        let mismatch = try #require(BalanceChain.mismatch(off, after: march, booked: (-1_242_170_000, 3)))
        #expect(mismatch.difference == ExactDecimal.parse("-7.83")!)
        #expect(mismatch.expected == ExactDecimal.parse("-242.17")!)
        #expect(mismatch.description.hasPrefix("s2.ofx:1: LEDGERBAL -250.00 USD as of 2026-04-30 does not follow"))
    }
}
