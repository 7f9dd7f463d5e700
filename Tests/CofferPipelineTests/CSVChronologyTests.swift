import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// A CSV export's own date (`as_of` in its profile) orders it among the statements (docs/dedupe.md): the values of
/// the newest export that lists a row win, in whichever order the exports arrive.
@Suite struct CSVChronologyTests {
    static let profile = """
        id: dated-export
        institution: Dated Bank
        match: {header: [Ref, Date, Description, Amount]}
        date_format: yyyy-MM-dd
        columns: {id: Ref, date: Date, description: Description, amount: Amount}
        account: {number: "444455556666", kind: asset, currency: USD}
        as_of: {file_name: "^dated_(?<date>\\\\d{8})", date_format: yyyyMMdd}
        """

    static let older = "Ref,Date,Description,Amount\nR1,2026-03-05,CORNER SHOP PENDING,-10.00\nR2,2026-03-06,Rent,-900.00\n"
    static let newer = "Ref,Date,Description,Amount\nR1,2026-03-05,Corner Shop,-12.00\nR2,2026-03-06,Rent,-900.00\n"

    static func store(_ imports: [(name: String, text: String)], dated: Bool = true) async throws -> [String] {
        let bench = try Workbench()
        try Self.profile.write(toFile: bench.folder + "/config/profiles/dated-export.yaml", atomically: true, encoding: .utf8)
        let importer = Importer(store: bench.store, configuration: try CofferConfiguration.load(directory: bench.folder + "/config"))
        for file in imports {
            let report = try await importer.importFile(try bench.file(file.name, file.text), options: ImportOptions())
            #expect(report.status == .imported, "\(file.name): \(report.error?.description ?? "")")
            #expect(report.warnings.contains { $0.contains("does not match as_of.file_name") } == !dated, "\(report.warnings)")
        }
        return try await bench.transactions().map { "\($0.transactionDescription) \($0.transactionAmount.amount)" }.sorted()
    }

    @Test func theNewerExportsValuesWinInEitherOrder() async throws {
        let old = ("dated_20260310.csv", Self.older), new = ("dated_20260320.csv", Self.newer)
        let forward = try await Self.store([old, new])
        let backward = try await Self.store([new, old])
        #expect(forward == ["Corner Shop 12", "Rent 900"])
        #expect(backward == forward)
    }

    /// Renamed so that its name says no date, an export is as of its latest row's day (equal here), and a warning
    /// says so: the later import's values stand, as before `as_of` existed.
    @Test func withoutItsDateAnExportIsAsOfItsLatestRow() async throws {
        let backward = try await Self.store([("export (2).csv", Self.newer), ("export (1).csv", Self.older)], dated: false)
        #expect(backward == ["Corner Shop Pending 10", "Rent 900"])
    }
}
