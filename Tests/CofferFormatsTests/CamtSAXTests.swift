import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// libxml2 is fed a file in chunks: where a chunk ends (inside a tag, a value, a multi-byte character, an entity
/// reference) must change neither the events nor the lines they are located at, nor an error's location.
@Suite struct CamtChunkTests {
    typealias S = CamtTestSupport

    static let samples = ["nl-053-v08.xml", "de-musterbank-053-v02.xml", "card-foreign-053-v06.xml",
                          "intraday-052-v08.xml", "two-accounts-053-v04.xml"]

    static func events(_ path: String, chunkSize: Int) throws -> [StatementEvent] {
        var out: [StatementEvent] = []
        try CamtParser(chunkSize: chunkSize).parse(.file(path)) { out.append($0) }
        return out
    }

    @Test(arguments: samples)
    func anyChunkSizeGivesTheSameEvents(_ name: String) throws {
        let path = S.feeds.appendingPathComponent(name).path
        let whole = S.dump(try Self.events(path, chunkSize: 1 << 20))
        for size in [1, 2, 3, 5, 7, 64, 1000, 4093] {
            #expect(S.dump(try Self.events(path, chunkSize: size)) == whole, "chunks of \(size) bytes")
        }
    }

    @Test func anErrorIsLocatedTheSameWhateverTheChunks() throws {
        let text = CamtMalformedTests.document(CamtMalformedTests.goodEntry
            + "<Ntry><Amt Ccy=\"EUR\">12,50</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>\n")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("camt-chunks-\(UUID()).xml")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var seen: Set<String> = []
        for size in [1, 3, 17, 4096] {
            do {
                _ = try Self.events(file.path, chunkSize: size)
                Issue.record("chunks of \(size) bytes parsed a bad amount")
            } catch let error as CofferError {
                seen.insert("\(error.location?.line ?? 0):\(error.location?.column ?? 0) \(error.location?.element ?? "")")
            }
        }
        #expect(seen == ["5:33 Document/BkToCstmrStmt/Stmt[1]/Ntry[2]/Amt"])
    }
}

/// libxml2 never loads anything the document points to: an external DTD's entities stay undeclared.
@Suite struct CamtExternalDTDTests {
    @Test func anExternalDTDIsNeverLoaded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camt-dtd-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dtd = folder.appendingPathComponent("secret.dtd")
        try Data("<!ENTITY secret \"LOADED-FROM-DISK\">\n".utf8).write(to: dtd)
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE Document SYSTEM \"\(dtd.absoluteString)\">\n"
            + #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr>"#
            + "<MsgId>&secret;</MsgId></GrpHdr></BkToCstmrStmt></Document>"
        let error = try #require(CamtTestSupport.failure(text))
        #expect(error.code == .badInput)
        #expect(error.message.contains("undeclared entity"), "\(error)")
        #expect(!error.description.contains("LOADED-FROM-DISK"))
        #expect(error.location?.line == 3)
    }
}
