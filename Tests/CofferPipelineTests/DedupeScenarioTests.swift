import CofferPipeline
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
        #expect((fromOFX.inserted, fromOFX.unchanged) == (1, 1))
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
