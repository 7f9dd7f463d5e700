import CofferModel
import CofferStore
import Foundation
import Testing
@testable import CofferPipeline

/// The rule of docs/dedupe.md, one scenario per clause (the property test, OrderInvarianceTests, mixes them).
@Suite struct DedupeRuleTests {
    static func ofx(_ rows: [(day: String, amount: String, fitid: String, name: String)]) -> String {
        let body = rows.map { "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\($0.day)<TRNAMT>\($0.amount)<FITID>\($0.fitid)<NAME>\($0.name)</STMTTRN>" }
            .joined(separator: "\n")
        return """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR
            <BANKACCTFROM><BANKID>1<ACCTID>DE89370400440532013000<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260501<DTEND>20260531
            \(body)
            </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
    }

    static func amounts(_ bench: Workbench) async throws -> [String] {
        try await bench.transactions().map { "\(CalendarDay.string($0.transactionDate)) \($0.transactionAmount.amount) \($0.transactionDescription)" }.sorted()
    }

    // MARK: Text agreement

    static func transaction(_ text: String, merchant: String? = nil) -> Transaction {
        Transaction(id: UUID(), accountID: UUID(), transactionAmount: CurrencyAmount(amount: 1, currencyCode: "EUR"),
                    creditDebitIndicator: .debit, transactionDescription: text, originalTransactionDescription: text,
                    merchantName: merchant, transactionType: .unknown, status: .booked,
                    transactionDate: Date(timeIntervalSince1970: 0), postedDate: nil)
    }

    @Test(arguments: [("CHECK 1042", "CHECK # 1042", true), ("ATM WITHDRAWAL", "Cash withdrawal", true),
                      ("LAKESIDE PARKING #4001", "Blue Bottle Coffee", false),
                      ("SQ *BLUE BOTTLE COFFEE San Francisco", "Blue Bottle Coffee", true),
                      ("AMZN Mktp DE 302-1234", "Amazon Marketplace", false), ("REWE 0815", "REWE Markt GmbH", true)])
    func textsAgreeAtTheThreshold(_ a: String, _ b: String, _ agree: Bool) {
        let score = TextSimilarity.score(Self.transaction(a), Self.transaction(b))
        #expect((score >= TextSimilarity.agreeing) == agree, "\(a) ↔ \(b): \(score)")
    }

    /// A legal form is no word two merchants share: with equal amounts a pending row is booked from a third of
    /// the words, and every camt creditor may end in `GmbH`.
    @Test func legalFormsAreNoSharedWord() {
        #expect(TextSimilarity.score(Self.transaction("Corner Bakery GmbH"), Self.transaction("Metro Transit GmbH")) == 0)
        #expect(TextSimilarity.score(Self.transaction("ACME INC"), Self.transaction("Acme Tools Inc.")) == 1)
    }

    @Test func equalMerchantsAgreeWhateverTheirTexts() {
        #expect(TextSimilarity.score(Self.transaction("POS 4711", merchant: "Rewe"), Self.transaction("Kartenzahlung", merchant: "REWE")) == 1)
    }

    // MARK: Scenarios

    @Test(arguments: [false, true])
    func theParkingBesideTheCoffeeStaysTwoInEitherOrder(_ csvFirst: Bool) async throws {
        let bench = try Workbench()
        let ofx = Self.ofx([("20260505", "-5.75", "P1", "LAKESIDE PARKING #4001"), ("20260505", "-5.75", "C1", "BLUE BOTTLE COFFEE")])
        let csv = "Date,Description,Amount,Status\n2026-05-05,Blue Bottle Coffee,-5.75,booked\n2026-05-05,Lakeside Parking,-5.75,booked\n"
        if csvFirst { _ = try bench.importing("a.csv", csv) }
        _ = try bench.importing("b.ofx", ofx)
        if !csvFirst { _ = try bench.importing("a.csv", csv) }
        let stored = try await bench.transactions()
        #expect(stored.count == 2)
    }

    @Test func aPostingSkewWithinThreeDaysIsTheSameTransactionDatedByTheEarlierDay() async throws {
        let bench = try Workbench()
        _ = try bench.importing("b.ofx", Self.ofx([("20260507", "-42.00", "A1", "CITY WATER UTILITY")]))
        let report = try bench.importing("a.csv", "Date,Description,Amount,Status\n2026-05-05,City Water Utility,-42.00,booked\n")
        #expect(report.inserted == 0)
        #expect(report.updated == 1)
        #expect(try await bench.transactions().map { CalendarDay.string($0.transactionDate) } == ["2026-05-05"])
        // A fourth day is too far: another transaction.
        _ = try bench.importing("c.csv", "Date,Description,Amount,Status\n2026-05-11,City Water Utility,-42.00,booked\n")
        #expect(try await bench.transactions().count == 2)
    }

    @Test func anOFXIdAndACamtReferenceThatAreEqualMeanNothing() async throws {
        let bench = try Workbench()
        _ = try bench.importing("b.ofx", Self.ofx([("20260505", "-10.00", "REF7", "BAKERY")]))
        let camt = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
            <GrpHdr><MsgId>M</MsgId><CreDtTm>2026-05-20T08:00:00Z</CreDtTm></GrpHdr>
            <Stmt><Id>S</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
            <Ntry><Amt Ccy="EUR">99.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-05-06</Dt></BookgDt>
            <AcctSvcrRef>REF7</AcctSvcrRef><AddtlNtryInf>Insurance</AddtlNtryInf></Ntry>
            </Stmt></BkToCstmrStmt></Document>
            """
        let report = try bench.importing("c.xml", camt)
        #expect(report.inserted == 1)
        #expect(report.updated == 0)
        #expect(try await bench.transactions().map(\.transactionAmount.amount).sorted() == [10, 99])
    }

    @Test func theSameSalaryInTwoMonthsIsNotDoubledByAFileOfTheSecondAlone() async throws {
        // Occurrences count per day: the April salary is occurrence 1 in a March–April file and in an April file.
        let bench = try Workbench()
        let both = "Date,Description,Amount,Status\n2026-03-28,Salary Hollis,2500.00,booked\n2026-04-28,Salary Hollis,2500.00,booked\n"
        _ = try bench.importing("q1.csv", both)
        let april = try bench.importing("april.csv", "Date,Description,Amount,Status\n2026-04-28,Salary Hollis,2500.00,booked\n")
        #expect(april.inserted == 0)
        #expect(try await bench.transactions().count == 2)
    }

    @Test func aFileListingARetiredIDBesideTheIDThatRetiredItHoldsTwoTransactions() async throws {
        // A-1 was taken as re-issued as B-1 (same day, amount and text). A later file lists B-1 and then A-1 again:
        // the row matched by B-1 is listed, so A-1 is another transaction after all, not a retired key.
        let bench = try Workbench()
        _ = try bench.importing("a.ofx", Self.ofx([("20260505", "-4.20", "A-1", "CORNER BAKERY")]))
        _ = try bench.importing("b.ofx", Self.ofx([("20260505", "-4.20", "B-1", "CORNER BAKERY")]))
        #expect(try await bench.transactions().count == 1)
        let both = try bench.importing("c.ofx", Self.ofx([("20260505", "-4.20", "B-1", "CORNER BAKERY"),
                                                          ("20260505", "-4.20", "A-1", "CORNER BAKERY")]))
        #expect((both.inserted, both.unchanged) == (1, 1))
        #expect(try await bench.transactions().count == 2)
    }

    @Test func aReissuedFITIDIsTheSameRowAndAGenuinelyNewRowIsStillNew() async throws {
        // The bank changes every FITID on each download: the second download (same period) repeats the row under a
        // new id, and adds one genuinely new row.
        let bench = try Workbench()
        _ = try bench.importing("a.ofx", Self.ofx([("20260505", "-4.20", "A-1", "CORNER BAKERY")]))
        let b = try bench.importing("b.ofx", Self.ofx([("20260505", "-4.20", "B-1", "CORNER BAKERY"),
                                                       ("20260506", "-9.00", "B-2", "METRO TRANSIT")]))
        #expect((b.inserted, b.unchanged) == (1, 1))
        #expect(b.warnings.contains { $0.contains("re-issued") })
        // Both downloads again: nothing new, nothing flips.
        #expect(try bench.importing("a.ofx", Self.ofx([("20260505", "-4.20", "A-1", "CORNER BAKERY")]), force: true).inserted == 0)
        #expect(try bench.importing("b.ofx", Self.ofx([("20260505", "-4.20", "B-1", "CORNER BAKERY"),
                                                       ("20260506", "-9.00", "B-2", "METRO TRANSIT")]), force: true).inserted == 0)
        #expect(try await bench.transactions().count == 2)
    }

    @Test func aCSVWithoutAPeriodNeverReissues() async throws {
        // A CSV export states no period: its lone second coffee with a new id is a second coffee.
        let bench = try Workbench()
        let header = "Id,Date,Description,Amount\n"
        _ = try bench.importing("a.csv", header + "C-1,2026-03-04,BLUE BOTTLE COFFEE,-4.50\n", profile: "test-bank-ids")
        #expect(try bench.importing("b.csv", header + "C-2,2026-03-04,BLUE BOTTLE COFFEE,-4.50\n", profile: "test-bank-ids").inserted == 1)
    }

    @Test func twinsStayTwoAcrossSourcesInEitherOrder() async throws {
        for csvFirst in [false, true] {
            let bench = try Workbench()
            let ofx = Self.ofx([("20260505", "-1.49", "T1", "CORNER BAKERY"), ("20260505", "-1.49", "T2", "CORNER BAKERY")])
            let csv = "Date,Description,Amount,Status\n2026-05-05,Corner Bakery,-1.49,booked\n2026-05-05,Corner Bakery,-1.49,booked\n"
            if csvFirst { _ = try bench.importing("a.csv", csv) }
            _ = try bench.importing("b.ofx", ofx)
            _ = try bench.importing("a.csv", csv, force: true)
            _ = try bench.importing("b.ofx", ofx, force: true)
            #expect(try await bench.transactions().count == 2, "csv first: \(csvFirst)")
        }
    }
}
