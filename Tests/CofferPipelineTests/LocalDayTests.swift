import CofferModel
import CofferStore
import Foundation
import Testing
@testable import CofferPipeline

/// The bank's own day (docs/dedupe.md): a time belongs to the calendar day of its own offset, and matching,
/// dedupe and day queries use that day.
@Suite struct LocalDayTests {
    /// An OFX statement of the test profile's account for March 2026; rows without a FITID when `fitid` is empty.
    static func ofx(_ rows: [(posted: String, amount: String, fitid: String, name: String)]) -> String {
        let body = rows.map { "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\($0.posted)<TRNAMT>\($0.amount)<FITID>\($0.fitid)<NAME>\($0.name)</STMTTRN>" }
            .joined(separator: "\n")
        return """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR
            <BANKACCTFROM><BANKID>1<ACCTID>DE89370400440532013000<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260301<DTEND>20260331235959[-8:PST]
            \(body)
            </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
    }

    static let march31 = CalendarDay.parse("2026-03-31")!
    static let april1 = CalendarDay.parse("2026-04-01")!

    static func onDays(_ bench: Workbench, _ from: Date, _ through: Date) async throws -> [Transaction] {
        try await bench.store.transactions(query: TransactionQuery(
            predicate: TransactionQuery.predicate(fromDay: from, throughDay: through)))
    }

    @Test func anEveningInPSTIsOnItsOwnDay() async throws {
        let bench = try Workbench()
        let report = try bench.importing("march.ofx", Self.ofx([("20260331200000[-8:PST]", "-42.00", "E1", "NORTHWIND GROCERY")]))
        #expect(report.inserted == 1)
        let t = try #require(try await bench.transactions().first)
        // The exact instant stays FinanceKit's transactionDate: 04:00 UTC on April 1.
        #expect(t.transactionDate == ISO8601DateFormatter().date(from: "2026-04-01T04:00:00Z"))
        #expect(t.timeZoneOffset == -28_800 && !t.isDateOnly)
        #expect(CalendarDay.string(day: t.localDay) == "2026-03-31")
        #expect(CalendarDay.text(t.transactionDate, offset: t.timeZoneOffset) == "2026-03-31T20:00:00-08:00")
        #expect(try await Self.onDays(bench, Self.march31, Self.march31).map(\.id) == [t.id])
        #expect(try await Self.onDays(bench, Self.april1, Self.april1).isEmpty)
    }

    @Test func sevenInTheEveningInESTIsATimeThoughItIsMidnightUTC() async throws {
        let bench = try Workbench()
        _ = try bench.importing("march.ofx", Self.ofx([("20260314190000[-5:EST]", "-9.00", "M1", "LATE SHOW TICKETS")]))
        let t = try #require(try await bench.transactions().first)
        #expect(CalendarDay.isMidnightUTC(t.transactionDate))
        #expect(!t.isDateOnly && t.timeZoneOffset == -18_000)
        #expect(CalendarDay.string(day: t.localDay) == "2026-03-14")
        #expect(CalendarDay.text(t.transactionDate, offset: t.timeZoneOffset) == "2026-03-14T19:00:00-05:00")
        // In JSON too: the time in its own offset, never the date-only form.
        var line: [UInt8] = []
        ModelJSON.append(t, to: &line)
        #expect(String(decoding: line, as: UTF8.self).contains(#""transactionDate":"2026-03-14T19:00:00-05:00""#))
    }

    @Test(arguments: [false, true])
    func theCSVRowOfThatEveningIsTheSameTransactionInEitherOrder(_ csvFirst: Bool) async throws {
        let bench = try Workbench()
        let ofx = Self.ofx([("20260331200000[-8:PST]", "-42.00", "E1", "NORTHWIND GROCERY")])
        let csvText = csv(["2026-03-31,Northwind Grocery,-42.00,booked"])
        if csvFirst { _ = try bench.importing("a.csv", csvText) }
        _ = try bench.importing("b.ofx", ofx)
        if !csvFirst { _ = try bench.importing("a.csv", csvText) }
        let all = try await bench.transactions()
        #expect(all.count == 1, "\(all)")
        // The earliest date any source gives: the CSV's day, March 31, whichever came first.
        #expect(all.map { CalendarDay.string(day: $0.localDay) } == ["2026-03-31"])
        #expect(all.first?.isDateOnly == true)
        // Nothing more on a second round.
        _ = try bench.importing("b.ofx", ofx, force: true)
        _ = try bench.importing("a.csv", csvText, force: true)
        #expect(try await bench.transactions().count == 1)
    }

    @Test(arguments: [0, 1, 2])
    func twinsAcrossMidnightUTCStayTwo(_ order: Int) async throws {
        // Two identical coffees of March 31 in Los Angeles, one before and one after midnight UTC, without FITIDs:
        // one local day, occurrences 1 and 2 (by their UTC days they would be two days, each occurrence 1, and the
        // CSV export's second coffee would be a third).
        let bench = try Workbench()
        let ofx = Self.ofx([("20260331150000[-8:PST]", "-1.49", "", "BLUE BOTTLE COFFEE"),
                            ("20260331170000[-8:PST]", "-1.49", "", "BLUE BOTTLE COFFEE")])
        let csvText = csv(["2026-03-31,Blue Bottle Coffee,-1.49,booked", "2026-03-31,Blue Bottle Coffee,-1.49,booked"])
        let files: [(String, String)] = [("a.ofx", ofx), ("b.csv", csvText)]
        let sequence = order == 0 ? [0, 1] : order == 1 ? [1, 0] : [0, 1, 0, 1]
        for index in sequence { _ = try bench.importing(files[index].0, files[index].1, force: true) }
        let all = try await bench.transactions()
        #expect(all.count == 2, "\(all.map { ($0.transactionDate, $0.timeZoneOffset) })")
        #expect(all.allSatisfy { CalendarDay.string(day: $0.localDay) == "2026-03-31" })
    }

    @Test func undoingTheFirstSourceKeepsTheEveningOnItsOwnDay() async throws {
        // A camt statement inserts the purchase on March 31 (a date); the OFX lists it at 20:00 PST, 04:00 UTC on
        // April 1 (the same day, later: a listing, no change). Undoing the camt import keeps the row, dated as the
        // OFX gives it: its instant and its offset, so still on March 31.
        let bench = try Workbench()
        let camt = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
            <GrpHdr><MsgId>M</MsgId><CreDtTm>2026-04-01T08:00:00Z</CreDtTm></GrpHdr>
            <Stmt><Id>S</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
            <Ntry><Amt Ccy="EUR">42.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>
            <BookgDt><Dt>2026-03-31</Dt></BookgDt><AcctSvcrRef>C1</AcctSvcrRef>
            <NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Northwind Grocery</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>
            </Stmt></BkToCstmrStmt></Document>
            """
        #expect(try bench.importing("a.xml", camt).inserted == 1)
        let ofx = try bench.importing("b.ofx", Self.ofx([("20260331200000[-8:PST]", "-42.00", "E1", "NORTHWIND GROCERY")]))
        #expect((ofx.inserted, ofx.updated, ofx.unchanged) == (0, 0, 1))
        let camtID = try #require(try await bench.store.imports().first { $0.path.hasSuffix("a.xml") }).id
        _ = try bench.store.undoImport(camtID)
        let kept = try await bench.transactions()
        #expect(kept.count == 1)
        #expect(kept.first?.timeZoneOffset == -28_800)
        #expect(kept.first.map { CalendarDay.string(day: $0.localDay) } == "2026-03-31")
        #expect(try await Self.onDays(bench, Self.march31, Self.march31).count == 1)
    }

    @Test func theDayQueryAgreesWithSwiftAtEveryOffset() async throws {
        // Rows around midnight at the offsets banks use; every 1- and 2-day range, in SQLite and evaluated in Swift.
        let bench = try Workbench()
        var rows: [(posted: String, amount: String, fitid: String, name: String)] = []
        for (i, zone) in ["[-12]", "[-8:PST]", "[-5:EST]", "[0:GMT]", "[+5.30:IST]", "[+14]"].enumerated() {
            for (j, time) in ["000000", "003000", "120000", "233000", "235959"].enumerated() {
                rows.append(("20260330\(time)\(zone)", "-\(i + 1).\(j)0", "Z\(i)-\(j)", "SHOP \(i) \(j)"))
                rows.append(("20260331\(time)\(zone)", "-\(i + 1).\(j)1", "Y\(i)-\(j)", "SHOP \(i) \(j)"))
            }
        }
        rows.append(("20260331", "-7.00", "D1", "DAY ONLY"))
        _ = try bench.importing("zones.ofx", Self.ofx(rows))
        let all = try await bench.transactions()
        #expect(all.count == rows.count)
        for from in 20_541...20_544 {
            for through in from...(from + 1) {
                let predicate = TransactionQuery.predicate(fromDay: CalendarDay.date(day: from), throughDay: CalendarDay.date(day: through))
                let inSQL = Set(try await bench.store.transactions(query: TransactionQuery(predicate: predicate)).map(\.id))
                let inSwift = Set(all.filter { (from...through).contains($0.localDay) }.map(\.id))
                #expect(inSQL == inSwift, "\(CalendarDay.string(day: from))…\(CalendarDay.string(day: through))")
                #expect(try all.filter { try predicate.evaluate($0) }.count == inSwift.count)
            }
        }
        #expect(bench.store.explain(TransactionQuery(predicate: TransactionQuery.predicate(fromDay: Self.march31))).predicatePushedDown)
    }
}
