import CofferModel
import Foundation
import Testing
@testable import CofferFormats

@Suite struct CSVRecordReaderTests {
    func records(_ bytes: [UInt8], delimiter: Character = ",", chunkSize: Int = 1 << 20) throws -> [(Int, [String])] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-reader-\(UUID()).csv").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try CSVRecordReader(input: .file(path), delimiter: delimiter.asciiValue ?? 0, chunkSize: chunkSize)
        var out: [(Int, [String])] = []
        while try reader.next() {
            out.append((reader.line, (0..<reader.fieldCount).map { i in reader.withField(i) { String(decoding: $0, as: UTF8.self) } }))
        }
        return out
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 20])
    func quotesDelimitersAndLineBreaksAcrossChunks(chunkSize: Int) throws {
        let text = "\u{FEFF}a,\"b,\"\"c\"\"\",d\r\n\"multi\r\nline\",2,\n\nx\ry,\"\"\r\nlast"
        let rows = try records(Array(text.utf8), chunkSize: chunkSize)
        #expect(rows.map(\.0) == [1, 2, 4, 5, 6, 7])
        #expect(rows.map(\.1) == [["a", "b,\"c\"", "d"], ["multi\r\nline", "2", ""], [""], ["x"], ["y", ""], ["last"]])
    }

    @Test func strayQuotesStayText() throws {
        let rows = try records(Array("5\" screen,\"ok\"tail\n".utf8))
        #expect(rows.first?.1 == ["5\" screen", "oktail"])
    }

    @Test func unclosedQuoteNamesItsLine() throws {
        let error = CSVTestSupport.error { _ = try records(Array("a,b\n1,\"open\n2,3\n".utf8)) }
        #expect(error?.code == .badInput)
        #expect(error?.location?.line == 2)
        #expect(error?.message.contains("never closed") == true)
    }

    @Test func nulByteIsBinary() throws {
        let error = CSVTestSupport.error { _ = try records([0x61, 0x2C, 0x62, 0x0A, 0x00, 0x01]) }
        #expect(error?.location?.line == 2)
    }
}
