import Foundation
import Testing

/// The real `coffer`: a card's OFX download and its CSV export (the shipped amex profile) are one account; a
/// statement two stored cards could be fails with both named, and `--account` says which.
@Suite struct AccountIdentityCLITests {
    /// An Amex-like card's OFX download (ORG AMEX, FID 3101, the full number), written for this test.
    static func ofx(number: String, idPrefix: String) -> String {
        """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102

        <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260315120000<FI><ORG>AMEX<FID>3101</FI></SONRS></SIGNONMSGSRSV1>
        <CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><CCSTMTRS><CURDEF>USD
        <CCACCTFROM><ACCTID>\(number)</CCACCTFROM>
        <BANKTRANLIST><DTSTART>20260301<DTEND>20260315
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260304<TRNAMT>-23.40<FITID>\(idPrefix)1<NAME>CITY PARKING GARAGE</STMTTRN>
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260308<TRNAMT>-64.15<FITID>\(idPrefix)2<NAME>TRADER JOES #552</STMTTRN>
        <STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260312<TRNAMT>500.00<FITID>\(idPrefix)3<NAME>ONLINE PAYMENT - THANK YOU</STMTTRN>
        </BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>

        """
    }

    /// The same card's CSV export as the amex profile reads it (charges positive; the profile's number ends 1004).
    static let csv = """
        Date,Description,Amount
        03/12/2026,"ONLINE PAYMENT - THANK YOU",-500.00
        03/08/2026,"TRADER JOES #552",64.15
        03/04/2026,"CITY PARKING GARAGE",23.40

        """

    static func write(_ folder: String, _ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func accounts(_ store: String) throws -> [[String: Any]] {
        try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout)
    }

    static func transactionCount(_ store: String) throws -> Int {
        try coffer(["transactions", "--store", store, "--format", "ndjson"]).stdout.split(separator: "\n").count
    }

    @Test(arguments: [true, false]) func theCardsOFXAndCSVAreOneAccount(ofxFirst: Bool) throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        let ofx = try Self.write(folder, "amex.ofx", Self.ofx(number: "379900000071004", idPrefix: "A"))
        let csv = try Self.write(folder, "activity.csv", Self.csv)
        let (first, second) = ofxFirst ? (ofx, csv) : (csv, ofx)
        let one = try coffer(["import", "--store", store, first])
        #expect(one.status == 0 && one.stderr.isEmpty, "\(one.stderr)")
        // Not a terminal: landing on the stored account is said only in the summary, not on stderr.
        let two = try coffer(["import", "--store", store, second])
        #expect(two.status == 0 && two.stderr.isEmpty && two.stdout.isEmpty, "\(two.stdout)\(two.stderr)")
        #expect(try Self.accounts(store).count == 1)
        #expect(try Self.transactionCount(store) == 3)

        let again = try jsonObject(try coffer(["import", "--store", store, "--force", "--json", first]).stdout)
        let files = try #require(again["files"] as? [[String: Any]] ?? (again["reports"] as? [[String: Any]]))
        #expect(files.first?["inserted"] as? Int == 0)
        #expect((files.first?["warnings"] as? [String])?.contains { $0.contains("alias") } == false)
        #expect(try coffer(["doctor", "--store", store]).status == 0)
    }

    @Test func twoCardsEndingInTheSameDigitsAreNamedAndAccountChooses() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, try Self.write(folder, "gold.ofx", Self.ofx(number: "379900000071004", idPrefix: "G")),
                            try Self.write(folder, "green.ofx", Self.ofx(number: "379922222221004", idPrefix: "N"))]).status == 0)
        let cards = try Self.accounts(store).compactMap { $0["id"] as? String }
        #expect(cards.count == 2)
        let csv = try Self.write(folder, "activity.csv", Self.csv)

        let failed = try coffer(["import", "--store", store, csv])
        #expect(failed.status == 1)
        for id in cards { #expect(failed.stderr.contains(id), "\(failed.stderr)") }
        #expect(failed.stderr.contains("activity.csv") && failed.stderr.contains("--account ID"), "\(failed.stderr)")
        #expect(try Self.transactionCount(store) == 6)
        #expect(try coffer(["imports", "--store", store, "--format", "json"]).stdout.contains("activity.csv") == false)

        let chosen = try coffer(["import", "--store", store, "--account", cards[1], csv])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(try Self.transactionCount(store) == 6)
        #expect(try Self.accounts(store).count == 2)
        // Remembered: the next export lands there without --account.
        let april = try Self.write(folder, "activity-04.csv", "Date,Description,Amount\n04/02/2026,\"CITY PARKING GARAGE\",23.40\n")
        #expect(try coffer(["import", "--store", store, april]).status == 0)
        let rows = try coffer(["transactions", "--store", store, "--account", cards[1], "--format", "ndjson"]).stdout
        #expect(rows.split(separator: "\n").count == 4)
    }
}
