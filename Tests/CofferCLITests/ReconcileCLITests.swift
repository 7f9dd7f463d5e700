import Foundation
import Testing

/// `coffer reconcile` on the real binary, with statements written for the test: what a person reads, and the exit
/// status cron acts on.
@Suite struct ReconcileCLITests {
    /// An OFX 1.02 checking statement of one account (`rows`: FITID, DTPOSTED, TRNAMT, NAME).
    static func ofx(start: String, end: String, ledger: String, rows: [(String, String, String, String)],
                    account: String = "2233445566") -> String {
        let transactions = rows.map { "<STMTTRN><TRNTYPE>OTHER<DTPOSTED>\($0.1)<TRNAMT>\($0.2)<FITID>\($0.0)<NAME>\($0.3)</STMTTRN>" }
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
            <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>\(end)<LANGUAGE>ENG
            <FI><ORG>Birchwood Bank<FID>5151</FI></SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
            <STMTRS><CURDEF>USD
            <BANKACCTFROM><BANKID>026009593<ACCTID>\(account)<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>\(start)<DTEND>\(end)
            \(transactions.joined(separator: "\n"))
            </BANKTRANLIST>
            <LEDGERBAL><BALAMT>\(ledger)<DTASOF>\(end)</LEDGERBAL>
            </STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

            """
    }

    /// 1–15 March: 500.00 + 1,800.00 − 64.20 = 2,235.80.
    static let firstHalf = ofx(start: "20260301", end: "20260315", ledger: "2235.80", rows: [
        ("B-1", "20260302", "500.00", "TRANSFER IN"), ("B-2", "20260306", "1800.00", "PAYROLL"), ("B-3", "20260311", "-64.20", "GAS CO"),
    ])
    /// 16–31 March: − 950.00 = 1,285.80.
    static let secondHalf = ofx(start: "20260316", end: "20260331", ledger: "1285.80", rows: [
        ("B-4", "20260320", "-950.00", "RENT"),
    ])
    /// April, whose balance knows of a 30.00 fee the statement does not list: 1,285.80 + 1,800.00 − 30.00.
    static let april = ofx(start: "20260401", end: "20260430", ledger: "3055.80", rows: [
        ("B-5", "20260406", "1800.00", "PAYROLL"),
    ])

    static func write(_ text: String, _ name: String, in folder: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCleanImportReconcilesAndExitsZero() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite"
        let first = try Self.write(Self.firstHalf, "birchwood-0301.ofx", in: folder)
        let second = try Self.write(Self.secondHalf, "birchwood-0316.ofx", in: folder)
        let imported = try coffer(["import", "--store", store, first, second])
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        let run = try coffer(["reconcile", "--store", store])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("covered: 2026-03-01 to 2026-03-31 (2 statement(s))"))
        #expect(run.stdout.contains("gaps: none"))
        #expect(run.stdout.contains("balances: 2 reported, none off (1 LEDGERBAL(s) checked against the balance before)"))
        #expect(!run.stdout.contains("ATTENTION"))
        #expect(run.stdout.contains("nothing needs attention"))
    }

    @Test func aGapBetweenTwoStatementsIsReportedWithItsDatesAndExitsOne() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite"
        // The second half of March was never downloaded: April's balance cannot follow from the 15th's either.
        let first = try Self.write(Self.firstHalf, "birchwood-0301.ofx", in: folder)
        let april = try Self.write(Self.ofx(start: "20260401", end: "20260430", ledger: "3085.80", // 1,285.80 + 1,800.00
                                            rows: [("B-5", "20260406", "1800.00", "PAYROLL")]), "birchwood-0401.ofx", in: folder)
        _ = try coffer(["import", "--store", store, first, april])
        let run = try coffer(["reconcile", "--store", store])
        #expect(run.status == 1)
        #expect(run.stdout.contains("ATTENTION  gap: 2026-03-16 to 2026-03-31, 16 day(s) no statement covers"), "\(run.stdout)")
        #expect(run.stdout.contains("covered: 2026-03-01 to 2026-03-15, 2026-04-01 to 2026-04-30"))
        // April's balance is off by what those days held, and the line says why.
        #expect(run.stdout.contains("difference -950.00 USD: no statement covers 2026-03-16 to 2026-03-31"))
        #expect(run.stdout.contains("1 of 1 account(s) need attention"))
    }

    @Test func aBalanceThatDoesNotFollowNamesItsFileAndTheDifference() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite"
        let files = try [("birchwood-0301.ofx", Self.firstHalf), ("birchwood-0316.ofx", Self.secondHalf),
                         ("birchwood-0401.ofx", Self.april)].map { try Self.write($0.1, $0.0, in: folder) }
        // Under cron the import says so on stderr, once, and still commits.
        let imported = try coffer(["import", "--store", store] + files)
        #expect(imported.status == 0)
        let warnings = imported.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(imported.stderr)")
        #expect(warnings.first?.hasPrefix("coffer: warning: \(files[2]):") == true)
        #expect(warnings.first?.contains("difference -30.00 USD") == true)

        let run = try coffer(["reconcile", "--store", store, "--account", "5566"])
        #expect(run.status == 1)
        let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("ATTENTION  balance: ") })
        #expect(line.contains(files[2]) && line.contains("LEDGERBAL 3055.80 USD as of 2026-04-30"))
        #expect(line.contains("birchwood-0316.ofx") && line.contains("difference -30.00 USD"))

        let json = try jsonObject(try coffer(["reconcile", "--store", store, "--format", "json"]).stdout)
        #expect(json["needsAttention"] as? Bool == true)
        let account = try #require((json["accounts"] as? [[String: Any]])?.first)
        let mismatch = try #require((account["mismatches"] as? [[String: Any]])?.first)
        #expect(mismatch["check"] as? String == "sequence")
        #expect(mismatch["file"] as? String == files[2])
        #expect(mismatch["previousFile"] as? String == files[1])
        #expect((mismatch["reported"] as? String, mismatch["expected"] as? String, mismatch["difference"] as? String)
                    == ("3055.80", "3085.80", "-30.00"))
        #expect(mismatch["firstDay"] as? String == "2026-04-01" && mismatch["lastDay"] as? String == "2026-04-30")
    }

    @Test func aPendingRowOlderThanFourteenDaysIsReportedAndJsonParses() throws {
        let folder = try temporaryFolder()
        let store = folder + "/coffer.sqlite"
        // A Revolut export (the shipped profile): a card payment still pending 20 days before the newest row.
        let csv = """
            Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
            TOPUP,Current,2026-03-01 09:15:02,2026-03-01 09:15:04,Top-up by *1234,200.00,0.00,EUR,COMPLETED,210.00
            CARD_PAYMENT,Current,2026-03-02 19:40:00,,Kiosk am Markt,-6.40,0.00,EUR,PENDING,
            CARD_PAYMENT,Current,2026-03-14 12:40:51,2026-03-15 06:02:11,Lidl,-23.17,0.00,EUR,COMPLETED,186.83
            CARD_PAYMENT,Current,2026-03-22 08:05:00,2026-03-22 08:05:03,Bakery,-3.10,0.00,EUR,COMPLETED,183.73

            """
        let file = try Self.write(csv, "revolut-statement-2026-03.csv", in: folder)
        let imported = try coffer(["import", "--store", store, file])
        #expect(imported.status == 0, "\(imported.stderr)")

        let run = try coffer(["reconcile", "--store", store])
        #expect(run.status == 1)
        #expect(run.stdout.contains("ATTENTION  pending: 2026-03-02 -6.40 EUR"), "\(run.stdout)")
        #expect(run.stdout.contains("(pending, 20 days before 2026-03-22)"))

        let json = try coffer(["reconcile", "--store", store, "--format", "json"])
        #expect(json.status == 1)
        let document = try jsonObject(json.stdout)
        #expect(document["staleDays"] as? Int == 14)
        let account = try #require((document["accounts"] as? [[String: Any]])?.first)
        #expect(account["needsAttention"] as? Bool == true)
        let stale = try #require((account["stalePending"] as? [[String: Any]])?.first)
        #expect(stale["daysOld"] as? Int == 20)
        let transaction = try #require(stale["transaction"] as? [String: Any])
        #expect(transaction["status"] as? String == "pending")
        #expect((transaction["transactionAmount"] as? [String: Any])?["amount"] as? String == "6.40")
        let statement = try #require((account["statements"] as? [[String: Any]])?.first)
        #expect(statement["file"] as? String == file)
        #expect((statement["transactions"] as? Int, statement["booked"] as? Int, statement["pending"] as? Int) == (4, 3, 1))
        #expect((statement["closing"] as? [String: Any])?["amount"] as? String == "183.73")
    }

    @Test func anUnknownAccountIsAUsageError() throws {
        let store = try temporaryFolder() + "/coffer.sqlite"
        _ = try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx"])
        let run = try coffer(["reconcile", "--store", store, "--account", "nonesuch"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("no account matches 'nonesuch'"))
    }
}
