import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// The edges of reading leniently, each a way it could store the wrong thing: a batch matched to parts that are
/// not its own, statements of one file retiring each other's pending rows, money landing in another currency's
/// account, a balance dropped by a recovery.
@Suite struct LenientEdgeTests {
    static func camt(message: String = "053", version: String = "08", account: String = "DE02120300000000202051",
                     currency: String? = "EUR", created: String = "2026-06-01T20:00:00Z", period: String? = nil,
                     _ entries: String) -> String {
        let (root, block) = message == "052" ? ("BkToCstmrAcctRpt", "Rpt") : ("BkToCstmrStmt", "Stmt")
        let ccy = currency.map { "<Ccy>\($0)</Ccy>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.\(message).001.\(version)">
            <\(root)><GrpHdr><MsgId>M1</MsgId><CreDtTm>\(created)</CreDtTm></GrpHdr>
            <\(block)><Id>S1</Id>\(period ?? "")<Acct><Id><IBAN>\(account)</IBAN></Id>\(ccy)</Acct>
            \(entries)
            </\(block)></\(root)></Document>
            """
    }

    static func batch(ref: String, amount: String, status: String = "BOOK", day: String, indicator: String = "CRDT") -> String {
        """
        <Ntry><NtryRef>\(ref)</NtryRef><Amt Ccy="EUR">\(amount)</Amt><CdtDbtInd>\(indicator)</CdtDbtInd>
        <Sts><Cd>\(status)</Cd></Sts><BookgDt><Dt>\(day)</Dt></BookgDt><NtryDtls>
        <TxDtls><Amt Ccy="EUR">60.00</Amt><RmtInf><Ustrd>Invoice A</Ustrd></RmtInf></TxDtls>
        <TxDtls><Amt Ccy="EUR">40.00</Amt><RmtInf><Ustrd>Invoice B</Ustrd></RmtInf></TxDtls>
        </NtryDtls></Ntry>
        """
    }

    // MARK: Batches an earlier version split

    @Test func aNewBatchWithTheSameReferenceIsNotMistakenForStoredParts() async throws {
        // Day 1: a batch whose details add up (split into 1/1 and 1/2). Day 2: NtryRef 1 again (it is unique only
        // within a statement), 99.50, details 60 + 40: kept whole, and a new transaction.
        let bench = try Workbench()
        #expect(try bench.importing("d1.xml", Self.camt(Self.batch(ref: "1", amount: "100.00", day: "2026-06-01"))).inserted == 2)
        let day2 = try bench.importing("d2.xml", Self.camt(created: "2026-06-02T20:00:00Z",
                                                           Self.batch(ref: "1", amount: "99.50", day: "2026-06-02")))
        #expect(day2.inserted == 1)
        #expect(try await bench.transactions().map(\.transactionAmount.amount).sorted() == [40, 60, Decimal(string: "99.5")!])
    }

    @Test func storedPendingPartsStayWhenTheBatchComesBackWhole() async throws {
        // A pending batch stored as its parts (split because it adds up), then the same pending batch reported as
        // 101.50 (charges added), kept whole: its parts are there, so it is stored already and nothing is deleted.
        let bench = try Workbench()
        let period = "<FrToDt><FrDtTm>2026-06-01T00:00:00Z</FrDtTm><ToDtTm>2026-06-01T23:59:59Z</ToDtTm></FrToDt>"
        let first = try bench.importing("p1.xml", Self.camt(message: "052", period: period,
                                                            Self.batch(ref: "B7", amount: "100.00", status: "PDNG", day: "2026-06-01", indicator: "DBIT")))
        #expect(first.inserted == 2)
        let whole = Self.batch(ref: "B7", amount: "101.50", status: "PDNG", day: "2026-06-01", indicator: "DBIT")
        let second = try bench.importing("p2.xml", Self.camt(message: "052", period: period, whole))
        #expect(second.deleted == 0)
        #expect(second.inserted == 0)
        #expect(try await bench.transactions().count == 2)
    }

    // MARK: Statements of one file

    @Test func aCurrencyPartOnAnOlderAccountDoesNotRetireTheStatementsPendingRows() async throws {
        // The a3738ee store holds the CH24… IBAN as one CHF account that also holds EUR rows. A report listing a
        // pending CHF row and a booked EUR row lands both parts on that account: the EUR part must not delete the
        // CHF pending row the main part just listed.
        let folder = NSTemporaryDirectory() + "coffer-edge-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Tests/Golden/store-a3738ee/coffer.sqlite",
                                         toPath: folder + "/coffer.sqlite")
        let store = try FinanceStore(path: folder + "/coffer.sqlite")
        let importer = Importer(store: store, configuration: try CofferConfiguration.load(directory: repositoryRoot + "/config"))
        let period = "<FrToDt><FrDtTm>2026-06-01T00:00:00Z</FrDtTm><ToDtTm>2026-06-01T23:59:59Z</ToDtTm></FrToDt>"
        let entries = """
            <Ntry><Amt Ccy="CHF">42.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts>
            <BookgDt><Dt>2026-06-01</Dt></BookgDt><AcctSvcrRef>P-CHF-1</AcctSvcrRef><AddtlNtryInf>Migros</AddtlNtryInf></Ntry>
            <Ntry><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
            <BookgDt><Dt>2026-06-01</Dt></BookgDt><AcctSvcrRef>B-EUR-1</AcctSvcrRef><AddtlNtryInf>Fee</AddtlNtryInf></Ntry>
            """
        let path = folder + "/compat.xml"
        try Self.camt(message: "052", account: "CH2400700792068568504", currency: nil, period: period, entries)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let accountsBefore = try await store.accounts(query: AccountQuery()).count
        let report = try await importer.importFile(path)
        #expect(report.status == .imported, "\(report.error?.description ?? "")")
        #expect(report.inserted == 2)
        #expect(report.deleted == 0)
        #expect(report.accountsAdded == 0)
        #expect(try await store.accounts(query: AccountQuery()).count == accountsBefore)
    }

    // MARK: Currencies

    @Test func aForeignRowStoredAfterTheUpgradeDoesNotMergeCurrencies() async throws {
        // An OFX statement of the IBAN in EUR with one USD row (CURSYM without a rate), then a camt statement of
        // the same IBAN in USD: the USD statement is its own account.
        let bench = try Workbench()
        let ofx = """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR
            <BANKACCTFROM><BANKID>1<ACCTID>DE02120300000000202051<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260601<DTEND>20260602
            <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260601<TRNAMT>-5.00<FITID>F1<NAME>Shop<CURRENCY><CURSYM>USD</CURRENCY></STMTTRN>
            </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
        #expect(try bench.importing("eur.ofx", ofx).status == .imported)
        let entry = """
            <Ntry><Amt Ccy="USD">7.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
            <BookgDt><Dt>2026-06-02</Dt></BookgDt><AcctSvcrRef>U1</AcctSvcrRef></Ntry>
            """
        let report = try bench.importing("usd.xml", Self.camt(currency: "USD", entry))
        #expect(report.accountsAdded == 1)
        #expect(report.warnings.contains { $0.contains("separate USD account") })
        #expect(try await bench.store.accounts(query: AccountQuery()).map(\.currencyCode).sorted() == ["EUR", "USD"])
    }

    @Test func theAccountOptionRefusesAnAccountInAnotherCurrency() async throws {
        let bench = try Workbench()
        _ = try bench.importing("usd.ofx", try String(contentsOfFile: repositoryRoot + "/feeds/ofx/bank-ofx1-sgml.ofx", encoding: .isoLatin1))
        let usd = try #require(try await bench.store.accounts(query: AccountQuery()).first)
        let text = try String(contentsOfFile: repositoryRoot + "/Tests/Golden/ofx-shapes/no-account-sgml-creditunion.ofx", encoding: .utf8)
            .replacingOccurrences(of: "<CURDEF>USD", with: "<CURDEF>EUR")
        let path = try bench.file("eur-noacct.ofx", text)
        let report = try await bench.importer.importFile(path, options: ImportOptions(account: .existing(usd.id)))
        #expect(report.status == .failed)
        #expect(report.error?.message.contains("is in USD") == true)
    }

    @Test func aCurdefThatIsNoCodeUsesTheStoredAccountsCurrency() async throws {
        let bench = try Workbench()
        let text = try String(contentsOfFile: repositoryRoot + "/feeds/ofx/bank-ofx1-sgml.ofx", encoding: .isoLatin1)
        #expect(try bench.importing("a.ofx", text).status == .imported)
        let broken = text.replacingOccurrences(of: "<CURDEF>USD", with: "<CURDEF>US")
        #expect(broken != text)
        let report = try bench.importing("b.ofx", broken)
        #expect(report.status == .imported, "\(report.error?.description ?? "")")
        #expect(report.inserted == 0)
        #expect(try await bench.store.accounts(query: AccountQuery()).count == 1)
        // A new account cannot take it: the message says what was wrong.
        let fresh = try Workbench()
        let refused = try fresh.importing("b.ofx", broken)
        #expect(refused.error?.message.contains("'US', which is not an ISO 4217 code") == true)
    }
}
