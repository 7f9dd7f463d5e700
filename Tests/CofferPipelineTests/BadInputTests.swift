import CofferPipeline
import Foundation
import Testing

@Suite struct BadInputTests {
    /// Imports `bytes` and checks: failed, the error names the file (and line when given), nothing was written.
    func expectFailure(_ bench: Workbench, _ name: String, _ bytes: [UInt8], profile: String? = nil,
                       line: Int? = nil, containing text: String) async throws {
        let before = try await bench.store.info()
        let path = bench.folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let report = try await bench.importer.importFile(path, options: ImportOptions(profileID: profile))
        #expect(report.status == .failed, "\(name)")
        let error = try #require(report.error)
        #expect(error.description.contains(name), "\(error.description)")
        #expect(error.description.lowercased().contains(text.lowercased()), "\(error.description)")
        if let line { #expect(error.location?.line == line, "\(error.description)") }
        #expect(!error.description.contains("\n"))
        let after = try await bench.store.info()
        #expect(after.transactions == before.transactions && after.accounts == before.accounts)
        #expect(after.lastSequence == before.lastSequence, "a failed file must leave no change behind")
        #expect(after.imports == before.imports)
    }

    @Test func eachBadFileGivesAClearErrorAndLeavesTheStoreUnchanged() async throws {
        let bench = try Workbench()
        _ = try bench.importing("good.csv", csv(["2026-03-01,SHOP,-1.00,booked"]))
        try await expectFailure(bench, "bad-date.csv", Array(csv(["2026-03-01,A,-1.00,booked", "2026-03-02,B,-2.00,booked", "2026-13-45,C,-3.00,booked"]).utf8),
                                line: 4, containing: "date")
        try await expectFailure(bench, "bad-amount.csv", Array(csv(["2026-03-01,A,-1.00,booked", "2026-03-02,B,twelve,booked"]).utf8),
                                line: 3, containing: "amount")
        try await expectFailure(bench, "empty.csv", [], containing: "empty")
        try await expectFailure(bench, "garbage.bin", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }, containing: "not")
        try await expectFailure(bench, "excel-unicode.csv", [0xFF, 0xFE] + Array("Date\tAmount\n".utf8).flatMap { [$0, 0] }, containing: "UTF-16")
        try await expectFailure(bench, "unknown.csv", Array("Foo;Bar\n1;2\n".utf8), containing: "not a recognised statement")
        let ofx = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>2</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260301<TRNAMT>-1.00<FITID>a</STMTTRN><STMTTRN><TRNTYPE>DEB"
        try await expectFailure(bench, "truncated.ofx", Array(ofx.utf8), containing: "ofx")
        try await expectFailure(bench, "truncated.xml", Array(#"<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id>"#.utf8), containing: "truncated")
        #expect(try await bench.transactions().count == 1)
    }

    @Test func aFileWithOneBadRowCommitsNothingFromIt() async throws {
        let bench = try Workbench()
        let rows = (1...500).map { String(format: "2026-02-%02d,SHOP %d,-1.00,booked", ($0 % 28) + 1, $0) } + ["2026-02-30,BAD DAY,-1.00,booked"]
        try await expectFailure(bench, "long.csv", Array(csv(rows).utf8), line: 502, containing: "date")
        #expect(try await bench.transactions().isEmpty)
    }

    @Test func skippingBadRowsImportsTheRestAndReportsEachSkippedRow() async throws {
        let bench = try Workbench()
        let path = try bench.file("mixed.csv", csv(["2026-03-01,A,-1.00,booked", "2026-03-45,B,-2.00,booked", "2026-03-03,C,oops,booked"]))
        let report = try await bench.importer.importFile(path, options: ImportOptions(skipBadRows: true))
        #expect(report.status == .imported)
        #expect(report.inserted == 1)
        #expect(report.warnings.filter { $0.contains("mixed.csv:3") || $0.contains("mixed.csv:4") }.count == 2, "\(report.warnings)")
    }

    @Test func globPatternsExpand() throws {
        let bench = try Workbench()
        try bench.file("a.csv", "x")
        try bench.file("b.csv", "x")
        try bench.file("c.ofx", "x")
        #expect(try Importer.expand([bench.folder + "/*.csv"]).map { ($0 as NSString).lastPathComponent } == ["a.csv", "b.csv"])
        #expect(throws: CofferError.self) { try Importer.expand([bench.folder + "/*.qif"]) }
    }

    @Test func aMissingFileOrFolderIsReported() throws {
        let bench = try Workbench()
        let report = bench.importer.importFile(bench.folder + "/nope.ofx")
        #expect(report.status == .failed)
        #expect(report.error?.description.contains("no such file") == true)
        #expect(throws: CofferError.self) { try Importer.expand([bench.folder + "/missing-folder"]) }
    }
}
