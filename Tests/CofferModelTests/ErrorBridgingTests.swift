@testable import CofferModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Coffer's and FinanceKit's errors as a caller sees them: stable codes, NSError bridging, JSON, classification.
@Suite struct ErrorBridgingTests {
    /// The shipped table: a name or number never changes (JSON, logs, scripts and NSError codes depend on them), and
    /// the decisions each code makes. Renumbering or renaming fails here; a new code is appended.
    @Test func theCodeTableIsPinned() {
        let table = CofferError.Code.all.map { code in
            "\(code.errorCode) \(code.name) transient=\(code.isTransient) store=\(code.concernsStore) exit=\(code.exitCode)"
        }
        #expect(table == [
            "1 bad-input transient=false store=false exit=1",
            "2 unknown-format transient=false store=false exit=1",
            "3 bad-configuration transient=false store=false exit=1",
            "4 not-a-store transient=false store=true exit=1",
            "5 store-too-new transient=false store=true exit=1",
            "6 store-read-only transient=false store=true exit=1",
            "7 io transient=false store=false exit=1",
            "8 institution-error transient=false store=false exit=1",
            "9 usage transient=false store=false exit=64",
            "10 ambiguous-account transient=false store=false exit=1",
            "11 internal transient=false store=false exit=1",
            "12 store-busy transient=true store=true exit=1",
            "13 store-io transient=false store=true exit=1",
            "14 file-not-found transient=false store=false exit=1",
            "15 file-changing transient=true store=false exit=1",
            "16 unknown-client transient=false store=false exit=1",
        ])
        #expect(Set(CofferError.Code.all.map(\.errorCode)).count == CofferError.Code.all.count)
        for code in CofferError.Code.all { #expect(CofferError.Code(name: code.name) == code) }
        #expect(CofferError.Code(name: "no-such-code") == nil)
    }

    @Test func cofferErrorBridgesToNSErrorWithItsCodeAndLocation() {
        let cause = POSIXError(.EACCES)
        let error = CofferError(.badInput, "expected a date like 2026-03-14, found '14/13/2026'",
                                location: SourceLocation(file: "chase.csv", line: 12, column: 1, element: nil), underlying: cause)
        let ns = error as NSError
        #expect(ns.domain == "Coffer.CofferError")
        #expect(ns.code == 1)
        #expect(ns.localizedDescription == "chase.csv:12:1: expected a date like 2026-03-14, found '14/13/2026'")
        #expect(ns.localizedFailureReason == "The statement file's contents are not what its format promises.")
        #expect(ns.userInfo[CofferError.codeNameKey] as? String == "bad-input")
        #expect(ns.userInfo[CofferError.locationKey] as? String == "chase.csv:12:1")
        #expect(ns.userInfo[NSFilePathErrorKey] as? String == "chase.csv")
        #expect(ns.userInfo[CofferError.lineKey] as? Int == 12)
        #expect((ns.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EACCES))
        #expect((error as any Error).localizedDescription == error.description)

        let busy = CofferError(.storeBusy, "/data/coffer.sqlite is locked by another process; try again") as NSError
        #expect(busy.code == 12)
        #expect(busy.localizedRecoverySuggestion == "Try again when the other import has finished.")
        #expect(busy.userInfo[CofferError.locationKey] == nil)
    }

    @Test func financeErrorBridgesToFinanceKitsDomainAndCodes() {
        let restricted = FinanceError.dataRestricted(.financialData) as NSError
        #expect(restricted.domain == "FinanceKit.FinanceError")
        #expect(restricted.code == 0)
        #expect(restricted.userInfo["FinanceStoreDataType"] as? String == "financialData")
        #expect(restricted.localizedDescription == "The financial data cannot be read right now.")
        #expect(restricted.localizedRecoverySuggestion == "Try again shortly.")
        #expect((FinanceError.unknown as NSError).code == 1)
        let token = FinanceError.historyTokenInvalid as NSError
        #expect(token.code == 2)
        #expect(token.localizedDescription == "The history token is not valid for this store; restart history from nil.")
        #expect(token.localizedFailureReason?.contains("compaction horizon") == true)
    }

    @Test func theJSONFormHasTheCodeAndLocationAndDecodesBack() throws {
        let error = CofferError(.badInput, "expected an amount", location: SourceLocation(file: "a.ofx", line: 7, element: "STMTTRN/TRNAMT"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(error), as: UTF8.self)
        #expect(text == #"{"code":"bad-input","description":"a.ofx:7 (STMTTRN\/TRNAMT): expected an amount","element":"STMTTRN\/TRNAMT","file":"a.ofx","line":7,"message":"expected an amount"}"#)
        let back = try JSONDecoder().decode(CofferError.self, from: Data(text.utf8))
        #expect(back.code == .badInput && back.location == error.location && back.description == error.description)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CofferError.self, from: Data(#"{"code":"nope","message":"x"}"#.utf8))
        }
    }

    @Test func fileSystemErrorsAreClassifiedByErrnoKeepingTheCause() throws {
        let missing = CofferError.classifying(POSIXError(.ENOENT), file: "gone.csv")
        #expect(missing.code == .fileNotFound && missing.location?.file == "gone.csv")
        #expect((missing.underlying as? POSIXError)?.code == .ENOENT)
        #expect(CofferError.classifying(POSIXError(.EBUSY)).code == .fileChanging)
        #expect(CofferError.classifying(POSIXError(.EACCES)).code == .io)
        #expect(CofferError.classifying(CocoaError(.fileReadNoSuchFile)).code == .fileNotFound)
        // What Foundation really throws for a file that is not there.
        let real = try #require(throws: (any Error).self) {
            try FileHandle(forReadingFrom: URL(fileURLWithPath: "/nonexistent/coffer-\(UUID()).csv"))
        }
        #expect(CofferError.classifying(real, file: "x.csv").code == .fileNotFound)
        // A CofferError stays itself, placed in the file if it names none.
        let own = CofferError.classifying(CofferError(.badInput, "bad", location: SourceLocation(line: 3)), file: "b.csv")
        #expect(own.code == .badInput && own.location == SourceLocation(file: "b.csv", line: 3))
        struct Surprise: Error {}
        let other = CofferError.classifying(Surprise(), file: "c.csv")
        #expect(other.code == .internal && other.underlying is Surprise)
    }
}
