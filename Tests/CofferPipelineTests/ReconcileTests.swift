import CofferPipeline
import Foundation
import Testing

/// Statements recorded as they are imported, and an OFX `LEDGERBAL` checked against the balance before it: what a
/// person sees in the import's warnings and in `store.reconcile()`.
@Suite struct ReconcileTests {
    /// An OFX 1.02 bank statement of one checking account: `rows` are (FITID, DTPOSTED, TRNAMT, NAME).
    static func ofx(start: String, end: String, ledger: String, asOf: String,
                    rows: [(id: String, date: String, amount: String, name: String)]) -> String {
        let transactions = rows.map { row in
            "<STMTTRN><TRNTYPE>OTHER<DTPOSTED>\(row.date)<TRNAMT>\(row.amount)<FITID>\(row.id)<NAME>\(row.name)</STMTTRN>"
        }.joined(separator: "\n")
        return """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102
            SECURITY:NONE
            ENCODING:USASCII
            CHARSET:1252
            COMPRESSION:NONE
            OLDFILEUID:NONE
            NEWFILEUID:NONE

            <OFX>
            <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>\(asOf)<LANGUAGE>ENG
            <FI><ORG>Juniper Savings<FID>7070</FI></SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
            <STMTRS><CURDEF>USD
            <BANKACCTFROM><BANKID>121000358<ACCTID>4455667788<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>\(start)<DTEND>\(end)
            \(transactions)
            </BANKTRANLIST>
            <LEDGERBAL><BALAMT>\(ledger)<DTASOF>\(asOf)</LEDGERBAL>
            </STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

            """
    }

    /// March: 1,000.00 + 2,400.00 − 85.40 − 19.99 (booked on the balance's own day, so in it) = 3,294.61.
    static let march = ofx(start: "20260301", end: "20260331", ledger: "3294.61", asOf: "20260331", rows: [
        ("M-1", "20260302", "1000.00", "OPENING DEPOSIT"),
        ("M-2", "20260315", "2400.00", "PAYROLL ACME"),
        ("M-3", "20260320", "-85.40", "CITY POWER"),
        ("M-4", "20260331", "-19.99", "STREAMING CO"),
    ])

    /// April as the bank sent it: 3,294.61 + 2,400.00 − 42.17 − 1,200.00 = 4,452.44.
    static func april(withGroceries: Bool = true) -> String {
        ofx(start: "20260401", end: "20260430", ledger: "4452.44", asOf: "20260430", rows: [
            ("A-1", "20260415", "2400.00", "PAYROLL ACME"),
            ("A-3", "20260428", "-1200.00", "RENT MAY"),
        ] + (withGroceries ? [("A-2", "20260403", "-42.17", "GREEN GROCER")] : []))
    }

    @Test func eachStatementIsRecordedWithItsPeriodBalanceAndRows() async throws {
        let bench = try Workbench()
        let report = try bench.importing("march.ofx", Self.march)
        #expect(report.status == .imported && report.attention.isEmpty)
        let csvReport = try bench.importing("giro.csv", csv(["2026-03-02,REWE,-23.10,booked", "2026-03-04,BAKERY,-3.20,pending",
                                                             "2026-03-06,GEHALT,2500.00,booked"]))
        #expect(csvReport.status == .imported)

        let accounts = try await bench.store.reconcile()
        #expect(accounts.count == 2)
        let ofx = try #require(accounts.first { $0.statements.first?.path.hasSuffix("march.ofx") == true })
        let statement = try #require(ofx.statements.first)
        #expect(ofx.statements.count == 1)
        #expect(statement.periodStated)
        #expect(statement.start == CalendarDay.parse("2026-03-01") && statement.end == CalendarDay.parse("2026-03-31"))
        #expect(statement.asOf == CalendarDay.parse("2026-03-31"))
        #expect(statement.closing?.code == "LEDGERBAL")
        #expect(statement.closing?.signed == Decimal(string: "3294.61"))
        #expect(statement.opening == nil)
        #expect((statement.rowCount, statement.bookedCount, statement.openCount) == (4, 4, 0))
        #expect(statement.bookedTotal == Decimal(string: "3294.61"))
        #expect(ofx.covered.map { CalendarDay.string($0.first) + "…" + CalendarDay.string($0.last) } == ["2026-03-01…2026-03-31"])

        // A CSV states no period: its rows' days are the period; a pending row is counted, not summed.
        let giro = try #require(accounts.first { $0.statements.first?.path.hasSuffix("giro.csv") == true })
        let rows = try #require(giro.statements.first)
        #expect(!rows.periodStated)
        #expect(rows.start == CalendarDay.parse("2026-03-02") && rows.end == CalendarDay.parse("2026-03-06"))
        #expect((rows.rowCount, rows.bookedCount, rows.openCount) == (3, 2, 1))
        #expect(rows.bookedTotal == Decimal(string: "2476.90"))
        #expect(rows.closing == nil)
        #expect(!giro.needsAttention && !ofx.needsAttention)
    }

    /// A purchase at 21:30 PST on March 31 is April 1 in UTC, but the bank booked it on its own March 31: in the
    /// balance as of March 31 (23:59:59 PST), not in April's.
    @Test func aTimeLateInTheEveningWestOfUTCIsBookedOnItsOwnDay() async throws {
        let march = Self.ofx(start: "20260301", end: "20260331235959[-8:PST]", ledger: "3294.61",
                             asOf: "20260331235959[-8:PST]", rows: [
            ("M-1", "20260302", "1000.00", "OPENING DEPOSIT"),
            ("M-2", "20260315", "2400.00", "PAYROLL ACME"),
            ("M-3", "20260320", "-85.40", "CITY POWER"),
            ("M-4", "20260331213000[-8:PST]", "-19.99", "STREAMING CO"),
        ])
        let bench = try Workbench()
        #expect(try bench.importing("march.ofx", march).attention.isEmpty)
        let april = try bench.importing("april.ofx", Self.april())
        #expect(april.attention.isEmpty, "\(april.attention)")
        #expect(try await bench.store.reconcile().first?.mismatches.isEmpty == true)
    }

    /// The same on the later balance's own day: a purchase at 21:30 PST on April 30 (May 1 in UTC) is in the
    /// balance as of April 30. The import's check read rows dated before May 1 UTC only, left it out, and warned
    /// where `coffer reconcile` did not.
    @Test func aTimeLateInTheEveningWestOfUTCOnTheBalanceDayIsInThatBalance() async throws {
        let bench = try Workbench()
        #expect(try bench.importing("march.ofx", Self.march).attention.isEmpty)
        let april = try bench.importing("april.ofx", Self.ofx(
            start: "20260401", end: "20260430", ledger: "4442.44", asOf: "20260430", rows: [
                ("A-1", "20260415", "2400.00", "PAYROLL ACME"), ("A-2", "20260403", "-42.17", "GREEN GROCER"),
                ("A-3", "20260428", "-1200.00", "RENT MAY"), ("A-4", "20260430213000[-8:PST]", "-10.00", "LATE DINER"),
            ]))
        #expect(april.inserted == 4)
        #expect(april.attention.isEmpty, "\(april.attention)")
        #expect(try await bench.store.reconcile().first?.mismatches.isEmpty == true)
    }

    @Test func aConsistentPairOfStatementsRaisesNoWarning() async throws {
        let bench = try Workbench()
        #expect(try bench.importing("march.ofx", Self.march).attention.isEmpty)
        let april = try bench.importing("april.ofx", Self.april())
        #expect(april.status == .imported)
        #expect(april.attention.isEmpty, "\(april.attention)")
        let account = try #require(try await bench.store.reconcile().first)
        #expect(account.sequenceChecks == 1)
        #expect(account.mismatches.isEmpty)
        #expect(account.gaps.isEmpty)
        #expect(!account.needsAttention)
    }

    /// A statement imported again is chained after its own earlier copy, on the same day: no rows lie between the
    /// two balances, so the check reads none (`sequenceMismatches` skips the read) and still compares the balances.
    @Test func aStatementImportedAgainIsCheckedAgainstItsEarlierCopyOnTheSameDay() async throws {
        let bench = try Workbench()
        #expect(try bench.importing("march.ofx", Self.march).attention.isEmpty)
        let again = try bench.importing("march-again.ofx", Self.march, force: true)
        #expect(again.status == .imported)
        #expect(again.inserted == 0)
        #expect(again.attention.isEmpty, "\(again.attention)")
        // The same day restated with another balance and no row between: a difference of exactly the two balances.
        let restated = try bench.importing("march-restated.ofx", Self.ofx(
            start: "20260301", end: "20260331", ledger: "3300.00", asOf: "20260331", rows: [
                ("M-1", "20260302", "1000.00", "OPENING DEPOSIT"), ("M-2", "20260315", "2400.00", "PAYROLL ACME"),
                ("M-3", "20260320", "-85.40", "CITY POWER"), ("M-4", "20260331", "-19.99", "STREAMING CO"),
            ]))
        let warning = try #require(restated.attention.first, "\(restated.warnings)")
        #expect(warning.contains("LEDGERBAL 3300.00 USD as of 2026-03-31"))
        #expect(warning.contains("difference 5.39 USD"))
        // April after them still reads and sums the rows of its own days.
        let april = try bench.importing("april.ofx", Self.april(withGroceries: false))
        let aprilWarning = try #require(april.attention.first, "\(april.warnings)")
        #expect(april.attention.count == 1)
        #expect(aprilWarning.contains("LEDGERBAL 4452.44 USD as of 2026-04-30"))
        #expect(aprilWarning.contains("2 transaction(s) booked 2026-04-01 to 2026-04-30 (1200.00)"))
    }

    @Test func aMissingTransactionIsAWarningWithTheExactDifference() async throws {
        let bench = try Workbench()
        _ = try bench.importing("march.ofx", Self.march)
        let april = try bench.importing("april.ofx", Self.april(withGroceries: false))
        #expect(april.status == .imported)
        let warning = try #require(april.attention.first)
        #expect(april.attention.count == 1)
        #expect(warning.contains("april.ofx:"))
        #expect(warning.contains("LEDGERBAL 4452.44 USD as of 2026-04-30"))
        #expect(warning.contains("3294.61 USD as of 2026-03-31"))
        #expect(warning.contains("march.ofx"))
        #expect(warning.contains("2 transaction(s) booked 2026-04-01 to 2026-04-30 (1200.00)"))
        #expect(warning.contains("difference -42.17 USD"))
        #expect(april.warnings.contains(warning))

        let account = try #require(try await bench.store.reconcile().first)
        let mismatch = try #require(account.mismatches.first)
        #expect(account.mismatches.count == 1)
        #expect(mismatch.check == .sequence)
        #expect(mismatch.difference == Decimal(string: "-42.17"))
        #expect(mismatch.expected == Decimal(string: "4494.61"))
        #expect(mismatch.statement.path.hasSuffix("april.ofx"))
        #expect(mismatch.previous?.path.hasSuffix("march.ofx") == true)
        #expect(account.needsAttention)
    }

    @Test func anOlderStatementImportedLaterChecksTheNewerOne() async throws {
        // Import order does not decide: April first (no balance before it), then March, which April follows.
        let bench = try Workbench()
        #expect(try bench.importing("april.ofx", Self.april(withGroceries: false)).attention.isEmpty)
        let march = try bench.importing("march.ofx", Self.march)
        let warning = try #require(march.attention.first)
        #expect(warning.contains("april.ofx:") && warning.contains("difference -42.17 USD"))
        // The missing row arrives: a corrected April download; the chain holds from then on.
        let fixed = try bench.importing("april-2.ofx", Self.april())
        #expect(fixed.attention.isEmpty, "\(fixed.attention)")
        #expect(fixed.inserted == 1)
    }

    @Test func pendingRowsAndRowsBookedAfterTheBalanceDayAreLeftOut() async throws {
        let bench = try Workbench()
        _ = try bench.importing("march.ofx", Self.march)
        // May books a row on 05-02, after April's balance day, and is imported before April.
        let may = try bench.importing("may.ofx", Self.ofx(start: "20260501", end: "20260510", ledger: "4402.44",
                                                          asOf: "20260510", rows: [("Y-1", "20260502", "-50.00", "PHONE CO")]))
        // April is not stored yet: May does not follow from March (3294.61 − 50.00 ≠ 4402.44).
        #expect(may.attention.count == 1 && may.attention.first?.contains("difference 1157.83 USD") == true, "\(may.attention)")
        // A pending row in April (an authorization another source stored): no ledger balance holds it.
        let account = try #require(try await bench.store.accounts(query: AccountQuery()).first)
        let pending = Transaction(id: UUID(), accountID: account.id, transactionAmount: CurrencyAmount(amount: 500, currencyCode: "USD"),
                                  creditDebitIndicator: .debit, transactionDescription: "HOTEL HOLD",
                                  originalTransactionDescription: "HOTEL HOLD", status: .pending,
                                  transactionDate: try #require(CalendarDay.parse("2026-04-25")))
        try bench.store.write { try $0.insert(pending, keys: DedupeKeys(externalID: "test:P-1")) }
        let april = try bench.importing("april.ofx", Self.april())
        #expect(april.attention.isEmpty, "\(april.attention)")
        let result = try #require(try await bench.store.reconcile().first)
        #expect(result.sequenceChecks == 2)
        #expect(result.mismatches.isEmpty)
        // Dated 15 days before the newest statement's as-of time (2026-05-10): it stayed pending too long.
        #expect(result.reference == CalendarDay.parse("2026-05-10"))
        #expect(result.stalePending.map(\.id) == [pending.id])
        #expect(result.needsAttention)
    }

    @Test func aDryRunWarnsButRecordsNothing() async throws {
        let bench = try Workbench()
        _ = try bench.importing("march.ofx", Self.march)
        let path = try bench.file("april.ofx", Self.april(withGroceries: false))
        let dry = try await bench.importer.importFile(path, options: ImportOptions(dryRun: true))
        #expect(dry.status == .dryRun)
        #expect(dry.attention.count == 1)
        #expect(try await bench.store.reconcile().first?.statements.count == 1)
    }

    @Test func aForcedReimportIsOneStatement() async throws {
        let bench = try Workbench()
        _ = try bench.importing("march.ofx", Self.march)
        let again = try bench.importing("march.ofx", Self.march, force: true)
        #expect(again.attention.isEmpty)
        let account = try #require(try await bench.store.reconcile().first)
        #expect(account.statements.count == 1)
        #expect(account.mismatches.isEmpty)
    }
}
