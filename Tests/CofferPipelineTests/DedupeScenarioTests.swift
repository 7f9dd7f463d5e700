import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

@Suite struct DedupeScenarioTests {
    @Test func reimportingTheIdenticalFileChangesNothing() async throws {
        let bench = try Workbench()
        let text = csv(["2026-03-01,REWE SAGT DANKE 123,-23.10,booked", "2026-03-02,GEHALT MAERZ,2500.00,booked"])
        let first = try bench.importing("a.csv", text)
        #expect(first.status == .imported && first.inserted == 2)
        let token = try await bench.token()
        let again = try bench.importing("a.csv", text)
        #expect(again.status == .alreadyImported)
        let forced = try bench.importing("a.csv", text, force: true)
        #expect(forced.status == .imported)
        #expect((forced.inserted, forced.updated, forced.deleted, forced.unchanged) == (0, 0, 0, 2))
        let changes = try await bench.changes(since: token)
        #expect(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty)
        // A forced import computes the file's digest beside the import: the report and the ledger still carry it.
        #expect(first.sha256?.count == 64 && forced.sha256 == first.sha256)
        #expect(try await bench.store.imports().map(\.sha256) == [first.sha256, first.sha256])
    }

    @Test func overlappingStatementsInsertOnlyTheNewDays() async throws {
        let bench = try Workbench()
        let days = (1...15).map { String(format: "2026-03-%02d,SHOP %02d,-%d.00,booked", $0, $0, $0) }
        _ = try bench.importing("1-10.csv", csv(Array(days[0..<10])))
        let token = try await bench.token()
        let second = try bench.importing("5-15.csv", csv(Array(days[4..<15])))
        #expect((second.inserted, second.unchanged) == (5, 6))
        let changes = try await bench.changes(since: token)
        #expect(changes.inserted.map { CalendarDay.string($0.transactionDate) } == (11...15).map { String(format: "2026-03-%02d", $0) })
        #expect(try await bench.transactions().count == 15)
    }

    @Test func identicalRowsOnOneDayStayDistinct() async throws {
        let bench = try Workbench()
        let coffee = "2026-03-04,SQ *BLUE BOTTLE COFFEE,-1.49,booked"
        let first = try bench.importing("a.csv", csv([coffee, coffee]))
        #expect(first.inserted == 2)
        // A longer statement with the same two coffees and one more row adds only that row.
        let second = try bench.importing("b.csv", csv([coffee, coffee, "2026-03-05,BAKERY,-3.20,booked"]))
        #expect((second.inserted, second.unchanged) == (1, 2))
        // A third coffee on that day is genuinely new.
        let third = try bench.importing("c.csv", csv([coffee, coffee, coffee]))
        #expect((third.inserted, third.unchanged) == (1, 2))
        #expect(try await bench.transactions().filter { $0.transactionAmount.amount == Decimal(string: "1.49") }.count == 3)
    }

    @Test func sameDayTwinsWithDifferentInstitutionIDsStayTwoAcrossFiles() async throws {
        // The bank's ids decide when both sides have them: the second coffee arriving alone in a later file is
        // not the first one again, though it looks the same (same day, amount and text, occurrence 1 in its file).
        let bench = try Workbench()
        let header = "Id,Date,Description,Amount\n"
        let first = try bench.importing("a.csv", header + "C-1,2026-03-04,BLUE BOTTLE COFFEE,-4.50\n", profile: "test-bank-ids")
        let second = try bench.importing("b.csv", header + "C-2,2026-03-04,BLUE BOTTLE COFFEE,-4.50\n", profile: "test-bank-ids")
        #expect((first.inserted, second.inserted, second.unchanged) == (1, 1, 0))
        #expect(try await bench.transactions().count == 2)
        // Both files again change nothing.
        let again = try bench.importing("ab.csv", header + "C-1,2026-03-04,BLUE BOTTLE COFFEE,-4.50\nC-2,2026-03-04,BLUE BOTTLE COFFEE,-4.50\n",
                                        profile: "test-bank-ids")
        #expect((again.inserted, again.unchanged) == (0, 2))
    }

    @Test func aBookedRecordUpdatesItsPendingOneInPlace() async throws {
        let bench = try Workbench()
        _ = try bench.importing("pending.csv", csv(["2026-03-14,SQ *BLUE BOTTLE COFFEE,-4.50,pending"]))
        let pending = try #require(try await bench.transactions().first)
        #expect(pending.status == .pending)
        let token = try await bench.token()
        let booked = try bench.importing("booked.csv", csv(["2026-03-15,BLUE BOTTLE COFFEE OAKLAND,-4.50,booked"]))
        #expect((booked.inserted, booked.updated, booked.deleted) == (0, 1, 0))
        let changes = try await bench.changes(since: token)
        #expect(changes.inserted.isEmpty && changes.deleted.isEmpty)
        #expect(changes.updated.map(\.id) == [pending.id])
        let now = try #require(changes.updated.first)
        #expect(now.status == .booked)
        #expect(now.postedDate == CalendarDay.parse("2026-03-15"))
        #expect(now.transactionDate == CalendarDay.parse("2026-03-14"))
        // Re-importing the old pending statement does not bring the pending record back.
        let old = try bench.importing("pending.csv", csv(["2026-03-14,SQ *BLUE BOTTLE COFFEE,-4.50,pending"]), force: true)
        #expect((old.inserted, old.updated, old.deleted) == (0, 0, 0))
        #expect(try await bench.transactions().count == 1)
    }

    @Test func aPendingRecordALaterStatementNoLongerListsIsDeletedAndStaysDeleted() async throws {
        let bench = try Workbench()
        let first = csv(["2026-03-10,RENT,-900.00,booked", "2026-03-12,HOTEL HOLD,-150.00,pending", "2026-03-20,BOOKSHOP,-12.00,booked"])
        _ = try bench.importing("first.csv", first)
        let hold = try #require(try await bench.transactions().first { $0.status == .pending })
        let token = try await bench.token()
        // Newer by its content (a CSV's as-of time is its latest row's day: 03-22 after 03-20), not by being
        // imported second (docs/dedupe.md).
        let later = try bench.importing("later.csv", csv(["2026-03-10,RENT,-900.00,booked", "2026-03-20,BOOKSHOP,-12.00,booked",
                                                          "2026-03-22,BAKERY,-3.10,booked"]))
        #expect((later.inserted, later.updated, later.deleted) == (1, 0, 1))
        let changes = try await bench.changes(since: token)
        #expect(changes.deleted == [hold.id])
        // Importing the first statement again does not resurrect it.
        let again = try bench.importing("first.csv", first, force: true)
        #expect((again.inserted, again.updated, again.deleted) == (0, 0, 0))
        #expect(try await bench.transactions().count == 3)
    }

    @Test func anOlderStatementImportedLaterDeletesNoPendingRow() async throws {
        // The statement of 03-25 lists the hold; the one of 03-20, imported after it, does not: it is older, so
        // it says nothing about the hold. An OFX statement (no pending rows in it) whose period ends less than 10
        // days after a pending row does not retire it either.
        let bench = try Workbench()
        _ = try bench.importing("newer.csv", csv(["2026-03-12,HOTEL HOLD,-150.00,pending", "2026-03-25,BOOKSHOP,-12.00,booked"]))
        let older = try bench.importing("older.csv", csv(["2026-03-10,RENT,-900.00,booked", "2026-03-20,CAFE,-4.00,booked"]))
        #expect(older.deleted == 0)
        #expect(try await bench.transactions().contains { $0.status == .pending })
        // Equal as-of times delete nothing either.
        let equal = try bench.importing("equal.csv", csv(["2026-03-11,RENT,-900.00,booked", "2026-03-25,BOOKSHOP,-12.00,booked"]))
        #expect(equal.deleted == 0)
        // A newer one that lists pending rows and not the hold: gone.
        let newest = try bench.importing("newest.csv", csv(["2026-03-11,RENT,-900.00,booked", "2026-03-26,TEA,-2.00,booked"]))
        #expect(newest.deleted == 1)
    }

    @Test func aRecordTheInstitutionCorrectedIsAnUpdate() async throws {
        let bench = try Workbench()
        _ = try bench.importing("a.csv", "Id,Date,Description,Amount\nT-1,2026-03-01,HARDWARE STORE,-10.00\nT-2,2026-03-02,GROCER,-5.00\n", profile: "test-bank-ids")
        let original = try #require(try await bench.transactions().first)
        let token = try await bench.token()
        let corrected = try bench.importing("b.csv", "Id,Date,Description,Amount\nT-1,2026-03-01,HARDWARE STORE,-12.00\nT-2,2026-03-02,GROCER,-5.00\n", profile: "test-bank-ids")
        #expect((corrected.inserted, corrected.updated, corrected.unchanged) == (0, 1, 1))
        let changes = try await bench.changes(since: token)
        #expect(changes.updated.map(\.id) == [original.id])
        #expect(changes.updated.first?.transactionAmount.amount == 12)
    }

    @Test func oneAccountFromOFXAndCSVHasNoDoubles() async throws {
        let bench = try Workbench()
        let ofx = """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102
            CHARSET:1252

            <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260320<LANGUAGE>ENG<FI><ORG>Test Bank<FID>999</FI></SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
            <BANKACCTFROM><BANKID>123456789<ACCTID>000111222333<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260301<DTEND>20260310
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260302<TRNAMT>-5.00<FITID>F-2<NAME>GROCER NORTH</STMTTRN>
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260303<TRNAMT>-7.25<FITID>F-3<NAME>PHARMACY 22</STMTTRN>
            </BANKTRANLIST><LEDGERBAL><BALAMT>100.00<DTASOF>20260310</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
        // The CSV export of the same account (same number) words things differently and has no ids.
        let csvFirst = try bench.importing("export.csv", "Id,Date,Description,Amount\n,2026-03-02,Grocer North Store,-5.00\n,2026-03-04,CAFE,-3.00\n", profile: "test-bank-ids")
        #expect(csvFirst.inserted == 2)
        let fromOFX = try bench.importing("download.ofx", ofx)
        // The grocer's row is one, and takes the OFX download's words: its statement (as of March 20) is newer than
        // the export's (its latest row, March 4).
        #expect((fromOFX.inserted, fromOFX.updated, fromOFX.unchanged) == (1, 1, 0))
        #expect(try await bench.transactions().filter { $0.transactionAmount.amount == 5 }
                    .map(\.originalTransactionDescription) == ["GROCER NORTH"])
        let accounts = try await bench.store.accounts(query: AccountQuery())
        #expect(accounts.count == 1)
        #expect(try await bench.transactions().count == 3)
        // The CSV again (forced) still adds nothing: the OFX id now sits on the shared record.
        let again = try bench.importing("export.csv", "Id,Date,Description,Amount\n,2026-03-02,Grocer North Store,-5.00\n,2026-03-04,CAFE,-3.00\n", profile: "test-bank-ids", force: true)
        #expect(again.inserted == 0)
        #expect(try await bench.transactions().count == 3)
    }
}

/// Statement chronology for values (docs/dedupe.md): a transaction's amount, status and text are the newest
/// statement's that lists it, whatever order the statements arrive in.
@Suite struct ValuesChronologyTests {
    /// Across sources the newest statement's words win, in either order: an OFX download as of March 20 over a CSV
    /// export whose latest row is March 4, and the export over a download as of March 3. The export's as-of time is
    /// known only at its end: its words are given then (`ImportSession.resolveDeferredTexts`).
    @Test(arguments: [("20260320", "GROCER NORTH"), ("20260303", "Grocer North Store")])
    func theNewestSourcesWordsWinInEitherOrder(_ ofxAsOf: String, _ words: String) async throws {
        let ofx = """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>\(ofxAsOf)<FI><ORG>Test Bank<FID>999</FI></SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
            <BANKACCTFROM><BANKID>123456789<ACCTID>000111222333<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260301<DTEND>20260303
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260302<TRNAMT>-5.00<FITID>F-2<NAME>GROCER NORTH</STMTTRN>
            </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
        let export = "Id,Date,Description,Amount\n,2026-03-02,Grocer North Store,-5.00\n,2026-03-04,CAFE,-3.00\n"
        for ofxFirst in [true, false] {
            let bench = try Workbench()
            for (name, text) in ofxFirst ? [("d.ofx", ofx), ("e.csv", export)] : [("e.csv", export), ("d.ofx", ofx)] {
                let report = try bench.importing(name, text, profile: name.hasSuffix(".csv") ? "test-bank-ids" : nil)
                #expect(report.status == .imported, "\(name): \(report.error?.description ?? "")")
            }
            let grocer = try await bench.transactions().filter { $0.transactionAmount.amount == 5 }
            #expect(grocer.map(\.originalTransactionDescription) == [words], "OFX first: \(ofxFirst)")
        }
    }

    /// One OFX statement of one row, FITID `V1`, as of `asOf`.
    static func ofx(asOf: String, date: String, amount: String, name: String) -> String {
        """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102

        <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>\(asOf)<FI><ORG>Chrono Bank<FID>5</FI></SONRS></SIGNONMSGSRSV1>
        <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
        <BANKACCTFROM><BANKID>5<ACCTID>77001234<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20260301<DTEND>\(asOf)
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\(date)<TRNAMT>-\(amount)<FITID>V1<NAME>\(name)</STMTTRN>
        </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

        """
    }

    static let older = ofx(asOf: "20260310", date: "20260305", amount: "10.00", name: "HARDWARE STORE TEMP AUTH")
    static let newer = ofx(asOf: "20260320", date: "20260306", amount: "12.40", name: "ACE HARDWARE 0412")

    @Test func theNewestStatementsValuesWinInEitherOrder() async throws {
        var finals: [String] = []
        for order in [[Self.older, Self.newer], [Self.newer, Self.older]] {
            let bench = try Workbench()
            _ = try bench.importing("a.ofx", order[0])
            let token = try await bench.token()
            let second = try bench.importing("b.ofx", order[1])
            let rows = try await bench.transactions()
            #expect(rows.count == 1)
            let t = try #require(rows.first)
            #expect(t.transactionAmount.amount == Decimal(string: "12.40"), "the newer statement's amount")
            #expect(t.originalTransactionDescription.contains("ACE HARDWARE"))
            #expect(CalendarDay.string(t.transactionDate) == "2026-03-05", "the earliest date any statement gives")
            let changes = try await bench.changes(since: token)
            if order[0] == Self.older {
                #expect(second.updated == 1 && changes.updated.count == 1)
            } else {
                // The older statement arriving late changes only the date (it says the purchase was a day earlier).
                #expect(second.updated == 1 && changes.updated.first?.transactionAmount.amount == Decimal(string: "12.40"))
            }
            finals.append("\(t.transactionAmount.amount) \(t.transactionDescription) \(CalendarDay.string(t.transactionDate))")
        }
        #expect(finals[0] == finals[1])
    }

    @Test func anOlderStatementWithTheSameDateChangesNothing() async throws {
        let bench = try Workbench()
        _ = try bench.importing("new.ofx", Self.ofx(asOf: "20260320", date: "20260305", amount: "12.40", name: "ACE HARDWARE 0412"))
        let token = try await bench.token()
        let old = try bench.importing("old.ofx", Self.older)
        #expect((old.inserted, old.updated, old.unchanged) == (0, 0, 1))
        let changes = try await bench.changes(since: token)
        #expect(changes.updated.isEmpty && changes.inserted.isEmpty && changes.deleted.isEmpty)
    }
}

/// Pending rows by statement chronology (docs/dedupe.md), one scenario per fix the order property
/// (`OrderInvarianceTests.anyImportOrderGivesTheSameStoreWithPendingRows`) found. The account is the property's:
/// camt.052 reports, a CSV export with a status column (`prop-bank-status`), a plain CSV export (`prop-bank`).
@Suite struct PendingChronologyTests {
    static let statusProfile = """
        id: prop-bank-status
        institution: Prop Bank
        match: {header: [Date, Payee, Amount, Status]}
        date_format: yyyy-MM-dd
        columns: {date: Date, description: Payee, amount: Amount, status: Status}
        status_values: {pending: pending, booked: booked}
        account: {number: "4400112233", kind: asset, currency: USD}
        """

    /// The shipped configuration and the property's two CSV profiles.
    static let configuration: CofferConfiguration = {
        let bench = try! Workbench()
        try! OrderInvarianceTests.profile.write(toFile: bench.folder + "/config/profiles/prop-bank.yaml", atomically: true, encoding: .utf8)
        try! statusProfile.write(toFile: bench.folder + "/config/profiles/prop-bank-status.yaml", atomically: true, encoding: .utf8)
        return try! CofferConfiguration.load(directory: bench.folder + "/config")
    }()

    struct Bench {
        let folder = NSTemporaryDirectory() + "coffer-pending-tests/" + UUID().uuidString
        let store: FinanceStore
        let importer: Importer

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            store = try FinanceStore(path: folder + "/store.sqlite")
            importer = Importer(store: store, configuration: PendingChronologyTests.configuration)
        }

        @discardableResult
        func importing(_ name: String, _ text: String) throws -> FileReport {
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
            let report = importer.importFile(folder + "/" + name)
            #expect(report.status == .imported, "\(name): \(report.error?.description ?? "")")
            return report
        }

        func token() async throws -> HistoryToken {
            var last: HistoryToken?
            for try await changes in store.allTransactionHistory(isMonitoring: false) { last = changes.newToken }
            return try #require(last)
        }

        /// Day, signed amount and status of every row, sorted.
        func rows() async throws -> [String] {
            try await store.transactions(query: TransactionQuery()).map { t in
                "\(CalendarDay.string(day: t.localDay)) \(t.creditDebitIndicator == .debit ? "-" : "")\(t.transactionAmount.amount) \(t.status)"
            }.sorted()
        }
    }

    /// A camt.052 report made at midnight UTC of `asOf`, for the days `from...asOf`; entries are
    /// (day, amount, pending, name, reference).
    static func report(from: String, asOf: String, _ entries: [(String, String, Bool, String, String?)]) -> String {
        let body = entries.map { e in
            "<Ntry><Amt Ccy=\"USD\">\(e.1)</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>\(e.2 ? "PDNG" : "BOOK")</Sts>"
                + (e.2 ? "<ValDt><Dt>\(e.0)</Dt></ValDt>" : "<BookgDt><Dt>\(e.0)</Dt></BookgDt>")
                + (e.4.map { "<AcctSvcrRef>\($0)</AcctSvcrRef>" } ?? "")
                + "<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>\(e.3)</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02"><BkToCstmrAcctRpt>
            <GrpHdr><MsgId>M</MsgId><CreDtTm>\(asOf)T00:00:00Z</CreDtTm></GrpHdr>
            <Rpt><Id>R-\(asOf)</Id><CreDtTm>\(asOf)T00:00:00Z</CreDtTm>
            <FrToDt><FrDtTm>\(from)T00:00:00Z</FrDtTm><ToDtTm>\(asOf)T23:59:59Z</ToDtTm></FrToDt>
            <Acct><Id><Othr><Id>4400112233</Id></Othr></Id><Ccy>USD</Ccy></Acct>
            \(body)
            </Rpt></BkToCstmrAcctRpt></Document>
            """
    }

    static func statusCSV(_ rows: [String]) -> String { (["Date,Payee,Amount,Status"] + rows).joined(separator: "\n") + "\n" }

    /// The newer statement lists the purchase booked (with a tip, in other words); the older one, arriving after
    /// it, lists it pending. Before: a second, pending row. Now the older listing finds the booked row
    /// (`bookedMatch`), keeps its amount, status and text, and dates it by the day it was authorized: one update.
    @Test func aPendingListingArrivingAfterItsBookedFormDatesItAndAddsNothing() async throws {
        let pending = Self.statusCSV(["2026-05-02,Fairway Grocers,-20.00,booked", "2026-05-03,PREAUTH BLUE BOTTLE COFFEE,-10.00,pending"])
        let booked = Self.statusCSV(["2026-05-02,Fairway Grocers,-20.00,booked", "2026-05-06,Blue Bottle Coffee,-11.50,booked"])
        var finals: [[String]] = []
        for order in [[pending, booked], [booked, pending]] {
            let bench = try Bench()
            try bench.importing("a.csv", order[0])
            let token = try await bench.token()
            let second = try bench.importing("b.csv", order[1])
            #expect((second.inserted, second.updated, second.deleted) == (0, 1, 0))
            var changes: (inserted: [Transaction], updated: [Transaction], deleted: [UUID]) = ([], [], [])
            for try await c in bench.store.allTransactionHistory(since: token, isMonitoring: false) {
                changes.inserted += c.inserted
                changes.updated += c.updated
                changes.deleted += c.deleted
            }
            #expect(changes.inserted.isEmpty && changes.deleted.isEmpty && changes.updated.count == 1)
            #expect(changes.updated.first?.transactionAmount.amount == Decimal(string: "11.50"))
            finals.append(try await bench.rows())
        }
        #expect(finals[0] == ["2026-05-02 -20 booked", "2026-05-03 -11.5 booked"])
        #expect(finals[0] == finals[1])
    }

    /// Where the rule has no answer (a pending and a booked listing as of the same day) or an absurd one (a pending
    /// listing newer than the booked one), a booking is final: one booked row in either order, dated by the pending
    /// day (docs/dedupe.md).
    @Test(arguments: ["2026-05-06", "2026-05-09"])
    func aBookingIsFinal(_ reportAsOf: String) async throws {
        let report = Self.report(from: "2026-05-01", asOf: reportAsOf, [("2026-05-03", "10.00", true, "Blue Bottle Coffee GmbH", nil)])
        let booked = Self.statusCSV(["2026-05-06,Blue Bottle Coffee,-10.00,booked"])  // as of May 6, its latest row
        for order in [[report, booked], [booked, report]] {
            let bench = try Bench()
            try bench.importing(order[0] == report ? "a.xml" : "a.csv", order[0])
            try bench.importing(order[1] == report ? "b.xml" : "b.csv", order[1])
            #expect(try await bench.rows() == ["2026-05-03 -10 booked"], "report as of \(reportAsOf), report first: \(order[0] == report)")
        }
    }

    /// A report as of May 10 covers May 3 and no longer lists the hold an older report (May 4) listed. Imported
    /// first, it had nothing to delete; the older report arriving later must not bring the hold in: a newer
    /// recorded statement already says it is gone (migration v12 keeps what statements cover). Either order ends
    /// without it; an equally old report still lists it.
    @Test func aHoldANewerStatementRetiredIsNotStoredWhenItsOlderListingArrivesLater() async throws {
        let older = Self.report(from: "2026-05-01", asOf: "2026-05-04", [("2026-05-03", "150.00", true, "Lakeview Hotel", nil),
                                                                          ("2026-05-02", "20.00", false, "Fairway Grocers", "C1")])
        let newer = Self.statusCSV(["2026-05-02,Fairway Grocers,-20.00,booked", "2026-05-10,Corner Bakery,-3.10,booked"])
        for order in [[older, newer], [newer, older]] {
            let bench = try Bench()
            let first = try bench.importing(order[0] == older ? "a.xml" : "a.csv", order[0])
            let second = try bench.importing(order[1] == older ? "b.xml" : "b.csv", order[1])
            #expect(first.deleted + second.deleted == (order[0] == older ? 1 : 0))
            #expect(try await bench.rows() == ["2026-05-02 -20 booked", "2026-05-10 -3.1 booked"])
        }
        let bench = try Bench()
        try bench.importing("same-day.csv", Self.statusCSV(["2026-05-02,Fairway Grocers,-20.00,booked", "2026-05-04,Corner Bakery,-3.10,booked"]))
        try bench.importing("older.xml", older)
        #expect(try await bench.rows().contains("2026-05-03 -150 pending"), "equal as-of times retire nothing")
    }

    /// A hold a statement retired, listed again by a statement newer than the retiring one (a bank that dropped
    /// it for a day): by the rule it is there, since the retiring statement is not newer than every listing. Its
    /// tombstone remembers the retiring statement's as-of time (v13), so every order of the three ends with it
    /// once, with and without references, and when the newest lists it booked.
    @Test(arguments: [(nil, true), ("H1", true), ("H1", false)] as [(String?, Bool)])
    func aHoldListedAgainByANewerStatementIsThereInEveryOrder(_ reference: String?, _ stillPending: Bool) async throws {
        let first = Self.report(from: "2026-05-01", asOf: "2026-05-04", [("2026-05-03", "150.00", true, "Lakeview Hotel", reference)])
        let retiring = Self.report(from: "2026-05-01", asOf: "2026-05-06", [("2026-05-05", "9.00", false, "Fairway Grocers", "G1")])
        let newest = Self.report(from: "2026-05-01", asOf: "2026-05-08",
                                 [("2026-05-03", "150.00", stillPending, "Lakeview Hotel", reference),
                                  ("2026-05-05", "9.00", false, "Fairway Grocers", "G1")])
        let hold = stillPending ? "2026-05-03 -150 pending" : "2026-05-03 -150 booked"
        let files = [("a.xml", first), ("r.xml", retiring), ("n.xml", newest)]
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let bench = try Bench()
            for index in order { try bench.importing(files[index].0, files[index].1) }
            #expect(try await bench.rows() == [hold, "2026-05-05 -9 booked"], "order \(order.map { files[$0].0 })")
        }
    }

    /// A camt.052 report's pending entry has no reference, and neither has the CSV export's row of it: two sources
    /// without ids, whose texts differ (`Fairway Grocers GmbH`, `Fairway Grocers`). Before, only fingerprints could
    /// match them, and they stayed two. Now each row keeps the source it came from (v12), and records without ids of
    /// two sources are matched across sources like any others; twins stay two.
    @Test func aReportsPendingEntryAndAnExportsPendingRowAreOneRow() async throws {
        let report = Self.report(from: "2026-05-01", asOf: "2026-05-09", [("2026-05-09", "84.69", true, "Fairway Grocers GmbH", nil),
                                                                           ("2026-05-09", "84.69", true, "Fairway Grocers GmbH", nil)])
        let export = Self.statusCSV(["2026-05-09,Fairway Grocers,-84.69,pending", "2026-05-09,Fairway Grocers,-84.69,pending"])
        var texts: [[String]] = []
        for order in [[report, export], [export, report]] {
            let bench = try Bench()
            try bench.importing(order[0] == report ? "a.xml" : "a.csv", order[0])
            let second = try bench.importing(order[1] == report ? "b.xml" : "b.csv", order[1])
            #expect(second.inserted == 0 && second.unchanged + second.updated == 2)
            #expect(try await bench.rows() == ["2026-05-09 -84.69 pending", "2026-05-09 -84.69 pending"])
            texts.append(try await bench.store.transactions(query: TransactionQuery()).map(\.originalTransactionDescription))
        }
        // Equally new (both as of May 9): the same text in either order (the greater, docs/dedupe.md "Values").
        #expect(texts[0] == texts[1] && texts[0].allSatisfy { $0.contains("GmbH") }, "\(texts)")
    }

    /// The pending purchase of May 3 booked on May 7 (a camt.053 entry of the bank's report): the row is dated May 3
    /// and posted May 7. A CSV export lists it booked on May 7, four days from its date: another source's day is
    /// compared with the row's posting day too, so it is that row, not a second one.
    @Test func anotherSourceFindsAPendingRowThatBookedByItsBookingDay() async throws {
        let bench = try Bench()
        try bench.importing("a.xml", Self.report(from: "2026-05-01", asOf: "2026-05-04", [("2026-05-03", "65.05", true, "Metro Transit GmbH", nil)]))
        try bench.importing("b.xml", Self.report(from: "2026-05-05", asOf: "2026-05-08", [("2026-05-07", "65.05", false, "Metro Transit GmbH", "C9")]))
        let export = try bench.importing("c.csv", "Booking Date,Text,Value\n2026-05-07,Metro Transit,-65.05\n")
        #expect((export.inserted, export.unchanged) == (0, 1))
        #expect(try await bench.rows() == ["2026-05-03 -65.05 booked"])
    }

    /// The hold of May 4 booked on May 8 (a plain CSV export): dated May 4, posted May 8. The status export lists
    /// it booked on May 8 too, without a posting date, and used to erase it; the OFX download's May 8 listing,
    /// four days from the row's date, then made a second row. A listing without a posting date keeps the row's, and
    /// re-importing the booked file changes nothing.
    @Test func aListingWithoutAPostingDateKeepsTheRowsBookingDay() async throws {
        let bench = try Bench()
        try bench.importing("a.csv", Self.statusCSV(["2026-05-04,PREAUTH LAKESIDE PARKING,-8.20,pending"]))
        let booked = "Booking Date,Text,Value\n2026-05-08,Lakeside Parking,-8.20\n"
        try bench.importing("b.csv", booked)
        let token = try await bench.token()
        let status = try bench.importing("c.csv", Self.statusCSV(["2026-05-08,Lakeside Parking,-8.20,booked"]))
        #expect((status.inserted, status.updated, status.unchanged) == (0, 0, 1))
        let again = try await bench.importer.importFile(bench.folder + "/b.csv", options: ImportOptions(force: true))
        #expect((again.inserted, again.updated, again.unchanged) == (0, 0, 1))
        var changed = 0
        for try await c in bench.store.allTransactionHistory(since: token, isMonitoring: false) {
            changed += c.inserted.count + c.updated.count + c.deleted.count
        }
        #expect(changed == 0)
        try bench.importing("d.ofx", DedupeRuleTests.ofx([("20260508231500[-5:EST]", "-8.20", "F9", "LAKESIDE PARKING #4001")])
            .replacingOccurrences(of: "<CURDEF>EUR", with: "<CURDEF>USD")
            .replacingOccurrences(of: "<BANKID>1<ACCTID>DE89370400440532013000", with: "<BANKID>77<ACCTID>4400112233"))
        #expect(try await bench.rows() == ["2026-05-04 -8.2 booked"])
    }

    /// Two identical holds of May 6 booked on May 10 (an OFX download, FITIDs F8 and F9); the status export's
    /// older listing dates them May 6. A second download re-issues the FITIDs (R8, R9): the rows it repeats are no
    /// longer on May 10 but posted then, and are found by that day; nothing doubles.
    @Test func reissuedIDsFindRowsThatWerePendingByTheirPostingDay() async throws {
        let bench = try Bench()
        func ofx(_ ids: [String]) -> String {
            DedupeRuleTests.ofx(ids.map { ("20260510100000[-5:EST]", "-42.60", $0, "CORNER BAKERY #4004") })
                .replacingOccurrences(of: "<CURDEF>EUR", with: "<CURDEF>USD")
                .replacingOccurrences(of: "<BANKID>1<ACCTID>DE89370400440532013000", with: "<BANKID>77<ACCTID>4400112233")
        }
        try bench.importing("a.ofx", ofx(["F8", "F9"]))
        try bench.importing("b.csv", Self.statusCSV(["2026-05-06,PREAUTH CORNER BAKERY,-42.60,pending",
                                                     "2026-05-06,PREAUTH CORNER BAKERY,-42.60,pending"]))
        let again = try bench.importing("c.ofx", ofx(["R8", "R9"]))
        #expect((again.inserted, again.unchanged) == (0, 2))
        #expect(try await bench.rows() == ["2026-05-06 -42.6 booked", "2026-05-06 -42.6 booked"])
    }

    /// One report lists a $65.05 transit pass pending on May 3 and a $65.05 bakery order booked on May 5: a
    /// statement lists a transaction pending or booked, never both, so the booked row is not the pending one (and
    /// `GmbH` is no word two merchants share).
    @Test func aBookedRowNeverBooksAPendingRowOfItsOwnFile() async throws {
        let bench = try Bench()
        try bench.importing("a.xml", Self.report(from: "2026-05-01", asOf: "2026-05-05", [("2026-05-03", "65.05", true, "Metro Transit GmbH", nil),
                                                                                       ("2026-05-05", "65.05", false, "Corner Bakery GmbH", "C8")]))
        #expect(try await bench.rows() == ["2026-05-03 -65.05 pending", "2026-05-05 -65.05 booked"])
    }
}
