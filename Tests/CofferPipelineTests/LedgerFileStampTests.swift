import CofferModel
import CofferStore
import Foundation
import GRDB
import Testing
@testable import CofferPipeline
#if canImport(Glibc)
import Glibc
#endif

/// Whether a file was imported before (migration v24): the same path with the same size and stat stamp is known
/// without its digest; anything else by its SHA-256, computed before the import only when an import of a file of its
/// size is on record, and beside the import otherwise. Either way the ledger records the file's true digest.
@Suite struct LedgerFileStampTests {
    static let text = csv(["2026-03-01,REWE SAGT DANKE 123,-23.10,booked", "2026-03-02,GEHALT MAERZ,2500.00,booked"])

    /// The digest as coreutils computes it: an independent check of what the ledger records.
    static func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    static func ledger(_ bench: Workbench) throws -> [(sha: String, size: Int64?, stamp: String?)] {
        try DatabaseQueue(path: bench.store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT sha256, file_size, file_stamp FROM import_ledger WHERE kind = 'import' ORDER BY id")
                .map { ($0["sha256"], $0["file_size"], $0["file_stamp"]) }
        }
    }

    @Test func aNewFilesDigestIsRecordedWhetherOrNotItsSizeIsOnRecord() throws {
        let bench = try Workbench()
        let first = try bench.importing("a.csv", Self.text)
        let expected = try Self.sha256sum(bench.folder + "/a.csv")
        #expect(first.status == .imported && first.sha256 == expected)
        // The same size, other content: its digest is computed before the import (a file of its size is on record).
        let twin = try bench.importing("b.csv", Self.text.replacingOccurrences(of: "23.10", with: "23.11"))
        #expect(twin.status == .imported && twin.inserted == 1)
        let twinSHA = try Self.sha256sum(bench.folder + "/b.csv")
        #expect(twin.sha256 == twinSHA)
        let ledger = try Self.ledger(bench)
        #expect(ledger.map(\.sha) == [expected, twinSHA])
        #expect(ledger.map(\.size) == [Int64(Self.text.utf8.count), Int64(Self.text.utf8.count)])
        #expect(ledger.allSatisfy { $0.stamp?.split(separator: ":").count == 4 })
    }

    @Test func theSameFileUnchangedIsKnownByItsStampWithoutItsDigest() throws {
        let bench = try Workbench()
        let path = try bench.file("a.csv", Self.text)
        #expect(bench.importer.importFile(path).status == .imported)
        // A digest the file does not have: only a look-up by stamp finds the entry now.
        try DatabaseQueue(path: bench.store.path).write { db in
            try db.execute(sql: "UPDATE import_ledger SET sha256 = 'by-stamp'")
        }
        let again = bench.importer.importFile(path)
        #expect(again.status == .alreadyImported && again.sha256 == "by-stamp")
        #expect(try Self.ledger(bench).count == 1)
    }

    @Test func aFileRewrittenInPlaceWithItsOldTimesIsReadAgain() throws {
        let bench = try Workbench()
        let path = try bench.file("a.csv", Self.text)
        #expect(bench.importer.importFile(path).status == .imported)
        var before = stat()
        #expect(stat(path, &before) == 0)
        // Same inode, same size, the modification time set back exactly: only the change time tells.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(Self.text.replacingOccurrences(of: "23.10", with: "23.11").utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size
                && after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let again = bench.importer.importFile(path)
        #expect(again.status == .imported && again.inserted == 1)
        #expect(again.sha256 == (try Self.sha256sum(path)))
    }

    @Test func aCopyElsewhereOrATouchedFileIsKnownByItsDigest() throws {
        let bench = try Workbench()
        let path = try bench.file("a.csv", Self.text)
        let first = bench.importer.importFile(path)
        #expect(first.status == .imported)
        let copy = bench.folder + "/copy.csv"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let copied = bench.importer.importFile(copy)
        #expect(copied.status == .alreadyImported && copied.sha256 == first.sha256)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        let touched = bench.importer.importFile(path)
        #expect(touched.status == .alreadyImported && touched.sha256 == first.sha256)
        #expect(try Self.ledger(bench).count == 1)
    }

    @Test func entriesFromBeforeSizesWereRecordedStillFindAFileByItsDigest() throws {
        let bench = try Workbench()
        let path = try bench.file("a.csv", Self.text)
        let first = bench.importer.importFile(path)
        try DatabaseQueue(path: bench.store.path).write { db in
            try db.execute(sql: "UPDATE import_ledger SET file_size = NULL, file_stamp = NULL")
        }
        // A copy (so no stamp could match): the unknown size must not let it pass as new.
        let copy = bench.folder + "/copy.csv"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let again = bench.importer.importFile(copy)
        #expect(again.status == .alreadyImported && again.sha256 == first.sha256)
    }

    @Test func anUndoneImportsFileImportsAgain() throws {
        let bench = try Workbench()
        let path = try bench.file("a.csv", Self.text)
        #expect(bench.importer.importFile(path).status == .imported)
        let id = try #require(try DatabaseQueue(path: bench.store.path).read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM import_ledger WHERE kind = 'import'")
        })
        _ = try bench.store.undoImport(id)
        let again = bench.importer.importFile(path)
        #expect(again.status == .imported && again.inserted == 2)
    }
}
