import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Malformed camt input throws `CofferError` with a position, and never crashes.
@Suite struct CamtMalformedTests {
    typealias S = CamtTestSupport

    static let head = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        + #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">"# + "\n<BkToCstmrStmt><Stmt><Id>S1</Id>\n"
    static let tail = "</Stmt></BkToCstmrStmt></Document>\n"
    static let goodEntry = "<Ntry><Amt Ccy=\"EUR\">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>"
        + "<BookgDt><Dt>2026-03-01</Dt></BookgDt></Ntry>\n"

    static func document(_ entries: String) -> String { head + entries + tail }

    @Test func wellFormedBaselineParses() throws {
        let events = try S.events(.string(Self.document(Self.goodEntry + Self.goodEntry)))
        #expect(S.transactions(events).count == 2)
    }

    @Test func entryWithoutAmount() throws {
        let bad = "<Ntry><CdtDbtInd>CRDT</CdtDbtInd></Ntry>\n"
        let error = try #require(S.failure(Self.document(Self.goodEntry + Self.goodEntry + bad)))
        #expect(error.code == .badInput)
        #expect(error.message.contains("Amt"))
        #expect(error.location?.element == "Document/BkToCstmrStmt/Stmt[1]/Ntry[3]")
        #expect(error.location?.line == 6)
        #expect(error.location?.file == "bad.xml")
    }

    @Test func entryWithoutIndicator() throws {
        let error = try #require(S.failure(Self.document("<Ntry><Amt Ccy=\"EUR\">1.00</Amt></Ntry>")))
        #expect(error.message.contains("CdtDbtInd"))
        #expect(error.location?.element == "Document/BkToCstmrStmt/Stmt[1]/Ntry[1]")
    }

    @Test(arguments: ["12,50", "1e3", "", "12.5.1", "EUR 12"])
    func unparseableAmount(_ amount: String) throws {
        let entry = "<Ntry><Amt Ccy=\"EUR\">\(amount)</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>"
        let error = try #require(S.failure(Self.document(Self.goodEntry + entry)))
        #expect(error.code == .badInput)
        #expect(error.location?.element == "Document/BkToCstmrStmt/Stmt[1]/Ntry[2]/Amt")
        #expect(error.location?.line == 5)
    }

    @Test(arguments: ["<Dt>2026-02-30</Dt>", "<Dt>01.03.2026</Dt>", "<DtTm>2026-03-01T25:00:00</DtTm>",
                      "<DtTm>2026-03-01T10:00:00+1</DtTm>"])
    func unparseableDateIsDroppedWithAWarning(_ date: String) throws {
        // BookgDt is optional: a malformed one is dropped, named in a warning, and the value date stands in.
        let entry = "<Ntry><Amt Ccy=\"EUR\">1</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt>\(date)</BookgDt>"
            + "<ValDt><Dt>2026-03-02</Dt></ValDt></Ntry>"
        let events = try S.events(.string(Self.document(entry)))
        let tx = try #require(S.transactions(events).first)
        #expect(tx.transactionDate?.description == "2026-03-02")
        #expect(tx.postedDate == nil)
        let warning = try #require(S.warnings(events).first)
        #expect(warning.message.contains("ignored"))
        #expect(warning.location.element?.hasPrefix("Document/BkToCstmrStmt/Stmt[1]/Ntry[1]/BookgDt/Dt") == true)
    }

    @Test func anEntryWhoseDatesAreAllUnreadableFails() throws {
        // A date that is there but wrong is not "no date": the day is unknown, so the file fails at the entry.
        let entry = "<Ntry><Amt Ccy=\"EUR\">1</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>01.03.2026</Dt></BookgDt>"
            + "<ValDt><Dt>01.03.2026</Dt></ValDt></Ntry>"
        let error = try #require(S.failure(Self.document(entry)))
        #expect(error.message.contains("readable booking or value date"))
        #expect(error.location?.element == "Document/BkToCstmrStmt/Stmt[1]/Ntry[1]")
    }

    @Test func anEmptyTxDtlsNeitherMakesABatchNorHidesTheDetail() throws {
        let entry = "<Ntry><Amt Ccy=\"EUR\">12</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-03-01</Dt></BookgDt>"
            + "<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Bakery Jansen</Nm></Cdtr></RltdPties></TxDtls><TxDtls/></NtryDtls></Ntry>"
        let events = try S.events(.string(Self.document(entry)))
        #expect(S.transactions(events).map(\.name) == ["Bakery Jansen"])
        #expect(S.warnings(events).isEmpty)
    }

    @Test func aLowercaseCurrencyIsTheSameCurrency() throws {
        let entries = "<Ntry><Amt Ccy=\"eur\">1</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-03-01</Dt></BookgDt></Ntry>"
            + "<Ntry><Amt Ccy=\"EUR\">2</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-03-01</Dt></BookgDt></Ntry>"
        let events = try S.events(.string(Self.document(entries)))
        #expect(events.filter { if case .begin = $0 { true } else { false } }.count == 1)
        #expect(S.transactions(events).map(\.currencyCode) == ["EUR", "EUR"])
    }

    @Test func badIndicator() throws {
        let entry = "<Ntry><Amt Ccy=\"EUR\">1</Amt><CdtDbtInd>CREDIT</CdtDbtInd></Ntry>"
        let error = try #require(S.failure(Self.document(entry)))
        #expect(error.message.contains("CRDT or DBIT"))
    }

    @Test func truncatedMidElement() throws {
        let full = Self.document(Self.goodEntry + Self.goodEntry)
        for cut in [full.count / 3, full.count / 2, full.count - 20, full.count - 3] {
            let error = try #require(S.failure(String(full.prefix(cut))), "cut at \(cut)")
            #expect(error.code == .badInput)
            #expect(error.location?.line != nil)
        }
    }

    @Test func wrongNesting() throws {
        let text = Self.head + "<Ntry><Amt Ccy=\"EUR\">1</CdtDbtInd></Ntry>" + Self.tail
        let error = try #require(S.failure(text))
        #expect(error.code == .badInput)
        #expect(error.message.contains("nest") || error.message.contains("end tag"), "\(error)")
        #expect(error.location?.line == 4)
    }

    @Test(arguments: ["not xml at all", "", "OFXHEADER:100\nDATA:OFXSGML\n<OFX>", "{\"json\": true}"])
    func notXML(_ text: String) throws {
        let error = try #require(S.failure(text))
        #expect(error.code == .badInput)
        #expect(error.location?.line == 1)
    }

    @Test func billionLaughsIsRefusedUpFront() throws {
        var dtd = "<!DOCTYPE Document [\n<!ENTITY l0 \"ha\">\n"
        for i in 1...10 { dtd += "<!ENTITY l\(i) \"" + String(repeating: "&l\(i - 1);", count: 10) + "\">\n" }
        dtd += "]>\n"
        let text = #"<?xml version="1.0"?>"# + "\n" + dtd
            + #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>&l10;</Id>"#
            + Self.tail
        let error = try #require(S.failure(text))
        #expect(error.code == .badInput)
        #expect(error.message.contains("DTD"))
        #expect(error.location?.line == 2)
    }

    @Test func externalEntityIsRefused() throws {
        let text = #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#
            + #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">&x;</Document>"#
        #expect(S.failure(text)?.code == .badInput)
    }

    @Test func deeplyNested() throws {
        let deep = String(repeating: "<X>", count: 300) + String(repeating: "</X>", count: 300)
        let error = try #require(S.failure(Self.document(deep)))
        #expect(error.code == .badInput)
        #expect(error.message.contains("deeper than 256"))
        #expect(error.location?.element?.hasPrefix("Document/BkToCstmrStmt/Stmt[1]/X/X") == true)
    }

    @Test(arguments: ["urn:iso:std:iso:20022:tech:xsd:camt.099.001.02", "urn:example:bank:statement",
                      "urn:iso:std:iso:20022:tech:xsd:camt.053.001.00", "urn:iso:std:iso:20022:tech:xsd:pain.002.001.03"])
    func unknownNamespace(_ namespace: String) throws {
        let text = "<?xml version=\"1.0\"?>\n<Document xmlns=\"\(namespace)\"><BkToCstmrStmt/></Document>"
        let error = try #require(S.failure(text))
        #expect(error.code == .unknownFormat)
        #expect(error.message.contains(namespace))
        #expect(error.location?.line == 2)
        #expect(error.location?.element == "Document")
    }

    @Test func noNamespaceAtAll() throws {
        let error = try #require(S.failure("<Document><BkToCstmrStmt/></Document>"))
        #expect(error.code == .unknownFormat)
        #expect(error.message.contains("no namespace"))
    }

    @Test func noDocumentElement() throws {
        let error = try #require(S.failure("<Other><Thing/></Other>"))
        #expect(error.code == .badInput)
    }

    @Test func emitErrorPropagatesUnchanged() throws {
        struct Stop: Error, Equatable {}
        var seen = 0
        #expect(throws: Stop.self) {
            try CamtParser().parse(.string(Self.document(Self.goodEntry + Self.goodEntry))) { event in
                seen += 1
                if case .transaction = event { throw Stop() }
            }
        }
        #expect(seen == 2)  // .begin, then the first transaction; nothing after the throw
    }

    @Test func negativeAmountIsReadAsTheOtherDirectionWithAWarning() throws {
        let entry = "<Ntry><Amt Ccy=\"EUR\">-5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-03-01</Dt></BookgDt></Ntry>"
        let events = try S.events(.string(Self.document(entry)))
        let tx = try #require(S.transactions(events).first)
        #expect(tx.amount == 5)
        #expect(tx.indicator == .debit)
        #expect(S.warnings(events).count == 1)
    }

    /// Every prefix of a sample either parses or throws a `CofferError`: never a crash, never another error.
    @Test func everyPrefixOfASampleFailsCleanly() throws {
        let data = try Data(contentsOf: S.feeds.appendingPathComponent("nl-053-v08.xml"))
        let bytes = [UInt8](data)
        for cut in stride(from: 0, to: bytes.count, by: 97) {
            do {
                _ = try S.events(.bytes(Array(bytes.prefix(cut)), name: "cut.xml"))
                Issue.record("a file cut at \(cut) of \(bytes.count) bytes parsed without error")
            } catch is CofferError {
            } catch {
                Issue.record("unexpected error type at \(cut): \(error)")
            }
        }
    }
}
