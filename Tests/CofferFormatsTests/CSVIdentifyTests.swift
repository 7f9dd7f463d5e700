import CofferModel
import Foundation
import Testing
@testable import CofferFormats

@Suite struct CSVIdentifyTests {
    @Test func byHeaderWhateverTheFileName() throws {
        let set = try CSVTestSupport.profiles()
        let text = try String(contentsOfFile: CSVTestSupport.feedsDirectory + "/capital-one-2026-03.csv", encoding: .utf8)
        #expect(try set.identify(.string(text, name: "download (3).csv"))?.id == "capital-one-card")
        let dkb = try Data(contentsOf: URL(fileURLWithPath: CSVTestSupport.feedsDirectory + "/dkb-giro-2026-03.csv"))
        #expect(try set.identify(.bytes([UInt8](dkb), name: "export.csv"))?.id == "dkb-giro")
    }

    @Test func headerNamesIgnoreCaseAndSpaces() throws {
        let set = try CSVTestSupport.profiles()
        let input = StatementInput.string("transaction  date,POSTED DATE, Card No. ,Description,Category,Debit,Credit\n", name: "x.csv")
        #expect(try set.identify(input)?.id == "capital-one-card")
    }

    @Test func moreSpecificSignatureWins() throws {
        // A header holding Amex's Date/Description/Amount and more: Amex only matches a smaller signature.
        let set = try CSVTestSupport.profiles()
        let header = "Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency,Local amount,Local currency,"
            + "Notes and #tags,Address,Receipt,Description,Category split\n"
        #expect(try set.identify(.string(header, name: "x.csv"))?.id == "monzo")
    }

    @Test func byFileNameForAProfileWithoutHeaderSignature() throws {
        let yaml = """
            id: name-only
            institution: Name Only Bank
            match: { file_name: "NOB-*.csv" }
            date_format: yyyy-MM-dd
            columns: { date: Booked, description: Text, amount: Sum }
            account: { number: "1", kind: asset, currency: EUR }
            """
        let set = CSVProfileSet(profiles: [try CSVTestSupport.profile(yaml: yaml)])
        let text = "Booked;Text;Sum\n2026-03-01;Coffee;-3,50\n"
        #expect(try set.identify(.string(text, name: "/tmp/nob-2026-03.CSV"))?.id == "name-only")
        #expect(try set.identify(.string(text, name: "/tmp/other.csv")) == nil)
        #expect(set.match(fileName: "NOB-1.csv", rows: [["Booked", "Text", "Sum"]])?.id == "name-only")
    }

    @Test func unknownLayoutsAndGarbageIdentifyAsNothing() throws {
        let set = try CSVTestSupport.profiles()
        #expect(try set.identify(.string("foo,bar\n1,2\n")) == nil)
        #expect(try set.identify(.string("")) == nil)
        #expect(try set.identify(.bytes([0x00, 0x01, 0x02])) == nil)
        #expect(try set.identify(.string("<?xml version=\"1.0\"?><Document/>")) == nil)
    }

    @Test func globs() {
        #expect(FileNameGlob("*Apple Card*.csv").matches("Apple Card Transactions - March 2026.CSV"))
        #expect(!FileNameGlob("*Apple Card*.csv").matches("Apple Card.txt"))
        #expect(FileNameGlob("a?c*").matches("abcdef"))
        #expect(!FileNameGlob("a*b*c*d*e*f*g").matches(String(repeating: "a", count: 200)))
    }
}
