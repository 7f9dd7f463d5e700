import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// The parts of the MT940 reader one at a time: the account, dates, the `:61:` line, the `:86:` structure, line
/// ends, MT942 reports and the checks a statement gets.
@Suite struct MT940Tests {
    func statement(_ body: String, wrap: Bool = false) -> String {
        ":20:TEST\n:25:12030000/202051\n:28C:1/1\n" + body + "-\n"
    }

    // MARK: :25:

    @Test(arguments: [
        ("37040044/0532013000", "DE89370400440532013000", "37040044", nil),
        ("12030000/202051", "DE02120300000000202051", "12030000", nil),
        ("12030000/0000202051EUR", "DE02120300000000202051", "12030000", "EUR"),
        ("DE89370400440532013000", "DE89370400440532013000", nil, nil),
        ("DE89 3704 0044 0532 0130 00", "DE89370400440532013000", nil, nil),
        ("NL91ABNA0417164300EUR", "NL91ABNA0417164300", nil, "EUR"),
        ("COBADEFFXXX/DE89370400440532013000", "DE89370400440532013000", "COBADEFFXXX", nil),
        ("123456789", "123456789", nil, nil),
    ] as [(String, String, String?, String?)])
    func accountFieldBecomesAnIdentityOtherFormatsShare(text: String, number: String, bank: String?, currency: String?) throws {
        let account = try #require(MT940Account.parse(text))
        #expect(account.number == number)
        #expect(account.institutionID == bank)
        #expect(account.currency == currency)
    }

    @Test func derivedIBANsPassTheirOwnCheck() {
        for (blz, konto) in [("10077777", "1234567890"), ("50010517", "5407324"), ("76026000", "1")] {
            let iban = MT940Account.germanIBAN(bankCode: blz, account: konto)!
            #expect(iban.count == 22)
            #expect(MT940Account.isIBAN(iban), "\(iban)")
        }
        #expect(!MT940Account.isIBAN("DE88370400440532013000"))
    }

    // MARK: :61:

    @Test func entryDateTakesTheYearNearestItsValueDate() throws {
        let late = try MT940StatementLine.parse(["2612310102D20,00NMSCNONREF"]).get()
        #expect(late.entryDate?.description == "2027-01-02")
        let early = try MT940StatementLine.parse(["2701021230C5,00NMSCNONREF"]).get()
        #expect(early.entryDate?.description == "2026-12-30")
        let none = try MT940StatementLine.parse(["260315D5,00NMSCNONREF"]).get()
        #expect(none.entryDate == nil && none.valueDate.description == "2026-03-15")
    }

    @Test(arguments: [
        ("2603150315C10,00NTRFNONREF", CreditDebitIndicator.credit, false),
        ("2603150315D10,00NTRFNONREF", .debit, false),
        ("2603150315RC10,00NTRFNONREF", .debit, true),   // a reversed credit takes the money back
        ("2603150315RD10,00NTRFNONREF", .credit, true),  // a reversed debit gives it back
        ("2603150315DR10,00NTRFNONREF", .debit, false),  // R: the funds code, the third letter of EUR
        ("2603150315CR10,NTRFNONREF", .credit, false),
    ])
    func markAndFundsCode(_ text: String, indicator: CreditDebitIndicator, reversal: Bool) throws {
        let line = try MT940StatementLine.parse([text]).get()
        #expect(line.indicator == indicator)
        #expect(line.isReversal == reversal)
        #expect(line.amount == 10)
    }

    @Test func referencesAndSupplementaryDetails() throws {
        let line = try MT940StatementLine.parse(["2603150315D1234,5NDDTKREF+0815//BANKREF-77", "MANDATE STW-1"]).get()
        #expect(line.amount == Decimal(string: "1234.5"))
        #expect(line.typeCode == "NDDT")
        #expect(line.customerReference == "KREF+0815")
        #expect(line.bankReference == "BANKREF-77")
        #expect(line.details == "MANDATE STW-1")
        #expect(MT940StatementLine.usable("NONREF") == nil)
    }

    @Test(arguments: ["2613150315D1,00NMSC", "260315X1,00NMSC", "260315D1.000,00NMSC", "260315D-1,00NMSC", "260315D1,00",
                      "260315D1,00XTRF"])
    func malformedLinesSayWhatWasExpected(_ text: String) {
        guard case .failure(let problem) = MT940StatementLine.parse([text]) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(problem.message.hasPrefix("expected"))
    }

    // MARK: :86:

    @Test func structuredInformationWithSEPAKeywords() {
        let info = MT940Information.parse([
            "105?00SEPA-BASISLASTSCHRIFT?100931?20EREF+NB-2026-03-88123?21MREF+STW-88123?22CRED+DE98ZZZ09999999999",
            "?23SVWZ+Abschlag Strom März 20?2426 Kundennr. 88123?30GENODEF1STW?31DE61100777770000088123",
            "?32Stadtwerke Beispielstadt Gm?33bH?34997",
        ])
        #expect(info.transactionCode == "105")
        #expect(info.bookingText == "SEPA-BASISLASTSCHRIFT")
        #expect(info.endToEndReference == "NB-2026-03-88123")
        #expect(info.mandateReference == "STW-88123")
        #expect(info.creditorID == "DE98ZZZ09999999999")
        #expect(info.remittance == "Abschlag Strom März 2026 Kundennr. 88123")
        #expect(info.counterpartyBIC == "GENODEF1STW")
        #expect(info.counterpartyAccount == "DE61100777770000088123")
        #expect(info.counterpartyName == "Stadtwerke Beispielstadt GmbH")
    }

    @Test func otherSeparatorsUltimatePartiesAndNoKeywords() {
        let info = MT940Information.parse(["166>00GUTSCHRIFT>20Rechnung 4711>21vom 1.3.>32Muster GmbH>20dup"])
        #expect(info.transactionCode == "166")
        #expect(info.purpose == "Rechnung 4711 vom 1.3. dup")
        #expect(info.remittance == info.purpose)
        let sepa = MT940Information.parse(["177?00ONLINE-UEBERWEISUNG?20SVWZ+Miete?21ABWE+Hausverwaltung X"])
        #expect(sepa.ultimateCreditor == "Hausverwaltung X")
        #expect(sepa.remittance == "Miete")
        let free = MT940Information.parse(["Einfacher Text ohne Struktur"])
        #expect(free.transactionCode == nil && free.remittance == "Einfacher Text ohne Struktur")
    }

    @Test func theUltimatePartyNamesAnEntryWithoutCounterparty() throws {
        let text = statement(":60F:C260301EUR10,00\n:61:2603020302D5,00NTRFNONREF\n:86:177?00ONLINE-UEBERWEISUNG?20SVWZ+Miete?21ABWE+Hausverwaltung X\n:62F:C260302EUR5,00\n")
        let tx = try #require(LineFormatTestSupport.transactions(try LineFormatTestSupport.events(MT940Parser(), .string(text))).first)
        #expect(tx.name == "Hausverwaltung X" && tx.merchantName == "Hausverwaltung X" && tx.memo == "Miete")
    }

    // MARK: Files

    /// A CR at the end of one chunk and its LF at the start of the next is one line end, at every split.
    @Test func lineEndsAtEveryChunkBoundary() throws {
        let text = ":20:A\r\n:25:12030000/202051\r\n:60F:C260301EUR10,00\r\n:61:2603020302D5,00NMSCNONREF\r\n:86:Text\r\n:62F:C260302EUR5,00\r\n-\r\n"
        let path = NSTemporaryDirectory() + "mt940-split-\(UUID().uuidString).sta"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for size in 1...12 {
            var reader = try StatementLineReader(.file(path), chunkSize: size)
            var lines: [String] = []
            while let line = try reader.next() { lines.append(reader.text(line)) }
            #expect(lines.count == 7, "chunk size \(size): \(lines)")
            #expect(lines.last == "-")
        }
    }

    @Test func anOverlongLineWithoutBreaksFailsLocated() throws {
        let input = StatementInput.bytes(Array(":20:".utf8) + Array(repeating: UInt8(ascii: "A"), count: 2 << 20), name: "huge.sta")
        #expect(throws: CofferError.self) { try LineFormatTestSupport.events(MT940Parser(), input) }
        let error = LineFormatTestSupport.failure(MT940Parser(), ":20:X\n" + String(repeating: "B", count: 1_100_000))
        #expect(error?.location?.line == 2)
    }

    @Test func anMT942ReportListsPendingEntriesAndChecksItsTotals() throws {
        let text = """
            {1:F01MUSTDEFFAXXX0000000000}{2:I942MUSTDEFFXXXXN}{4:
            :20:R1
            :25:DE02120300000000202051
            :28C:1/1
            :34F:EURD0,
            :13D:2604011412+0200
            :61:2604010401D12,80NDDTNONREF
            :86:105?00LASTSCHRIFT?32Spotify AB
            :90D:2EUR20,00
            :90C:0EUR0,
            -}
            """
        let events = try LineFormatTestSupport.events(MT940Parser(), .string(text))
        let header = try #require(LineFormatTestSupport.headers(events).first)
        #expect(header.listsPending)
        #expect(header.asOf?.utcOffset == 7200)
        #expect(LineFormatTestSupport.transactions(events).allSatisfy { $0.status == .pending })
        let warnings = LineFormatTestSupport.warnings(events)
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains(":90D: says 2 debit entries of 20.00 EUR, the message lists 1 of 12.80 EUR") == true)
        #expect(warnings.first?.needsAttention == true)
    }

    @Test func aFileWithoutStatementsIsNotAStatement() {
        let error = LineFormatTestSupport.failure(MT940Parser(), "ABNANL2A\n940\nABNANL2A\n")
        #expect(error?.message.contains("found none") == true)
        #expect(error?.location?.file == "bad.txt")
    }

    @Test func sniffRecognisesMT940AndNothingElse() {
        func sniff(_ text: String) -> Bool { MT940Parser.sniff(Array(text.utf8)) }
        #expect(sniff(":20:STARTUMSE\r\n:25:12030000/202051\r\n:28C:1/1\r\n"))
        #expect(sniff("{1:F01X}{2:I940X}{4:\n:20:A\n:25:B\n:60F:C260101EUR1,\n"))
        #expect(sniff("ABNANL2A\n940\nABNANL2A\n:20:ABN\n:25:NL91ABNA0417164300\n:28:1\n"))
        #expect(!sniff("Date,Description,Amount\n2026-01-01,:20:,1\n"))
        #expect(!sniff(":20:only a reference\n"))
        #expect(!sniff("!Type:Bank\nD1/2'26\n"))
    }
}
