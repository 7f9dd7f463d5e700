import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Inputs built to exhaust memory: each is refused with a located error once past a generous limit.
@Suite struct HostileInputTests {
    static let chaseHeader = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"

    @Test func csvRowWithTooManyFieldsIsRefused() throws {
        let profile = try CSVTestSupport.profile("chase-checking")
        let text = Self.chaseHeader + String(repeating: ",", count: CSVRecordReader.maxFields + 5)
        let error = try #require(FuzzRegressionTests.outcome(.string(text, name: "Chase1234_Activity_commas.CSV"),
                                                             try CSVStatementParser(profile: profile)))
        #expect(error.message.contains("more than \(CSVRecordReader.maxFields) fields"))
        #expect(error.location?.line == 2)
    }

    @Test func csvHugeLineIsRefused() throws {
        let profile = try CSVTestSupport.profile("chase-checking")
        let long = String(repeating: "x", count: CSVRecordReader.maxRecordBytes + 10)
        let text = Self.chaseHeader + "DEBIT,03/14/2026,\"" + long + "\",1\n"
        let error = try #require(FuzzRegressionTests.outcome(.string(text, name: "Chase1234_Activity_long.CSV"),
                                                             try CSVStatementParser(profile: profile)))
        #expect(error.message.contains("MB"))
        #expect(error.location?.line == 2)
    }

    @Test func camtHugeTextIsRefused() throws {
        let bytes = FuzzRegressionTests.camt(#"<?xml version="1.0"?>"#,
                                             body: [UInt8](repeating: 0x4D, count: CamtHandler.maxTextBytes + 1))
        let error = try #require(FuzzRegressionTests.outcome(.bytes(bytes, name: "long.xml"), CamtParser()))
        #expect(error.message.contains("at most 1 MB"))
    }
}
