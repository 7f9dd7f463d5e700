import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Each malformed input throws `.badInput` with file, line and column, and never crashes.
@Suite struct CSVBadInputTests {
    static let yaml = """
        id: test-bank
        institution: Test Bank
        match: { header: [Date, Description, Amount] }
        date_format: MM/dd/yyyy
        columns: { date: Date, description: Description, amount: Amount }
        account: { number: "1234", kind: asset, currency: USD }
        """

    func parse(_ text: String, yaml: String = yaml) throws -> [StatementEvent] {
        try CSVTestSupport.events(try CSVTestSupport.profile(yaml: yaml), .string(text, name: "bank.csv"))
    }

    func failure(_ text: String, yaml: String = yaml) -> CofferError? {
        CSVTestSupport.error { _ = try parse(text, yaml: yaml) }
    }

    @Test func badDateNamesLineAndColumn() throws {
        let error = failure("Date,Description,Amount\n03/01/2026,Coffee,4.50\n13/45/2026,Tea,3.00\n03/02/2026,Cake,5\n")
        #expect(error?.code == .badInput)
        #expect(error?.description == "bank.csv:3:1: expected a date like MM/dd/yyyy in 'Date', found '13/45/2026'")
    }

    @Test func badAmountNamesLineAndColumn() throws {
        let error = failure("Date,Description,Amount\n03/01/2026,Coffee,4.5O\n")
        #expect(error?.description == "bank.csv:2:3: expected an amount like -1,234.56 in 'Amount', found '4.5O'")
    }

    @Test func badDateOnTheLastRowIsNotAFooter() throws {
        let error = failure("Date,Description,Amount\n03/01/2026,Coffee,4.50\n02/30/2026,Tea,3.00\n")
        #expect(error?.location?.line == 3)
    }

    @Test func footerAfterDataIsIgnoredButNotBeforeIt() throws {
        let events = try parse("Date,Description,Amount\n03/01/2026,Coffee,4.50\n\nClosing balance,,104.50\nTotal,,4.50\n")
        #expect(CSVTestSupport.transactions(events).count == 1)
        let error = failure("Date,Description,Amount\n03/01/2026,Coffee,4.50\nClosing balance,,104.50\n03/02/2026,Tea,3\n")
        #expect(error?.location?.line == 3)
    }

    @Test func truncatedFiles() throws {
        let quote = failure("Date,Description,Amount\n03/01/2026,\"Coffee at\n")
        #expect(quote?.location?.line == 2)
        #expect(quote?.message.contains("never closed") == true)
        let short = failure("Date,Description,Amount\n03/01/2026,Coffee,4.50\n03/02/2026,Tea")
        #expect(short?.description == "bank.csv:3:3: the row has 2 cells but the header has 3 (truncated row?)")
    }

    @Test func extraNonEmptyCellsAreRefusedEmptyOnesAllowed() throws {
        #expect(try CSVTestSupport.transactions(parse("Date,Description,Amount\n03/01/2026,Coffee,4.50,,\n")).count == 1)
        let error = failure("Date,Description,Amount\n03/01/2026,Coffee, large,4.50\n")
        #expect(error?.location?.line == 2)
    }

    @Test func emptyBinaryUTF16AndUnknownLayout() throws {
        #expect(failure("")?.description.hasPrefix("bank.csv:1:1: the file is empty") == true)
        #expect(failure("\u{FEFF}\n\n  \n")?.message.hasPrefix("the file is empty") == true)
        let binary = CSVTestSupport.error {
            _ = try CSVTestSupport.events(try CSVTestSupport.profile(yaml: Self.yaml),
                                          .bytes([0x44, 0x61, 0x74, 0x65, 0x0A, 0x50, 0x4B, 0x03, 0x04, 0x00, 0x00], name: "bank.csv"))
        }
        #expect(binary?.location?.line == 2)
        #expect(binary?.message.contains("binary") == true)
        // UTF-16 with a byte order mark (Excel's "Unicode text") is converted and read; one that is only "D" has
        // no header row, like any other file.
        let utf16 = CSVTestSupport.error {
            _ = try CSVTestSupport.events(try CSVTestSupport.profile(yaml: Self.yaml), .bytes([0xFF, 0xFE, 0x44, 0x00], name: "bank.csv"))
        }
        #expect(utf16?.message.contains("no header row") == true)
        // With a byte order mark or without (a header's first characters are ASCII beside zero bytes).
        for (bom, littleEndian) in [([UInt8(0xFF), 0xFE], true), ([0xFE, 0xFF], false), ([], true), ([], false)] {
            let text = "Date,Description,Amount\r\n03/01/2026,Café Zoë,-4.50\r\n"
            let units = text.utf16.flatMap { littleEndian ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            let events = try CSVTestSupport.events(try CSVTestSupport.profile(yaml: Self.yaml),
                                                   .bytes(bom + units, name: "bank.csv"))
            let tx = try #require(CSVTestSupport.transactions(events).first)
            #expect(tx.name == "Café Zoë")
            #expect(tx.amount == Decimal(string: "-4.50"))
        }
        let unknown = failure("When,What,How much\n03/01/2026,Coffee,4.50\n")
        #expect(unknown?.description.hasPrefix("bank.csv:1: no header row with 'Date', 'Description', 'Amount'") == true)
    }

    /// NUL padding after the last row (a block-sized copy, or a download cut short and padded): the rows are read
    /// and a warning a person sees says to check the download. NUL bytes anywhere else are binary data.
    @Test func nulPaddingAfterTheLastRowEndsTheFile() throws {
        let text = "Date,Description,Amount\r\n03/01/2026,Coffee,-4.50\r\n03/02/2026,Tea,-3.00\r\n"
        for padding in ["\0", String(repeating: "\0", count: 5000), "\u{1A}\0\0\r\n\0"] {
            let events = try parse(text + padding)
            #expect(CSVTestSupport.transactions(events).map(\.name) == ["Coffee", "Tea"])
            let warning = CSVTestSupport.warnings(events).first { $0.message.contains("NUL padding") }
            #expect(warning?.needsAttention == true, "\(CSVTestSupport.warnings(events))")
            // The reader, in chunks that cut the padding anywhere.
            for chunkSize in [1, 7, 64] {
                let reader = try CSVRecordReader(input: .string(text + padding), delimiter: UInt8(ascii: ","), chunkSize: chunkSize)
                var records = 0
                while try reader.next() { records += 1 }
                #expect(records == 3 && reader.paddingAtEnd == padding.utf8.count, "chunks of \(chunkSize)")
            }
        }
        #expect(failure(text + "\003/03/2026,Cake,-1.00\r\n")?.message.contains("NUL byte") == true)
        #expect(failure("Date,Description,Amount\r\n03/01/2026,Cof\0fee,-4.50\r\n")?.message.contains("NUL byte") == true)
        #expect(failure(text + "\0\0x")?.message.contains("NUL byte") == true)
    }

    @Test func skipBadRowsWarnsForEachSkippedRow() throws {
        let events = try parse("Date,Description,Amount\n03/01/2026,Coffee,4.50\n13/45/2026,Tea,3\n03/02/2026,Cake,x\n03/03/2026,Pie,2\n",
                               yaml: Self.yaml + "\nskip_bad_rows: true")
        #expect(CSVTestSupport.transactions(events).map(\.name) == ["Coffee", "Pie"])
        let warnings = CSVTestSupport.warnings(events)
        #expect(warnings.map { $0.location.line } == [3, 4])
        #expect(warnings.map { $0.location.column } == [1, 3])
        #expect(warnings.first?.message == "skipped the row: expected a date like MM/dd/yyyy in 'Date', found '13/45/2026'")
    }

    @Test func invalidUTF8UnderAUTF8ProfileFallsBackWithOneWarning() throws {
        var bytes = Array("Date,Description,Amount\n03/01/2026,Caf".utf8) + [0xE9] + Array(",4.50\n03/02/2026,".utf8)
        bytes += [0x80] + Array(" Stra".utf8) + [0xDF, 0x65] + Array(",1\n".utf8)
        let events = try CSVTestSupport.events(try CSVTestSupport.profile(yaml: Self.yaml), .bytes(bytes, name: "bank.csv"))
        #expect(CSVTestSupport.transactions(events).map(\.name) == ["Café", "€ Straße"])
        let warnings = CSVTestSupport.warnings(events)
        #expect(warnings.count == 1)
        #expect(warnings.first?.location.line == 2)
    }

    @Test func garbageNeverCrashes() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789,;\"\r\n./-()$€ abcDateDescriptionAmount".utf8)
        for _ in 0..<300 {
            let count = Int.random(in: 0..<200, using: &generator)
            let body = (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? 0x20 }
            let bytes = Array("Date,Description,Amount\n".utf8) + body
            do { _ = try CSVTestSupport.events(try CSVTestSupport.profile(yaml: Self.yaml), .bytes(bytes, name: "fuzz.csv")) } catch let error as CofferError {
                #expect(error.code == .badInput)
                #expect(error.location?.line != nil)
            }
        }
    }
}
