import CofferModel
import CofferTestSupport
import Foundation
import Testing
@testable import CofferFormats

/// The layouts a profile can describe beyond one header and one amount column: files without a header, texts
/// made of several columns, per-row rules, banner rows between data rows, fee columns, encodings iconv knows.
@Suite struct CSVLayoutTests {
    typealias S = CSVTestSupport

    static func headers(_ events: [StatementEvent]) -> [RawStatementHeader] {
        events.compactMap { if case .begin(let h) = $0 { h } else { nil } }
    }

    static func balances(_ events: [StatementEvent]) -> [RawBalance] {
        events.compactMap { if case .balance(let b) = $0 { b } else { nil } }
    }

    // MARK: Header

    @Test func headerlessFileWithPositionalColumns() throws {
        let profile = try S.profile(yaml: """
            id: plain
            institution: Plain Bank
            header: none
            delimiter: ","
            date_format: yyyy-MM-dd
            columns: {date: 1, description: 2, amount: 3}
            account: {number: "PB-000123456", kind: asset, currency: USD}
            """)
        let events = try S.events(profile, .string("2026-03-01,Coffee,-4.50\n2026-03-02,Salary,2000.00\n\n2026-03-03,Rent,-900\n", name: "p.csv"))
        let txs = S.transactions(events)
        #expect(txs.map(\.amount) == [Decimal(string: "-4.50")!, 2000, -900])
        #expect(txs.map(\.name) == ["Coffee", "Salary", "Rent"])
        #expect(txs.first?.location.line == 1)
    }

    @Test func headerlessProfileRefusesNamesAndAutoDelimiter() throws {
        let names = S.error { _ = try S.profile(yaml: """
            id: plain
            institution: Plain Bank
            header: none
            delimiter: ","
            date_format: yyyy-MM-dd
            columns: {date: Date, description: 2, amount: 3}
            account: {number: "PB-000123456", kind: asset, currency: USD}
            """) }
        #expect(names?.message.contains("columns.date") == true)
        #expect(names?.message.contains("not a column position") == true)
        let auto = S.error { _ = try S.profile(yaml: """
            id: plain
            institution: Plain Bank
            header: none
            date_format: yyyy-MM-dd
            columns: {date: 1, description: 2, amount: 3}
            account: {number: "PB-000123456", kind: asset, currency: USD}
            """) }
        #expect(auto?.message.contains("delimiter") == true)
    }

    @Test func aPositionBeyondTheRowIsALocatedError() throws {
        let profile = try S.profile(yaml: """
            id: plain
            institution: Plain Bank
            header: none
            delimiter: ";"
            date_format: yyyy-MM-dd
            columns: {date: 1, description: 2, amount: 7}
            account: {number: "PB-000123456", kind: asset, currency: USD}
            """)
        let error = S.error { _ = try S.events(profile, .string("2026-03-01;Coffee;-4.50\n", name: "p.csv")) }
        #expect(error?.message.contains("column 7") == true)
        #expect(error?.location?.line == 1)
    }

    // MARK: Templates

    @Test func descriptionAndMemoFromSeveralColumns() throws {
        let profile = try S.profile(yaml: """
            id: tmpl
            institution: Template Bank
            match: {header: [Date, Type, Reference, Payee, Amount]}
            date_format: yyyy-MM-dd
            columns: {date: Date, description: "{Type} {Reference}", memo: "{Payee} / {Reference}", amount: Amount}
            account: {number: "TB-000123456", kind: asset, currency: EUR}
            """)
        let text = "Date,Type,Reference,Payee,Amount\n2026-03-01,Transfer,INV-7,Acme,-10\n2026-03-02,Card,,Cafe,-3\n"
        let txs = S.transactions(try S.events(profile, .string(text, name: "t.csv")))
        #expect(txs.map(\.name) == ["Transfer INV-7", "Card"])
        #expect(txs.map(\.memo) == ["Acme / INV-7", "Cafe /"])
    }

    @Test func aTemplateNamingAnUnknownColumnIsRefusedAtLoad() throws {
        let error = S.error { _ = try S.profile(yaml: """
            id: tmpl
            institution: Template Bank
            match: {header: [Date, Type, Amount]}
            date_format: yyyy-MM-dd
            columns: {date: Date, description: "{Type} {Ref}", amount: Amount}
            account: {number: "TB-000123456", kind: asset, currency: EUR}
            """) }
        #expect(error?.message.contains("'Ref' is not among the match.header names") == true)
    }

    // MARK: Rules and banner rows

    static let ruled = """
        id: ruled
        institution: Rule Bank
        match: {header: [Date, Status, Type, Description, Amount]}
        date_format: MM/dd/yyyy
        columns: {date: Date, status: Status, type: Type, description: Description, amount: Amount}
        status_values: {Posted: booked, Pending: pending}
        ignore_rows: ["^Pending transactions", "^Posted transactions"]
        rules:
          - when: {column: Status, matches: "In Progress|Temporary Hold"}
            skip: true
          - when: {column: Type, equals: fee}
            set: {type: fee, mcc: "6012"}
          - when: [{column: Type, equals: Refund}, {column: Description, matches: "^RETURN "}]
            set: {sign: credit, description: Merchandise return}
        account: {number: "RB-000123456", kind: asset, currency: USD}
        """

    @Test func rulesSkipAndSetAndBannerRowsAreCounted() throws {
        let profile = try S.profile(yaml: Self.ruled)
        let text = """
            Date,Status,Type,Description,Amount
            Pending transactions
            03/05/2026,Temporary Hold,Card,HOTEL DEPOSIT,-200.00
            03/05/2026,Pending,Card,Grocer,-31.20
            Posted transactions
            03/04/2026,Posted,Fee,Monthly fee,-5.00
            03/03/2026,Posted,Refund,RETURN SHOES 4411,-59.90
            03/02/2026,In Progress,Transfer,To savings,-100
            03/01/2026,Posted,Card,Bakery,-6.10

            """
        let events = try S.events(profile, .string(text, name: "r.csv"))
        let txs = S.transactions(events)
        #expect(txs.map(\.name) == ["Grocer", "Monthly fee", "Merchandise return", "Bakery"])
        #expect(txs[0].status == .pending)
        #expect(txs[1].transactionType == .fee)
        #expect(txs[1].merchantCategoryCode == MerchantCategoryCode(rawValue: 6012))
        #expect(txs[2].indicator == .credit)
        #expect(txs[2].amount == Decimal(string: "59.90"))
        let warnings = S.warnings(events).map(\.message)
        #expect(warnings.contains("skipped 2 row(s) that ignore_rows names"))
        #expect(warnings.contains("skipped 2 row(s) by the profile's rules"))
    }

    @Test func withoutIgnoreRowsABannerBetweenDataRowsFailsTheFile() throws {
        var yaml = Self.ruled
        yaml = yaml.replacingOccurrences(of: "ignore_rows: [\"^Pending transactions\", \"^Posted transactions\"]\n", with: "")
        let profile = try S.profile(yaml: yaml)
        let error = S.error { _ = try S.events(profile, .string("Date,Status,Type,Description,Amount\n03/01/2026,Posted,Card,A,-1\nPosted transactions\n03/02/2026,Posted,Card,B,-2\n", name: "r.csv")) }
        #expect(error?.location?.line == 3)
    }

    @Test func aRuleWithoutActionOrWithABadRegexIsRefused() throws {
        let noAction = S.error { _ = try S.profile(yaml: Self.ruled.replacingOccurrences(of: "    skip: true\n", with: "")) }
        #expect(noAction?.message.contains("rules.[0]") == true || noAction?.message.contains("rules") == true)
        let badRegex = S.error { _ = try S.profile(yaml: Self.ruled.replacingOccurrences(of: "In Progress|Temporary Hold", with: "(unclosed")) }
        #expect(badRegex?.message.contains("not a regular expression") == true)
    }

    // MARK: Fees and running balance

    static func feeProfile(_ mode: String) throws -> CSVProfile {
        try S.profile(yaml: """
            id: fees
            institution: Fee Bank
            match: {header: [Completed Date, Description, Amount, Fee, Balance]}
            date_format: yyyy-MM-dd
            fee: \(mode)
            columns: {date: Completed Date, description: Description, amount: Amount, fee: Fee, balance: Balance}
            account: {number: "FB-000123456", kind: asset, currency: EUR}
            """)
    }

    static let feeFile = """
        Completed Date,Description,Amount,Fee,Balance
        2026-03-03,Card payment,-20.00,0.50,179.50
        2026-03-02,Top up,100.00,0.00,200.00
        2026-03-01,Opening,100.00,,100.00

        """

    @Test func aFeeColumnIsNettedAndTheRunningBalanceAddsUp() throws {
        let events = try S.events(try Self.feeProfile("net"), .string(Self.feeFile, name: "f.csv"))
        let txs = S.transactions(events)
        #expect(txs.map(\.amount) == [Decimal(string: "-20.50")!, 100, 100])
        // The newest row's running balance, and it equals the sum of the netted amounts.
        let balance = try #require(Self.balances(events).first)
        #expect(balance.amount == Decimal(string: "179.50"))
        #expect(txs.reduce(Decimal(0)) { $0 + $1.amount } == balance.amount)
    }

    @Test func aFeeColumnCanBeASeparateTransaction() throws {
        let txs = S.transactions(try S.events(try Self.feeProfile("separate"), .string(Self.feeFile, name: "f.csv")))
        #expect(txs.map(\.amount) == [-20, Decimal(string: "-0.50")!, 100, 100])
        #expect(txs[1].transactionType == .fee)
        #expect(txs[1].name == "Fee: Card payment")
    }

    @Test func aRunningBalanceThatDoesNotAddUpNeedsAPerson() throws {
        // Newest first, as most banks list: the 03-02 row is missing (the balance jumps by 10.00).
        let text = """
            Completed Date,Description,Amount,Fee,Balance
            2026-03-04,Cafe,-5.00,0,185.00
            2026-03-03,Book,-10.00,0,190.00
            2026-03-01,Opening,100.00,,210.00

            """
        let events = try S.events(try Self.feeProfile("net"), .string(text, name: "f.csv"))
        let warning = try #require(S.warnings(events).first)
        #expect(warning.needsAttention)
        #expect(warning.location.line == 3)
        #expect(warning.message.contains("the amounts give 200.00 EUR, the balance column says 190.00 (difference -10.00)"))
        // The same file adding up (oldest first this time): no warning.
        let good = "Completed Date,Description,Amount,Fee,Balance\n2026-03-01,Opening,100.00,,100.00\n2026-03-02,Book,-10.00,0.50,89.50\n"
        #expect(S.warnings(try S.events(try Self.feeProfile("net"), .string(good, name: "g.csv"))).isEmpty)
    }

    // MARK: Encodings

    /// The encoding tests' profile: `Date;Text;Amount` (or any file name, with `match`), in `label` when given.
    static func encodingProfile(_ label: String?, match: String = "{header: [Date, Text, Amount]}") throws -> CSVProfile {
        try S.profile(yaml: """
            id: enc
            institution: Encoding Bank
            \(label.map { "encoding: " + $0 } ?? "")
            match: \(match)
            delimiter: ";"
            date_format: yyyy-MM-dd
            columns: {date: Date, description: Text, amount: Amount}
            account: {number: "EB-000123456", kind: asset, currency: EUR}
            """)
    }

    /// A Latin-1 label (`latin1`, `ISO-8859-1`) reads 0x80–0x9F as Windows-1252 does, as browsers do: such files come
    /// from Windows programs, and their `€ “ ”` are never meant as C1 control characters.
    @Test(arguments: [("cp1250", [UInt8]([0x8A, 0x9A, 0xE8])), ("ISO-8859-15", [0xA6, 0xA8, 0xA4]),
                      ("MACINTOSH", [0x8A, 0x9A, 0x8E]), ("latin1", [0x80, 0x93, 0xE9, 0x94]),
                      ("ISO-8859-1", [0x80, 0x93, 0xE9, 0x94])])
    func encodingsIconvKnows(_ label: String, _ bytes: [UInt8]) throws {
        let profile = try Self.encodingProfile(label)
        let file = Array("Date;Text;Amount\n2026-03-01;".utf8) + bytes + Array(";-1\n".utf8)
        let tx = try #require(S.transactions(try S.events(profile, .bytes(file, name: "e.csv"))).first)
        let expected: [String: String] = ["cp1250": "Ššč", "ISO-8859-15": "Šš€", "MACINTOSH": "äöé", "latin1": "€“é”",
                                          "ISO-8859-1": "€“é”"]
        #expect(tx.name == expected[label])
    }

    @Test func anEncodingIconvDoesNotKnowIsRefusedAtLoad() throws {
        let error = S.error { _ = try S.profile(yaml: """
            id: enc
            institution: Encoding Bank
            encoding: klingon-8
            match: {header: [Date, Text, Amount]}
            date_format: yyyy-MM-dd
            columns: {date: Date, description: Text, amount: Amount}
            account: {number: "EB-000123456", kind: asset, currency: EUR}
            """) }
        #expect(error?.message.contains("'klingon-8' is not an encoding iconv knows") == true)
    }

    @Test func bytesTheEncodingDoesNotDefineAreALocatedError() throws {
        let profile = try Self.encodingProfile("UTF-16LE", match: "{file_name: \"*.csv\"}")
        let error = S.error { _ = try S.events(profile, .bytes([0x44, 0x00, 0x00, 0xD8, 0x41], name: "e.csv")) }
        #expect(error?.message.contains("expected UTF-16LE text (as the profile's encoding says)") == true, "\(String(describing: error))")
        #expect(error?.message.contains("an odd number of bytes") == true, "\(String(describing: error))")
        // A byte the profile's single-byte encoding does not define (0x81 in windows-1250) names its line and byte.
        let cp1250 = try Self.encodingProfile("cp1250")
        let file = Array("Date;Text;Amount\n2026-03-01;ok;-1\n2026-03-02;".utf8) + [0x81] + Array(";-1\n".utf8)
        let undefined = S.error { _ = try S.events(cp1250, .bytes(file, name: "e.csv")) }
        #expect(undefined?.message.contains("expected cp1250 text as the profile's encoding says, found byte 0x81") == true,
                "\(String(describing: undefined))")
        #expect(undefined?.location?.line == 3)
    }

    /// UTF-16 and single-byte encodings are converted as the file is read, never held whole: a 1M-row UTF-16 export
    /// converted whole by iconv took 724 MiB. Only other multi-byte encodings are still converted whole.
    @Test func utf16AndSingleByteFilesAreConvertedAsTheyAreRead() throws {
        func converted(_ label: String?, _ bytes: [UInt8]) throws -> String? {
            try CSVInputDecoding.utf8(.bytes(bytes, name: "e.csv"), profile: Self.encodingProfile(label)).convertedFrom
        }
        let text = Array("Date,Text,Amount\n".utf8)
        #expect(try converted(nil, [0xFF, 0xFE] + text.flatMap { [$0, 0] }) == "UTF-16LE")
        #expect(try converted(nil, text.flatMap { [0, $0] }) == "UTF-16BE")
        #expect(try converted("UTF-16LE", text.flatMap { [$0, 0] }) == "UTF-16LE")
        #expect(try converted("cp1250", text) == "cp1250")
        #expect(try converted("KOI8-R", text) == "KOI8-R")
        #expect(try converted(nil, text) == nil)
        #expect(try converted("SHIFT_JIS", text) == nil)  // converted whole: bytes in memory
    }

    /// Every encoding a CSV export comes in reads to the same transactions as its UTF-8 original, whether converted
    /// as it is read (UTF-16 with or without a BOM, single-byte sets) or whole by iconv (Shift_JIS): random rows,
    /// each seed printed on failure.
    @Test(arguments: 0..<40)
    func everyEncodingReadsAsItsUTF8Original(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let words = ["Żabka", "Łódź", "Müller", "Straße", "Café", "Kraków", "Brno", "Čáp", "Rossmann", "Płatność", "kartą", "Šárka"]
        var text = "Date;Text;Amount\n"
        for day in 1...Int(random.next() % 40 + 1) {
            let name = (0..<Int(random.next() % 4 + 1)).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            text += "2026-03-\(String(format: "%02d", day % 28 + 1));\(name);-\(random.next() % 100_000).\(random.next() % 90 + 10)\n"
        }
        func read(_ label: String, _ bytes: [UInt8]) throws -> [RawTransaction] {
            S.transactions(try S.events(try Self.encodingProfile(label), .bytes(bytes, name: "e.csv")))
        }
        let original = try read("utf-8", Array(text.utf8))
        #expect(original.count == text.split(separator: "\n").count - 1)
        for label in ["cp1250", "ISO-8859-2", "UTF-16LE", "UTF-16BE", "UTF-16"] {
            let encoded = try OFXCharsetTests.encode(text, label)
            let rows = try read(label, encoded)
            #expect(rows.map(\.name) == original.map(\.name), "seed \(seed), \(label)")
            #expect(rows.map(\.amount) == original.map(\.amount), "seed \(seed), \(label)")
        }
        // With a byte order mark, whatever the profile says.
        let bom = [UInt8]([0xFF, 0xFE]) + (try OFXCharsetTests.encode(text, "UTF-16LE"))
        #expect(try read("utf-8", bom).map(\.name) == original.map(\.name), "seed \(seed), BOM")
        // A multi-byte encoding iconv converts whole (its own text: Shift_JIS has no Polish letters).
        let japanese = "Date;Text;Amount\n" + original.indices.map { "2026-03-01;カフェ \($0) 東京;-\($0 + 1).50\n" }.joined()
        #expect(try read("SHIFT_JIS", try OFXCharsetTests.encode(japanese, "SHIFT_JIS")).map(\.name)
                == (try read("utf-8", Array(japanese.utf8))).map(\.name), "seed \(seed), Shift_JIS")
    }
}
