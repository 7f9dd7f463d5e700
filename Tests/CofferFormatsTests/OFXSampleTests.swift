import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Each sample statement in feeds/ofx parses to exactly the events it should.
@Suite struct OFXSampleTests {
    typealias T = OFXTest

    @Test func bankSGMLWithCharset1252() throws {
        let events = try T.events(T.sample("bank-ofx1-sgml.ofx"))
        #expect(T.shape(events) == ["begin", "tx", "tx", "tx", "tx", "balance", "balance", "end"])
        let header = try #require(T.headers(events).first)
        var expected = RawAccountIdentity(
            institutionName: "Maple Ridge Bank", institutionID: "021000099", accountNumber: "000123456789",
            accountType: "CHECKING", kind: .asset, currencyCode: "USD")
        expected.otherInstitutionID = "10398"   // the FID, beside the BANKID
        #expect(header.account == expected)
        #expect(header.periodStart == T.day("2026-03-01"))
        #expect(header.periodEnd == T.day("2026-03-15"))
        let txs = T.transactions(events)
        #expect(txs.map(\.amount) == ["-4.50", "2150.00", "-120.00", "-12.00"].map(T.decimal))
        #expect(txs.map(\.externalID) == ["MRB2026030201", "MRB2026030501", "MRB2026030901", "MRB2026031401"])
        #expect(txs.map(\.transactionType) == [.pointOfSale, .directDeposit, .check, .fee])
        #expect(txs.map(\.typeCode) == ["POS", "DIRECTDEP", "CHECK", "SRVCHG"])
        #expect(txs[0].name == "Café Müller")
        #expect(txs[0].memo == "Card 1234 purchase")
        #expect(txs[0].postedDate == T.instant("2026-03-02T17:00:00Z", offset: -5))
        #expect(txs[0].transactionDate == T.day("2026-03-01"))
        #expect(txs[1].transactionDate == T.day("2026-03-05"))
        #expect(txs[2].checkNumber == "1042")
        #expect(txs.allSatisfy { $0.indicator == nil && $0.status == nil && $0.currencyCode == "USD" })
        #expect(txs[2].location.element == "OFX/BANKMSGSRSV1/STMTTRNRS/STMTRS/BANKTRANLIST/STMTTRN[3]")
        #expect(txs[2].location.line == 60)
        let balances = T.balances(events)
        #expect(balances.map(\.kind) == [.booked, .available])
        #expect(balances.map(\.amount) == [T.decimal("3013.50"), T.decimal("2963.50")])
        #expect(balances[0].asOf == T.day("2026-03-15"))
        #expect(balances[1].asOf == T.instant("2026-03-15T13:30:00Z", offset: -5))
    }

    @Test func creditCardXMLWithSICAndIntuitTags() throws {
        let events = try T.events(T.sample("creditcard-ofx2.qfx"))
        #expect(T.shape(events) == ["begin", "tx", "tx", "tx", "tx", "balance", "balance", "end"])
        let header = try #require(T.headers(events).first)
        #expect(header.account == RawAccountIdentity(
            institutionName: "Harbor Card Services", institutionID: "7788", accountNumber: "4000111122223333",
            accountType: "CREDITCARD", kind: .liability, currencyCode: "USD"))
        #expect(header.periodStart == T.instant("2026-03-01T08:00:00Z", offset: -8))
        #expect(header.periodEnd == T.instant("2026-04-01T07:59:59Z", offset: -8))
        let txs = T.transactions(events)
        #expect(txs.map(\.amount) == ["-63.27", "-18.40", "500.00", "18.40"].map(T.decimal))
        #expect(txs.map(\.merchantCategoryCode) == [MerchantCategoryCode(rawValue: 5411),
                                                    MerchantCategoryCode(rawValue: 5812), nil,
                                                    MerchantCategoryCode(rawValue: 5812)])
        #expect(txs.map(\.transactionType) == [nil, nil, .billPayment, nil])
        #expect(txs.map(\.name) == ["Greenleaf Market #114", "Blue Door Bistro", "Payment - thank you",
                                    "Blue Door Bistro refund"])
        #expect(txs[0].transactionDate == T.day("2026-03-02"))
        #expect(txs[0].postedDate == T.day("2026-03-03"))
        #expect(T.balances(events).map(\.amount) == [T.decimal("-1245.87"), T.decimal("3754.13")])
    }

    @Test func twoAccountsInOneFile() throws {
        let events = try T.events(T.sample("multi-account.ofx"))
        #expect(T.shape(events) == ["begin", "tx", "tx", "balance", "end", "begin", "tx", "tx", "balance", "end"])
        let headers = T.headers(events)
        #expect(headers.map(\.account.accountNumber) == ["DE00550011220000001111", "DE00550011220000002222"])
        #expect(headers.map(\.account.accountType) == ["CHECKING", "SAVINGS"])
        #expect(headers.allSatisfy { $0.account.institutionName == "Lindenhof Sparkasse" && $0.account.currencyCode == "EUR" })
        #expect(headers[1].location.element == "OFX/BANKMSGSRSV1/STMTTRNRS[2]/STMTRS")
        let txs = T.transactions(events)
        #expect(txs.map(\.amount) == ["-89.90", "-500.00", "500.00", "1.37"].map(T.decimal))
        #expect(txs[1].name == "Übertrag Sparkonto")
        #expect(txs.map(\.transactionType) == [nil, .transfer, .transfer, .interest])
        #expect(T.balances(events).map(\.amount) == [T.decimal("1210.10"), T.decimal("10501.37")])
    }

    @Test func quirksAllAtOnce() throws {
        let events = try T.events(T.sample("quirks.ofx"))
        // <BANKACCTFROM> closed by </BANKACCTTO> is read as its end, with a warning naming both.
        #expect(T.shape(events) == ["warning", "begin", "tx", "tx", "tx", "balance", "end"])
        #expect(T.warnings(events).first?.message.contains("found </BANKACCTTO>") == true)
        let header = try #require(T.headers(events).first)
        #expect(header.account.institutionName == "Quill & Ledger Credit Union")
        #expect(header.account.institutionID == "314159265")
        #expect(header.account.accountNumber == "77-0042-1")
        #expect(header.account.accountType == "SAVINGS")
        let txs = T.transactions(events)
        #expect(txs.map(\.amount) == ["-25.00", "100", "-60"].map(T.decimal))
        #expect(txs.map(\.name) == ["Smith & Sons Hardware", "R&D <Refund> Dept", "ATM Main St"])
        #expect(txs.map(\.memo) == [nil, "Tom & Jerry", nil])
        #expect(txs.map(\.externalID) == ["QL-1", "QL-2", "QL-3"])
        #expect(txs.allSatisfy { $0.location.line == 1 })
        #expect(T.balances(events).first?.amount == T.decimal("1015.00"))
    }

    @Test func correctionsAndDuplicateFITIDs() throws {
        let events = try T.events(T.sample("corrections.ofx"))
        // The repeated FITID reaches the import as sent; its normalize stage warns (for every format alike:
        // see PrepareStageTests and feeds/ofx/corrections.ofx.expected.json).
        #expect(T.shape(events) == ["begin", "tx", "tx", "tx", "tx", "balance", "end"])
        let txs = T.transactions(events)
        #expect(txs[0].correction == RawCorrection(action: .replace, targetID: "CVB-0419-3"))
        #expect(txs[1].correction == RawCorrection(action: .delete, targetID: "CVB-0418-2"))
        #expect(txs[2].correction == nil)
        #expect(txs[2].externalID == txs[3].externalID)
        #expect(txs[3].location.element?.hasSuffix("STMTTRN[4]") == true)
    }

    @Test func foreignCurrencies() throws {
        let events = try T.events(T.sample("foreign.ofx"))
        let txs = T.transactions(events)
        #expect(txs.count == 2)
        // ORIGCURRENCY: TRNAMT is already in USD; 108.50 USD at 1.0850 USD per EUR was 100.00 EUR.
        #expect(txs[0].amount == T.decimal("-108.50"))
        #expect(txs[0].currencyCode == "USD")
        #expect(txs[0].foreignAmount == T.decimal("100.00"))
        #expect(txs[0].foreignCurrencyCode == "EUR")
        #expect(txs[0].exchangeRate == T.decimal("1.085"))
        #expect(txs[0].merchantCategoryCode == MerchantCategoryCode(rawValue: 7011))
        // CURRENCY: TRNAMT is in GBP; 40.00 GBP at 1.25 USD per GBP is 50.00 USD.
        #expect(txs[1].amount == T.decimal("-50.00"))
        #expect(txs[1].currencyCode == "USD")
        #expect(txs[1].foreignAmount == T.decimal("40.00"))
        #expect(txs[1].foreignCurrencyCode == "GBP")
        #expect(txs[1].exchangeRate == T.decimal("1.25"))
        #expect(T.headers(events).first?.account.kind == .liability)
    }

    @Test func investmentCashOnlyWithWarning() throws {
        let events = try T.events(T.sample("investment.ofx"))
        #expect(T.shape(events) == ["begin", "tx", "tx", "warning", "end"])
        let header = try #require(T.headers(events).first)
        #expect(header.account.kind == .asset)
        #expect(header.account.accountNumber == "BB-900123")
        #expect(header.account.institutionID == "beacon.example")
        #expect(header.periodEnd == T.day("2026-06-30"))
        let txs = T.transactions(events)
        #expect(txs.map(\.amount) == [T.decimal("1000.00"), T.decimal("0.84")])
        #expect(txs.map(\.transactionType) == [.deposit, .interest])
        #expect(txs[0].location.element == "OFX/INVSTMTMSGSRSV1/INVSTMTTRNRS/INVSTMTRS/INVTRANLIST/INVBANKTRAN[1]/STMTTRN[1]")
        let warning = try #require(T.warnings(events).first)
        #expect(warning.message.contains("1 investment transaction"))
        #expect(warning.message.contains("1 position"))
        #expect(warning.message.contains("BUYSTOCK"))
        #expect(warning.message.contains("POSSTOCK"))
    }

    @Test func sniffRecognisesEverySample() throws {
        for name in ["bank-ofx1-sgml.ofx", "creditcard-ofx2.qfx", "multi-account.ofx", "quirks.ofx",
                     "corrections.ofx", "foreign.ofx", "investment.ofx"] {
            #expect(OFXParser.sniff(try T.sample(name).prefix(1024)), "\(name)")
        }
    }
}
