import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// What follows a camt document's end: a DOS end-of-file mark (Ctrl-Z) or NUL padding that old transfer software
/// adds is no data, and the document before it is whole; anything else still fails the file.
@Suite struct CamtTrailingBytesTests {
    static func outcome(_ bytes: [UInt8], chunkSize: Int) -> Result<[StatementEvent], CofferError> {
        var events: [StatementEvent] = []
        do {
            try CamtParser(chunkSize: chunkSize).parse(.bytes(bytes, name: "tail.xml")) { events.append($0) }
            return .success(events)
        } catch {
            return .failure(error as? CofferError ?? CofferError(.usage, "\(error)"))
        }
    }

    @Test func paddingAfterTheDocumentIsIgnoredWithAWarning() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: CamtTestSupport.feeds.path).filter { $0.hasSuffix(".xml") }.sorted()
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: CamtTestSupport.feeds.appendingPathComponent(name)))
            func places(_ events: [StatementEvent]) -> [String] {
                CamtTestSupport.transactions(events).map { "\($0.location.line ?? 0) \($0.location.element ?? "")" }
            }
            let expected = places(try CamtTestSupport.sample(name))
            for padding: [UInt8] in [[0x1A], [0x0D, 0x0A, 0x1A], [UInt8](repeating: 0, count: 700), [0x1A, 0, 0, 0x0A, 0]] {
                for chunkSize in [1 << 20, 7] {
                    let events = try Self.outcome(bytes + padding, chunkSize: chunkSize).get()
                    #expect(places(events) == expected, "\(name) + \(padding.prefix(5))")
                    let warnings = CamtTestSupport.warnings(events).filter { $0.message.contains("after the end of the Document element") }
                    let content = padding.filter { $0 != 0x0A && $0 != 0x0D }.count
                    #expect(warnings.count == (content > 0 ? 1 : 0), "\(name) + \(padding.prefix(5)) in chunks of \(chunkSize)")
                }
            }
        }
    }

    @Test func dataAfterTheDocumentStillFails() throws {
        let bytes = [UInt8](try Data(contentsOf: CamtTestSupport.feeds.appendingPathComponent("nl-053-v08.xml")))
        for chunkSize in [1 << 20, 7] {
            // Garbage after a Ctrl-Z, and a second document after NUL bytes.
            guard case .failure(let garbage) = Self.outcome(bytes + [0x1A] + Array("garbage".utf8), chunkSize: chunkSize) else {
                Issue.record("garbage after the end was read")
                continue
            }
            #expect(garbage.message.contains("expected the file to end after the Document element"), "\(garbage)")
            guard case .failure(let joined) = Self.outcome(bytes + [0, 0, 0] + bytes, chunkSize: chunkSize) else {
                Issue.record("a second document after NUL bytes was read")
                continue
            }
            #expect(joined.message.contains("NUL"), "\(joined)")
        }
        // A Ctrl-Z inside the document is no padding.
        let text = String(decoding: bytes, as: UTF8.self)
        let cut = text.replacingOccurrences(of: "</ns2:Stmt>", with: "\u{1A}</ns2:Stmt>")
        #expect(cut != text)
        guard case .failure = Self.outcome(Array(cut.utf8), chunkSize: 1 << 20) else {
            Issue.record("a Ctrl-Z inside the document was read")
            return
        }
    }
}
