import Foundation
import Testing

/// MT940 and QIF through the real `coffer` binary: `--date-order`, `--new-account`/`--currency` for a QIF file
/// without an account, and MT940 statements saved as `.txt` in a folder.
@Suite struct LineFormatsCLITests {
    static let ambiguous = "!Type:Bank\nD01/02/2026\nT-1.00\nPCorner Store\n^\nD03/04/2026\nT-2.00\nPCorner Store\n^\n"

    @Test func anAmbiguousQIFFailsNamingTheOptionAndImportsWithIt() throws {
        let folder = try temporaryFolder()
        let file = folder + "/export.qif"
        try Self.ambiguous.write(toFile: file, atomically: true, encoding: .utf8)
        let store = folder + "/s.sqlite"
        let failed = try coffer(["import", "--store", store, "--new-account", "Checking", file])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("export.qif:2 (D): the dates are ambiguous"), "\(failed.stderr)")
        #expect(failed.stderr.contains("--date-order"))
        let run = try coffer(["import", "--store", store, "--new-account", "Checking", "--currency", "CAD",
                              "--date-order", "dmy", file])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        let days = rows.compactMap { ($0["transactionDate"] as? String)?.prefix(10) }.sorted()
        #expect(days == ["2026-02-01", "2026-04-03"])
        let accounts = try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout)
        #expect(accounts.count == 1)
        #expect(accounts.first?["currencyCode"] as? String == "CAD")
        let parsed = try coffer(["parse", "--date-order", "mdy", file, "--format", "csv"])
        #expect(parsed.status == 0 && parsed.stdout.contains("2026-01-02"), "\(parsed.stdout)")
    }

    /// `--encoding` names the code page of MT940 and QIF files, which cannot declare one: a Polish bank's windows-1250
    /// MT940 imports with its letters; an encoding iconv does not know, or one that is not single-byte, is a usage
    /// error before the store is opened.
    @Test func encodingNamesTheCodePageOfAnMT940File() throws {
        let folder = try temporaryFolder()
        let file = folder + "/wyciag.sta"
        let text = ":20:STMT\n:25:PL61109010140000071219812874\n:28C:1/1\n:60F:C260301PLN1000,00\n"
            + ":61:2603020302D12,50NTRFNONREF\n:86:Zabka Lodz, platnosc karta\n:62F:C260302PLN987,50\n-\n"
        // The Polish letters as windows-1250 bytes: Ż 0xAF, Ł 0xA3, ó 0xF3, ź 0x9F, ł 0xB3, ś 0x9C, ą 0xB9.
        var bytes = Array(text.utf8)
        for (plain, polish) in [("Zabka", [UInt8]([0xAF]) + Array("abka".utf8)), ("Lodz", [0xA3, 0xF3, 0x64, 0x9F]),
                                ("platnosc", Array("p".utf8) + [0xB3] + Array("atno".utf8) + [0x9C, 0xE6]),
                                ("karta", Array("kart".utf8) + [0xB9])] {
            let from = Array(plain.utf8)
            if let at = (0...(bytes.count - from.count)).first(where: { Array(bytes[$0..<($0 + from.count)]) == from }) {
                bytes.replaceSubrange(at..<(at + from.count), with: polish)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let store = folder + "/s.sqlite"
        for bad in ["klingon-8", "SHIFT_JIS"] {
            let refused = try coffer(["import", "--store", store, "--encoding", bad, file])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("--encoding") && refused.stderr.contains(bad), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store), "a refused option leaves no store")
        }
        let run = try coffer(["import", "--store", store, "--encoding", "cp1250", file])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        let texts = rows.compactMap { $0["originalTransactionDescription"] as? String }
        #expect(texts.contains { $0.contains("Żabka Łódź, płatność kartą") }, "\(texts)")
        let parsed = try coffer(["parse", "--encoding", "cp1250", file, "--format", "csv"])
        #expect(parsed.status == 0 && parsed.stdout.contains("Łódź"), "\(parsed.stdout)")
        let guessed = try coffer(["parse", file, "--format", "csv"])
        #expect(guessed.stdout.contains("£ódŸ"), "without --encoding the bytes read as Windows-1252: \(guessed.stdout)")
    }

    @Test func aQIFWithoutAnAccountBlockNeedsOne() throws {
        let folder = try temporaryFolder()
        let file = folder + "/download.qif"
        try "!Type:Bank\nD01/15/2026\nT-12.00\nPNETFLIX.COM\n^\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try coffer(["import", "--store", folder + "/s.sqlite", file])
        #expect(run.status == 1)
        #expect(run.stderr.contains("QIF file without an !Account block") && run.stderr.contains("--new-account"), "\(run.stderr)")
    }

    @Test func mt940SavedAsTxtIsFoundInAFolderAndNotesAreNot() throws {
        let folder = try temporaryFolder()
        let inbox = folder + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/feeds/mt940/sparkasse-giro-2026-03.sta",
                                         toPath: inbox + "/MT940_20260331.txt")
        try "Remember to download April.\n".write(toFile: inbox + "/notes.txt", atomically: true, encoding: .utf8)
        let run = try coffer(["import", "--store", folder + "/s.sqlite", "--json", inbox])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try #require(try jsonObject(run.stdout)["files"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(files.first?["format"] as? String == "mt940")
        #expect(files.first?["inserted"] as? Int == 7)
    }

    /// A camt statement re-saved as UTF-16 (PowerShell 5's `Get-Content … > file.xml` writes UTF-16LE) imports as the
    /// original does; the same file cut in half is refused naming it, and leaves the store as it was.
    @Test func aUTF16CamtImportsAndACutOneLeavesTheStoreAlone() throws {
        let folder = try temporaryFolder()
        let original = try String(contentsOfFile: packageRoot + "/feeds/camt/de-musterbank-053-v02.xml", encoding: .utf8)
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in original.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let cut = folder + "/cut.xml"
        try Data(bytes.prefix(bytes.count / 2 | 1)).write(to: URL(fileURLWithPath: cut))
        let store = folder + "/s.sqlite"
        let failed = try coffer(["import", "--store", store, cut])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("cut.xml") && failed.stderr.contains("expected UTF-16LE text"), "\(failed.stderr)")
        let file = folder + "/unicode.xml"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let run = try coffer(["import", "--store", store, "--json", file])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try #require(try jsonObject(run.stdout)["files"] as? [[String: Any]])
        #expect(files.first?["format"] as? String == "camt.053.001.02")
        let reference = folder + "/reference.sqlite"
        #expect(try coffer(["import", "--store", reference, packageRoot + "/feeds/camt/de-musterbank-053-v02.xml"]).status == 0)
        // Everything but the store's own ids reads the same, umlauts included.
        func rows(_ store: String) throws -> [String] {
            try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout).map { row in
                (["transactionDate", "creditDebitIndicator", "transactionDescription", "originalTransactionDescription",
                  "merchantName"].map { "\(row[$0] ?? "-")" } + ["\((row["transactionAmount"] as? [String: Any])?["amount"] ?? "-")"])
                    .joined(separator: " | ")
            }.sorted()
        }
        let utf16Rows = try rows(store)
        let referenceRows = try rows(reference)
        #expect(!utf16Rows.isEmpty && utf16Rows == referenceRows)
        #expect(files.first?["inserted"] as? Int == utf16Rows.count)
    }
}
