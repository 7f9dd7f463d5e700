import Foundation
import Testing

/// `coffer transactions --text` and `--account NAME` ignore case and diacritics (German, French, Nordic,
/// Turkish text), and take `%` and `_` literally.
@Suite struct FoldedSearchCLITests {
    static func statement() -> String {
        let rows = [("F1", "İSTANBUL KEBAP EVİ"), ("F2", "Ålesund Fiskemarked"), ("F3", "Crème Œuvre Lyon"),
                    ("F4", "Bäckerei Weiß"), ("F5", "50% OFF OUTLET"), ("F6", "5000 OFF OUTLET"), ("F7", "Kırıkkale Petrol")]
        let transactions = rows.enumerated().map { index, row in
            """
            <STMTTRN><TRNTYPE>POS<DTPOSTED>2026031\(index)<TRNAMT>-1\(index).00<FITID>\(row.0)<NAME>\(row.1)</STMTTRN>
            """
        }.joined(separator: "\n")
        return """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102
            SECURITY:NONE
            ENCODING:UTF-8
            CHARSET:NONE
            COMPRESSION:NONE
            OLDFILEUID:NONE
            NEWFILEUID:NONE

            <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260320
            <LANGUAGE>ENG<FI><ORG>Sparbank Tromsø<FID>4711</FI></SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>NOK
            <BANKACCTFROM><BANKID>12345678<ACCTID>98765432109<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260310<DTEND>20260320
            \(transactions)
            </BANKTRANLIST><LEDGERBAL><BALAMT>1000.00<DTASOF>20260320</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

            """
    }

    static func seeded() throws -> String {
        let folder = try temporaryFolder()
        try statement().write(toFile: folder + "/nordic.ofx", atomically: true, encoding: .utf8)
        let store = folder + "/s.sqlite"
        for path in ["feeds", folder + "/nordic.ofx"] {
            let run = try coffer(["import", "--store", store, path])
            #expect(run.status == 0, "\(run.stderr)")
        }
        return store
    }

    static func texts(_ store: String, _ arguments: [String]) throws -> [String] {
        let run = try coffer(["transactions", "--store", store, "--format", "json"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return try jsonArray(run.stdout).compactMap { $0["originalTransactionDescription"] as? String }
    }

    @Test func textSearchIgnoresCaseAndDiacritics() throws {
        let store = try Self.seeded()
        #expect(try Self.texts(store, ["--text", "muller"]).contains("Café Müller"))
        #expect(try Self.texts(store, ["--text", "koln"]) == ["Bargeldauszahlung GA Köln Hbf"])
        #expect(try Self.texts(store, ["--text", "CAFE MULLER"]) == ["Café Müller"])
        #expect(try Self.texts(store, ["--text", "istanbul"]) == ["İSTANBUL KEBAP EVİ"])
        #expect(try Self.texts(store, ["--text", "kebap evi"]) == ["İSTANBUL KEBAP EVİ"])
        #expect(try Self.texts(store, ["--text", "KIRIKKALE"]) == ["Kırıkkale Petrol"])
        #expect(try Self.texts(store, ["--text", "alesund"]) == ["Ålesund Fiskemarked"])
        #expect(try Self.texts(store, ["--text", "overgaard"]) == ["Björn Øvergaard"])
        #expect(try Self.texts(store, ["--text", "creme oeuvre"]) == ["Crème Œuvre Lyon"])
        #expect(try Self.texts(store, ["--text", "weiss"]) == ["Bäckerei Weiß"])
        #expect(try Self.texts(store, ["--text", "50%"]) == ["50% OFF OUTLET"])
        #expect(try Self.texts(store, ["--text", "_"]) == [])
    }

    @Test func accountSelectionIgnoresCaseAndDiacritics() throws {
        let store = try Self.seeded()
        let koln = try Self.texts(store, ["--account", "koln"])
        #expect(koln.contains("Bargeldauszahlung GA Köln Hbf"))
        #expect(try Self.texts(store, ["--account", "KLEINBETRIEB WEISS"]).contains("Selin Yılmaz"))
        // No account is named after it: the institution's name is next.
        #expect(try Self.texts(store, ["--account", "tromso"]).count == 7)
        let none = try coffer(["transactions", "--store", store, "--account", "nowhere"])
        #expect(none.status != 0 && none.stderr.contains("no account matches 'nowhere'"))
    }
}
