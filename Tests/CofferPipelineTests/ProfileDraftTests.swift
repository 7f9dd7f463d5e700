import CofferFormats
import CofferModel
import Foundation
import Testing
@testable import CofferPipeline

/// What a layout's draft must decide (`key: value` lines) and every transaction it must read back (`date amount`,
/// money in positive), from `Tests/Golden/csv-drafts/NAME.expected`.
struct DraftExpectation {
    var decisions: [String: String] = [:]
    /// Text the YAML must hold, and text the notes must (or must not) hold.
    var yaml: [String] = [], notes: [String] = [], absentNotes: [String] = []
    var transactions: [(date: String, amount: Decimal)] = []

    init(path: String) throws {
        var inRows = false
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init) {
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line == "---" { inRows = true; continue }
            if inRows {
                let parts = line.split(separator: " ")
                transactions.append((String(parts[0]), try #require(ExactDecimal.parse(String(parts[1])))))
                continue
            }
            let colon = try #require(line.firstIndex(of: ":"))
            let key = String(line[..<colon]), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "yaml": yaml.append(value)
            case "note": notes.append(value)
            case "no-note": absentNotes.append(value)
            default: decisions[key] = value
            }
        }
    }
}

@Suite struct ProfileDraftTests {
    static let folder = repositoryRoot + "/Tests/Golden/csv-drafts"
    static let layouts = [
        "lonestar-checking-2026-04.csv", "Kontoumsaetze_Sparkasse_Beispiel.csv", "harbour-bank-export.tsv",
        "nordkredit_pipe.txt", "riverside-cu-statement.csv", "raiba-umsatzliste.csv", "zapbank-transactions.csv",
        "settled-dates.csv", "ambiguous-dates.csv", "headerless-export.csv", "releve-banque-avril.csv",
        "Visa Card Activity 2026-04.csv",
    ]

    static func draft(_ path: String) throws -> CSVProfileDraft {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        return try CSVProfileDrafter.draft(bytes: [UInt8](bytes), fileName: path)
    }

    /// Draft → load with the profile loader → parse the same file → the fixture's transactions and decisions.
    @Test(arguments: layouts) func draftLoadsAndReadsItsFile(name: String) throws {
        let path = Self.folder + "/" + name
        let expected = try DraftExpectation(path: path + ".expected")
        let draft = try Self.draft(path)
        let notes = draft.notes.joined(separator: "\n")
        for text in expected.yaml { #expect(draft.yaml.contains(text), "\(name): the YAML lacks \(text)\n\(draft.yaml)") }
        for text in expected.notes { #expect(notes.contains(text), "\(name): the notes lack \(text)\n\(notes)") }
        for text in expected.absentNotes { #expect(!notes.contains(text), "\(name): the notes say \(text)\n\(notes)") }
        #expect(draft.dataRows == expected.transactions.count)

        // header: none (positional columns) is read by the loader since 5cc6d09.
        let profile = try CSVProfileSet.decode(yaml: draft.yaml, file: name)
        #expect(draft.verified, "\(name): \(notes)")
        var transactions: [RawTransaction] = []
        try CSVStatementParser(profile: profile).parse(.file(path)) { event in
            if case .transaction(let transaction) = event { transactions.append(transaction) }
        }
        let read = transactions.map { t in
            (t.transactionDate.map { CalendarDay.string($0.date) } ?? "-", t.indicator == .debit ? -t.amount : t.amount)
        }
        #expect(read.map(\.0) == expected.transactions.map(\.date), "\(name)\n\(draft.yaml)")
        #expect(read.map(\.1) == expected.transactions.map(\.amount), "\(name)\n\(draft.yaml)")

        let d = expected.decisions
        if let format = d["date_format"] { #expect(profile.dateFormat == format, "\(name)") }
        if let sign = d["sign"] { #expect(profile.sign.rawValue == sign, "\(name)") }
        if let encoding = d["encoding"] { #expect(profile.encoding.rawValue == encoding, "\(name)") }
        if let delimiter = d["delimiter"] { #expect(profile.delimiter.rawValue == (delimiter == "tab" ? "\t" : delimiter), "\(name)") }
        if let kind = d["kind"] { #expect(profile.account.kind.rawValue == kind, "\(name)") }
        // Recognised without --profile: by its header, or by its name when it has none.
        #expect(try CSVProfileSet(profiles: [profile]).identify(.file(path))?.id == profile.id, "\(name): not recognised")
    }

    /// The commented `number_from` a draft suggests reads the account's number once uncommented.
    @Test(arguments: [
        ("Tests/Golden/csv-drafts/Kontoumsaetze_Sparkasse_Beispiel.csv", "preamble", "DE89 3704 0044 0532 0130 00"),
        ("feeds/csv/Umsaetze_DE27100777770209299700_2026.03.15.csv", "file_name", "DE27100777770209299700"),
        ("feeds/csv/Umsaetze_DE27100777770209299700_2026.03.15.csv", "preamble", "209299700"),
        ("feeds/csv/capital-one-2026-03.csv", "column", "0042"),
        ("feeds/csv/Chase1234_Activity_20260315.CSV", "file_name", "1234"),
    ])
    func suggestedNumberFromReadsTheAccount(file: String, source: String, number: String) throws {
        let path = repositoryRoot + "/" + file
        let draft = try Self.draft(path)
        let suggestion = "  # number_from: { \(source):"
        #expect(draft.yaml.contains(suggestion), "\(draft.yaml)")
        let yaml = draft.yaml.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(suggestion) ? "  number_from:" + line.dropFirst("  # number_from:".count) : String(line)
        }.joined(separator: "\n")
        let profile = try CSVProfileSet.decode(yaml: yaml, file: "uncommented.yaml")
        var numbers: [String] = []
        try CSVStatementParser(profile: profile).parse(.file(path)) { event in
            if case .begin(let header) = event { numbers.append(header.account.accountNumber ?? "-") }
        }
        #expect(numbers == [number])
    }

    @Test func aFileWithoutDatesIsRefusedSayingSo() throws {
        let error = try #require(throws: CofferError.self) { try Self.draft(Self.folder + "/no-dates.csv") }
        #expect(error.code == .badInput)
        #expect(error.message.contains("no column holds a date in every data row"), "\(error)")
        #expect(error.description.contains("no-dates.csv"), "\(error)")
    }

    @Test func emptyBinaryAndShapelessFilesAreRefusedSayingSo() throws {
        func message(_ bytes: [UInt8]) throws -> String {
            try #require(throws: CofferError.self) { try CSVProfileDrafter.draft(bytes: bytes, fileName: "x.csv") }.message
        }
        #expect(try message(Array(" \r\n\n".utf8)).contains("the file is empty"))
        #expect(try message([0x50, 0x4B, 0x03, 0x04, 0x00, 0x00]).contains("NUL byte"))
        #expect(try message(Array("just one line of prose\nand another\n".utf8)).contains("no delimiter"))
        let noAmount = "Date,Description\n2026-04-01,Coffee shop\n2026-04-02,Book store\n"
        #expect(try message(Array(noAmount.utf8)).contains("no column holds an amount"))
    }

    /// UTF-16 (Excel's "Unicode text"): drafted from its text; the draft reads the file, or says to convert it.
    @Test func utf16IsDraftedFromItsText() throws {
        let text = try String(contentsOfFile: Self.folder + "/lonestar-checking-2026-04.csv", encoding: .utf8)
        for bom in [[UInt8(0xFF), 0xFE], []] {  // with a byte order mark, and without one
            var bytes = bom
            for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            let draft = try CSVProfileDrafter.draft(bytes: bytes, fileName: "lonestar.csv")
            #expect(draft.dataRows == 6)
            #expect(draft.yaml.contains("date_format: \"MM/dd/yyyy\""))
            // Coffer converts UTF-16 as it reads (5cc6d09): the draft reads the file itself.
            #expect(draft.verified, "\(draft.notes)")
            #expect(draft.yaml.contains("the file is UTF-16, which Coffer converts as it reads"))
            let profile = try CSVProfileSet.decode(yaml: draft.yaml, file: "lonestar.yaml")
            var count = 0
            try CSVStatementParser(profile: profile).parse(.bytes(bytes, name: "lonestar.csv")) { if case .transaction = $0 { count += 1 } }
            #expect(count == 6)
        }
    }

    /// Every export Coffer ships a profile for is drafted into a profile that reads it back row for row.
    @Test func everySampleFeedIsDraftedAndReadBack() throws {
        let feeds = repositoryRoot + "/feeds/csv"
        for name in try FileManager.default.contentsOfDirectory(atPath: feeds).sorted()
        where name.lowercased().hasSuffix(".csv") {
            let draft = try Self.draft(feeds + "/" + name)
            #expect(draft.verified, "\(name): \(draft.notes)")
        }
    }

    @Test func decisionsRestOnTheWholeFile() throws {
        // The first rows alone say MM/dd/yyyy; the last row's 13 settles day-first.
        var rows = ["Date,Text,Amount"]
        for day in 1...12 { rows.append(String(format: "%02d/04/2026,Shop %d,-1.00", day, day)) }
        rows.append("13/04/2026,Shop 13,-1.00")
        let draft = try CSVProfileDrafter.draft(bytes: Array(rows.joined(separator: "\n").utf8), fileName: "long.csv")
        #expect(draft.yaml.contains("date_format: \"dd/MM/yyyy\""))
        // One amount written 1.234,56 decides the decimal mark for every 12,50-less row.
        let comma = "Datum;Text;Betrag\n01.04.2026;A;-5\n02.04.2026;B;1.234,56\n"
        let german = try CSVProfileDrafter.draft(bytes: Array(comma.utf8), fileName: "de.csv")
        #expect(german.yaml.contains("decimal_mark: \",\""))
    }

    /// No day above 12, but only day-first puts the rows in date order: chosen, and still called ambiguous.
    @Test func dateOrderBreaksATieAndTheNoteSaysSo() throws {
        let csv = "Date,Text,Amount\n05/01/2026,A shop,-1.00\n06/01/2026,B shop,-2.00\n07/01/2026,C shop,-3.00\n01/02/2026,D shop,-4.00\n"
        let draft = try CSVProfileDrafter.draft(bytes: Array(csv.utf8), fileName: "order.csv", id: "order")
        #expect(draft.yaml.contains("date_format: \"dd/MM/yyyy\""))
        #expect(draft.notes.contains { $0.contains("ambiguous") && $0.contains("only dd/MM/yyyy puts the rows in date order") }, "\(draft.notes)")
        #expect(draft.yaml.contains("id: \"order\""))
        #expect(throws: CofferError.self) { try CSVProfileDrafter.draft(bytes: Array(csv.utf8), fileName: "order.csv", id: "a b") }
    }

    /// No day above 12 and both readings in order: the one keeping the rows within weeks wins, still called ambiguous.
    @Test func dateSpanBreaksATie() throws {
        let csv = "Date,Text,Amount\n03/11/2026,A shop,-1.00\n03/09/2026,B shop,-2.00\n03/03/2026,C shop,-3.00\n"
        let draft = try CSVProfileDrafter.draft(bytes: Array(csv.utf8), fileName: "span.csv")
        #expect(draft.yaml.contains("date_format: \"MM/dd/yyyy\""), "\(draft.yaml)")
        #expect(draft.notes.contains { $0.contains("ambiguous") && $0.contains("within 8 days") }, "\(draft.notes)")
    }

    @Test func yamlQuotingSurvivesHeaderNamesOfEveryKind() throws {
        let csv = "\"Date: booked\",\"Text # \"\"quoted\"\"\",\"Amount \\ EUR\"\n2026-04-01,Coffee shop,-3.50\n2026-04-02,Book store,12.00\n"
        let draft = try CSVProfileDrafter.draft(bytes: Array(csv.utf8), fileName: "odd names.csv")
        let profile = try CSVProfileSet.decode(yaml: draft.yaml, file: "odd.yaml")
        #expect(profile.columns.date == "Date: booked")
        #expect(profile.columns.description == "Text # \"quoted\"")
        #expect(profile.columns.amount == "Amount \\ EUR")
        #expect(draft.verified, "\(draft.notes)")
    }
}
