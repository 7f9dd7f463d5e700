import CofferPipeline
import CofferStore
@testable import CofferWatch
import Foundation
import Testing

/// The service in-process on real folders: stability, moving, failures, duplicates, bursts.
@Suite("Watch folder", .serialized)
struct WatchFolderTests {
    @Test("a file written slowly, held open, is imported once, after it is complete")
    func slowCopy() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        let service = try bench.service(store, bench.settings())
        let task = Task { try await service.run() }
        defer { task.cancel() }

        let path = bench.inbox + "/2026-01-slow.csv"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let lines = statementCSV(tag: "slow", rows: 40).split(separator: "\n", omittingEmptySubsequences: false)
        let chunks = stride(from: 0, to: lines.count, by: 12).map { lines[$0..<min($0 + 12, lines.count)].joined(separator: "\n") }
        for (i, chunk) in chunks.enumerated() {
            try handle.write(contentsOf: Data((chunk + (i < chunks.count - 1 ? "\n" : "")).utf8))
            // Longer than the settle time: only the open-for-writing check keeps the file waiting. Sleep justified: the
            // test is a slow writer in real time (file times are the kernel's, no clock to inject).
            try await Task.sleep(for: .milliseconds(600))
            #expect(try await store.imports().isEmpty, "imported while still being written")
        }
        try handle.close()
        #expect(try await eventually { try await store.imports().count == 1 })
        try await Task.sleep(for: .milliseconds(700))  // sleep justified: shows that no second import follows (time must pass)
        #expect(try await store.imports().count == 1)
        #expect(try await bench.transactionCount(store) == 40)
        #expect(bench.files(under: bench.processed).map { ($0 as NSString).lastPathComponent } == ["2026-01-slow.csv"])
    }

    @Test("a file moved in is imported and moved to processed/YYYY-MM-DD; temporary names wait")
    func movedIn() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        let service = try bench.service(store, bench.settings())
        let task = Task { try await service.run() }
        defer { task.cancel() }

        let outside = bench.folder + "/download.csv"
        try statementCSV(tag: "moved", rows: 5).write(toFile: outside, atomically: false, encoding: .utf8)
        try statementCSV(tag: "partial", rows: 5).write(toFile: bench.inbox + "/statement.csv.crdownload", atomically: false, encoding: .utf8)
        try statementCSV(tag: "hidden", rows: 5).write(toFile: bench.inbox + "/.hidden.csv", atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(atPath: outside, toPath: bench.inbox + "/march.csv")
        #expect(try await eventually { try await store.imports().count == 1 })
        let day = FileMover.datedFolder("", Date()).dropFirst()
        // The file moves after its import commits (and after orders are linked to it): wait for the move too.
        #expect(try await eventually { bench.files(under: bench.processed) == ["\(day)/march.csv"] })
        #expect(FileManager.default.fileExists(atPath: bench.inbox + "/statement.csv.crdownload"))

        // Renamed when the download completes: now it is imported.
        try FileManager.default.moveItem(atPath: bench.inbox + "/statement.csv.crdownload", toPath: bench.inbox + "/statement.csv")
        #expect(try await eventually { try await store.imports().count == 2 })
        #expect(FileManager.default.fileExists(atPath: bench.inbox + "/.hidden.csv"))
    }

    @Test("a bad file lands in failed/ with the CLI's one-line error beside it")
    func badFile() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        try "<OFX><BANKMSGSRSV1><STMTTRNRS>\n<STMTRS><CURDEF>EUR<BANKTRANLIST><STMTTRN><TRNAMT>twelve\n"
            .write(toFile: bench.inbox + "/broken.ofx", atomically: false, encoding: .utf8)
        try "just some notes, not a statement\n".write(toFile: bench.inbox + "/notes.dat", atomically: false, encoding: .utf8)
        let service = try bench.service(store, bench.settings(once: true))
        try await service.run()
        #expect(bench.files(under: bench.failed) == ["broken.ofx", "broken.ofx.error.txt", "notes.dat", "notes.dat.error.txt"])
        let error = try String(contentsOfFile: bench.failed + "/broken.ofx.error.txt", encoding: .utf8)
        #expect(error.hasPrefix("coffer: " + bench.inbox + "/broken.ofx"))
        #expect(error.filter { $0 == "\n" }.count == 1)
        #expect(try await store.imports().isEmpty)
    }

    @Test("a byte-identical file goes to processed/ as already imported; a name clash gets a (2) suffix")
    func duplicates() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        let text = statementCSV(tag: "dup", rows: 3)
        try text.write(toFile: bench.inbox + "/jan.csv", atomically: false, encoding: .utf8)
        let service = try bench.service(store, bench.settings(once: true))
        try await service.run()
        try text.write(toFile: bench.inbox + "/jan.csv", atomically: false, encoding: .utf8)
        try await service.run()
        let day = FileMover.datedFolder("", Date()).dropFirst()
        #expect(bench.files(under: bench.processed) == ["\(day)/jan (2).csv", "\(day)/jan.csv"])
        #expect(try await store.imports().count == 1)
        #expect(try await bench.transactionCount(store) == 3)
    }

    @Test("a burst of 200 files is all imported, each in its own transaction, in name order")
    func burst() async throws {
        let bench = try WatchBench()
        let store = try bench.openStore()
        try await writeStatements((0..<200).map { (bench.inbox + String(format: "/stmt-%04d.csv", $0), "b\($0)", 5) })
        let started = Date()
        let service = try bench.service(store, bench.settings(once: true, settle: .milliseconds(100)))
        try await service.run()
        let seconds = Date().timeIntervalSince(started)
        let imports = try await store.imports(limit: 1000)
        #expect(imports.count == 200)
        #expect(imports.reversed().map { ($0.path as NSString).lastPathComponent } == (0..<200).map { String(format: "stmt-%04d.csv", $0) })
        #expect(try await bench.transactionCount(store) == 1000)
        #expect(bench.files(under: bench.inbox).allSatisfy { $0.hasPrefix("processed/") })
        print("burst of 200 files: \(String(format: "%.2f", seconds)) s")
    }

    @Test("temporary and hidden names are ignored until renamed")
    func ignoredNames() {
        for name in [".x.csv", "a.csv.crdownload", "a.part", "a.tmp", "~$book.csv", "a.csv.error.txt"] {
            #expect(InboxScanner.isIgnored(name), "\(name)")
        }
        for name in ["a.csv", "statement.ofx", "2026-01.xml"] { #expect(!InboxScanner.isIgnored(name), "\(name)") }
        #expect(FileMover.numbered("a.csv", 2) == "a (2).csv")
        #expect(FileMover.numbered("README", 3) == "README (3)")
    }
}
