@testable import CofferPipeline
import CofferStore
import Foundation
import GRDB
import Testing

/// A failed import's report keeps the `CofferError` itself: its code (classified once from SQLite's result code or
/// the file system's errno), where, and the cause.
@Suite struct ImportFailureTests {
    @Test func sqliteResultCodesAreClassifiedOnceKeepingTheCause() {
        let cases: [(ResultCode, CofferError.Code)] = [
            (.SQLITE_BUSY, .storeBusy), (.SQLITE_LOCKED, .storeBusy),
            (.SQLITE_FULL, .storeIO), (.SQLITE_IOERR, .storeIO), (.SQLITE_CANTOPEN, .storeIO),
            (.SQLITE_READONLY, .storeReadOnly), (.SQLITE_CORRUPT, .notAStore), (.SQLITE_NOTADB, .notAStore),
            (.SQLITE_CONSTRAINT, .internal),
        ]
        for (result, code) in cases {
            let error = CofferError.classifying(DatabaseError(resultCode: result, message: "m"), storePath: "/s/coffer.sqlite",
                                                file: "a.csv")
            #expect(error.code == code, "\(result)")
            #expect((error.underlying as? DatabaseError)?.resultCode == result, "\(result): the cause is kept")
            #expect(error.location?.file == "a.csv")
        }
    }

    @Test("a store locked by another writer fails the file as store-busy (transient), with SQLite's BUSY as cause",
          .timeLimit(.minutes(2)))
    func lockedStoreIsStoreBusy() async throws {
        let bench = try Workbench()
        let path = try bench.file("locked.csv", csv(["2026-03-01,SHOP,-1.00,booked"]))
        // Another connection (its own store object, as another process would have) holds the write lock.
        let other = try FinanceStore(path: bench.folder + "/store.sqlite")
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? other.write { _ in
                holding.signal()
                release.wait()
            }
        }
        holder.start()
        holding.wait()
        // The importer waits out SQLite's busy timeout (30 s), then gives up.
        let report = try await bench.importer.importFile(path)
        release.signal()
        let error = try #require(report.error)
        #expect(report.status == .failed)
        #expect(error.code == .storeBusy && error.code.isTransient, "\(error)")
        #expect((error.underlying as? DatabaseError)?.resultCode == .SQLITE_BUSY)
        #expect(error.location?.file == path)
        // Once the lock is released the same file imports.
        let again = try await bench.importer.importFile(path)
        #expect(again.status == .imported && again.inserted == 1, "\(again.error?.description ?? "")")
        other.close()
    }

    @Test("a parse failure of a file that grew or vanished while it was read is file-changing or file-not-found")
    func changedFileIsNotBadInput() throws {
        let bench = try Workbench()
        let path = try bench.file("growing.csv", csv(["2026-03-01,SHOP,-1.00,booked", "2026-03-02,CUT,-2."]))
        let before = try #require(FileStamp(path: path))
        let parseError = CofferError(.badInput, "expected an amount", location: SourceLocation(line: 3))
        // Unchanged: the file is bad.
        #expect(ImportFailure.classify(parseError, path: path, storePath: "/s.sqlite", before: before).code == .badInput)
        // The download goes on: the rest of the row lands while the import read the beginning.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("00,booked\n".utf8))
        try handle.close()
        let changing = ImportFailure.classify(parseError, path: path, storePath: "/s.sqlite", before: before)
        #expect(changing.code == .fileChanging && changing.code.isTransient, "\(changing)")
        #expect((changing.underlying as? CofferError)?.code == .badInput, "the parse error is kept as the cause")
        #expect(changing.location == SourceLocation(file: path, line: 3))
        // Failures that are not about the file's contents stay what they are.
        let busy = DatabaseError(resultCode: .SQLITE_BUSY)
        #expect(ImportFailure.classify(busy, path: path, storePath: "/s.sqlite", before: before).code == .storeBusy)
        try FileManager.default.removeItem(atPath: path)
        #expect(ImportFailure.classify(parseError, path: path, storePath: "/s.sqlite", before: before).code == .fileNotFound)
    }

    @Test func aBadFileThatDidNotChangeIsBadInput() throws {
        let bench = try Workbench()
        let report = try bench.importing("bad.csv", csv(["2026-03-01,SHOP,twelve,booked"]))
        #expect(report.error?.code == .badInput && report.error?.code.isTransient == false)
        let gone = bench.importer.importFile(bench.folder + "/never-there.csv")
        #expect(gone.error?.code == .fileNotFound)
    }
}
