import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// What a user would notice in each sample: amounts, directions, dates, ids, texts, types, balances, warnings.
@Suite struct CamtSampleTests {
    typealias S = CamtTestSupport

    @Test func germanStatementVersion02() throws {
        let events = try S.sample("de-musterbank-053-v02.xml")
        let header = try #require(S.headers(events).first)
        #expect(header.account.accountNumber == "DE02120300000000202051")
        #expect(header.account.institutionID == "MUBADEFFXXX")
        #expect(header.account.institutionName == "Musterbank Köln eG")
        #expect(header.account.displayName == "Girokonto Jürgen Größmann")
        #expect(header.account.kind == .asset)
        #expect(header.statementID == "2026-03-31-00042")
        #expect(header.periodStart?.date == Date(timeIntervalSince1970: 1_772_319_600)) // 2026-03-01T00:00+01:00
        let txs = S.transactions(events)
        #expect(txs.count == 8)
        #expect(txs.map(\.transactionType) == [.directDeposit, .directDebit, .pointOfSale, .atm, .standingOrder,
                                                .transfer, .interest, .fee])
        let salary = txs[0]
        #expect(salary.amount == Decimal(string: "2850.00"))
        #expect(salary.indicator == .credit)
        #expect(salary.externalID == "2026030200000117")
        #expect(salary.merchantName == "Müller & Söhne Feinmechanik GmbH")
        #expect(txs[1].memo == "Abschlag Strom März 2026 Vertragskonto 4711-0815")
        let card = txs[2]
        #expect(card.transactionDate?.description == "2026-03-05T07:14:31Z")
        #expect(card.postedDate == RawDate.day(year: 2026, month: 3, day: 6))
        #expect(txs[3].name == "Bargeldauszahlung GA Köln Hbf")
        #expect(S.balances(events).map(\.code) == ["OPBD", "CLBD", "CLAV"])
        #expect(S.balances(events).map(\.kind) == [.booked, .booked, .available])
        #expect(S.warnings(events).isEmpty)
        guard case .end = try #require(events.last) else { Issue.record("expected .end last"); return }
    }

    @Test func dutchVersion08WithPrefixesAndReversal() throws {
        let events = try S.sample("nl-053-v08.xml")
        let txs = S.transactions(events)
        #expect(txs.map(\.status) == [.booked, .booked, .booked, .booked])
        #expect(txs[0].externalID == "VB20260312A0001")  // TxDtls AcctSvcrRef beats NtryRef "0001"
        #expect(txs[0].postedDate?.isDateOnly == false)
        #expect(txs[0].merchantName == "P. Jansen")     // Dbtr/Pty/Nm on a credit
        let reversal = txs[2]
        #expect(reversal.isReversal)
        #expect(reversal.indicator == .credit)          // the bank's own direction is kept
        #expect(reversal.merchantName == "Sportschool De Waag")
        #expect(txs[3].externalID == "0004")
        #expect(txs[3].typeCode == "NTRF")
        #expect(txs[3].transactionType == .transfer)
        let closing = try #require(S.balances(events).last)
        #expect(closing.asOf.isDateOnly == false)
        #expect(S.balances(events).first?.indicator == .debit)
        #expect(S.warnings(events).isEmpty)             // PRCD −100 + 165.25 = CLBD 65.25
    }

    @Test func intradayReportWithPendingEntries() throws {
        let events = try S.sample("intraday-052-v08.xml")
        let txs = S.transactions(events)
        #expect(txs.map(\.status) == [.pending, .pending, .booked, .memo])
        #expect(txs[0].postedDate == nil)
        #expect(txs[0].transactionDate?.description == "2026-03-17T10:23:05Z")
        #expect(txs[1].transactionDate == RawDate.day(year: 2026, month: 3, day: 18))
        #expect(S.balances(events).map(\.kind) == [.booked, .available])
        #expect(S.balances(events).map(\.code) == ["ITBD", "ITAV"])
    }

    @Test func debitNotification() throws {
        let events = try S.sample("debit-notification-054-v02.xml")
        #expect(S.headers(events).first?.account.accountNumber == "0004711815")
        let tx = try #require(S.transactions(events).first)
        #expect(tx.currencyCode == "CHF")
        #expect(tx.indicator == .debit)
        #expect(tx.externalID == "NTF-0007-1")
    }

    @Test func twoStatementsTwoAccounts() throws {
        let events = try S.sample("two-accounts-053-v04.xml")
        let headers = S.headers(events)
        #expect(headers.map(\.account.accountNumber) == ["AT611904300234573201", "5412-XXXX-XXXX-0042"])
        #expect(headers.map(\.account.kind) == [.asset, .liability])
        let ends = events.filter { if case .end = $0 { true } else { false } }
        #expect(ends.count == 2)
        #expect(S.warnings(events).isEmpty)
    }

    @Test func batchEntrySplitsOnlyWithAmountsPerTransaction() throws {
        let txs = S.transactions(try S.sample("batch-053-v02.xml"))
        #expect(txs.count == 4)
        #expect(txs.prefix(3).map(\.amount) == [1850, Decimal(string: "1755.50")!, 500])
        #expect(txs.prefix(3).map(\.externalID) == ["SAMMLER-0327-01-A", "SAMMLER-0327-01/2", "SAMMLER-0327-01/3"])
        #expect(txs[0].transactionType == .transfer)   // salary paid out is not a direct deposit
        let collective = txs[3]
        #expect(collective.amount == 96)
        #expect(collective.merchantName == nil)
        #expect(collective.name == "SEPA-Sammelgutschrift")
        #expect(collective.memo == "RE 2026-031; RE 2026-032")
    }

    @Test func foreignCurrencyCardPayment() throws {
        let tx = try #require(S.transactions(try S.sample("card-foreign-053-v06.xml")).first)
        #expect(tx.amount == Decimal(string: "92.17"))
        #expect(tx.foreignAmount == Decimal(string: "99.99"))
        #expect(tx.foreignCurrencyCode == "USD")
        #expect(tx.exchangeRate == Decimal(string: "1.0849"))
        #expect(tx.transactionDate?.description == "2026-03-18T15:05:12Z")
    }

    @Test func nonReconcilingStatementWarns() throws {
        let events = try S.sample("not-reconciling-053-v02.xml")
        #expect(S.transactions(events).count == 2)
        let warning = try #require(S.warnings(events).first)
        #expect(warning.message.contains("OPBD 100.00 EUR"))
        #expect(warning.message.contains("CLBD is 140.00 EUR"))
        #expect(warning.message.contains("difference 10.00 EUR"))
    }

    @Test func sniffAndVersion() throws {
        let nl = try StatementInput.file(S.feeds.appendingPathComponent("nl-053-v08.xml").path).prefix(4096)
        #expect(CamtParser.sniff(nl))
        #expect(CamtParser.version(nl) == "camt.053.001.08")
        let report = Array(#"<?xml version="1.0"?><Document xmlns='urn:iso:std:iso:20022:tech:xsd:camt.052.001.02'>"#.utf8)
        #expect(CamtParser.version(report) == "camt.052.001.02")
        #expect(!CamtParser.sniff(Array(#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">"#.utf8)))
        #expect(!CamtParser.sniff(Array("OFXHEADER:100\nDATA:OFXSGML".utf8)))
        #expect(!CamtParser.sniff(Array(#"<?OFX OFXHEADER="200"?><OFX>"#.utf8)))
        #expect(!CamtParser.sniff([]))
    }
}
