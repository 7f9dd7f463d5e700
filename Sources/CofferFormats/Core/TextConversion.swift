import CofferModel
#if canImport(Glibc)
import Glibc
#endif

/// How a file's bytes are converted to the UTF-8 a parser reads, chunk by chunk (`StatementInput.converting(_:)`).
///
/// - `utf16`: UTF-16 text (`UTF16Text`).
/// - `singleByte`: a declared 8-bit encoding (`<?xml … encoding="ISO-8859-15"?>`): Windows-1252 by Coffer's own
///   table, which also reads the `ISO-8859-1` and `US-ASCII` labels (as browsers do, WHATWG Encoding Standard:
///   bytes 0x80–0x9F in such files are `€ „ “ …`, never C1 controls); any other single-byte encoding iconv knows
///   through a table iconv fills once.
/// - `utf8Repairing`: UTF-8 whose invalid bytes are read as Windows-1252, each on its own (a camt file a bank wrote
///   in ISO-8859-15 or Windows-1252 without saying so; Coffer's rule for every text field of every format).
/// - `declaredByProfile`: one of the above that a CSV profile's `encoding` names; its errors say so.
package enum TextConversion: Sendable, Hashable {
    case utf16(UTF16Text.Form)
    case singleByte(String)
    case utf8Repairing
    indirect case declaredByProfile(TextConversion)

    /// What the bytes were read as, for messages and `StatementInput.convertedFrom`.
    package var label: String {
        switch self {
        case .utf16(let form): form.label
        case .singleByte(let label): label
        case .utf8Repairing: "UTF-8, invalid bytes as Windows-1252"
        case .declaredByProfile(let conversion): conversion.label
        }
    }
}

/// A single-byte encoding as a table: each byte's UTF-8, built once from the label. Windows-1252 by Coffer's own
/// table, which also reads the `ISO-8859-1` and `US-ASCII` labels (WHATWG); any other encoding iconv knows whose
/// bytes 0x00–0x7F are ASCII (`ISO-8859-15`, `windows-1250`, `CP1251`, `KOI8-R`) by asking iconv once per byte.
package struct SingleByteTable: Sendable {
    /// The label as given.
    package let label: String
    /// Each byte's UTF-8, empty where the encoding defines no character.
    let utf8: [[UInt8]]

    /// Labels read as Windows-1252 (WHATWG: `ISO-8859-1` and `US-ASCII` mean `windows-1252` on the web).
    static let windows1252Labels: Set<String> = [
        "WINDOWS-1252", "CP1252", "1252", "X-CP1252", "ISO-8859-1", "ISO8859-1", "ISO_8859-1", "LATIN1", "ISO-LATIN-1",
        "L1", "US-ASCII", "ASCII", "ANSI_X3.4-1968",
    ]

    package enum Failure: Error, Equatable {
        /// iconv knows no such encoding.
        case unknown
        /// The encoding's bytes 0x00–0x7F are not ASCII, or it is not a single-byte encoding (UTF-7, EBCDIC, Shift_JIS).
        case notASCIISuperset
    }

    /// The name iconv knows for a label as OFX headers spell charsets: `1251` is `CP1251`, `8859-2` is `ISO-8859-2`.
    static func iconvName(_ label: String) -> String {
        let trimmed = label.filter { $0 != " " && $0 != "\t" }
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isNumber) { return "CP" + trimmed }
        if trimmed.hasPrefix("8859-") { return "ISO-" + trimmed }
        return trimmed
    }

    package init(label: String) throws(Failure) {
        self.label = label
        let name = Self.iconvName(label)
        if Self.windows1252Labels.contains(name.uppercased()) {
            utf8 = (0...255).map { Array(String(TextEncoding.cp1252Scalar(UInt8($0))).utf8) }
            return
        }
        let cd = iconv_open("UTF-8", name)
        guard cd != iconv_t(bitPattern: -1) else { throw .unknown }
        defer { iconv_close(cd) }
        var table: [[UInt8]] = []
        for byte in 0...255 {
            var input = [CChar(bitPattern: UInt8(byte))]
            var output = [CChar](repeating: 0, count: 8)
            let produced: Int = input.withUnsafeMutableBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                    var inLeft = 1
                    var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                    var outLeft = 8
                    _ = iconv(cd, nil, nil, nil, nil)  // reset any shift state
                    let result = iconv(cd, &inPointer, &inLeft, &outPointer, &outLeft)
                    // EINVAL: the byte starts a longer sequence, so the encoding is not single-byte.
                    if result == -1, errno == EINVAL { return -2 }
                    return result == -1 || inLeft != 0 ? -1 : 8 - outLeft
                }
            }
            if produced == -2 { throw .notASCIISuperset }
            let bytes = produced > 0 ? output.prefix(produced).map { UInt8(bitPattern: $0) } : []
            if byte < 0x80, bytes != [UInt8(byte)] { throw .notASCIISuperset }
            table.append(bytes)
        }
        utf8 = table
    }

    /// Text bytes as a field reads them: valid UTF-8 as UTF-8 (whatever the label says), else each byte through
    /// the table, a byte the encoding does not define as Windows-1252.
    package func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            if byte < 0x80 { out.append(byte); continue }
            let mapped = utf8[Int(byte)]
            if mapped.isEmpty { out.append(contentsOf: String(TextEncoding.cp1252Scalar(byte)).utf8) } else { out.append(contentsOf: mapped) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Converts the bytes of a declared single-byte encoding to UTF-8 through its `SingleByteTable`: stateless, so
/// chunk cuts need no care. A byte the encoding leaves undefined fails the file, naming its line.
package struct SingleByteDecoder {
    let label: String
    let file: String
    /// Who named the encoding, for errors: `the XML declaration` (camt), `the profile's encoding` (CSV).
    let declaredBy: String
    private let table: [[UInt8]]
    private var line = 1
    private var offset = 0

    /// A decoder for `label`; throws when the label names no encoding iconv knows, or one that is not an 8-bit
    /// superset of ASCII (UTF-7, Shift_JIS, EBCDIC).
    package init(label: String, file: String, declaredBy: String = "the XML declaration") throws {
        self.label = label
        self.file = file
        self.declaredBy = declaredBy
        do {
            table = try SingleByteTable(label: label).utf8
        } catch .unknown {
            throw CofferError(.badInput, "expected UTF-8 or a single-byte encoding Coffer knows, found encoding=\"\(label)\" "
                              + "in the XML declaration; convert the file to UTF-8 first",
                              location: SourceLocation(file: file, line: 1))
        } catch .notASCIISuperset {
            throw CofferError(.badInput, "expected UTF-8 or a single-byte encoding that extends ASCII, found "
                              + "encoding=\"\(label)\" in the XML declaration; convert the file to UTF-8 first",
                              location: SourceLocation(file: file, line: 1))
        }
    }

    package mutating func convert(_ chunk: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count + chunk.count / 8)
        for byte in chunk {
            offset += 1
            if byte < 0x80 {
                if byte == 0x0A { line += 1 }
                out.append(byte)
                continue
            }
            let utf8 = table[Int(byte)]
            guard !utf8.isEmpty else {
                let hex = String(byte, radix: 16, uppercase: true)
                throw CofferError(.badInput, "expected \(label) text as \(declaredBy) says, found byte 0x\(hex), "
                                  + "which \(label) does not define, at byte \(offset)",
                                  location: SourceLocation(file: file, line: line))
            }
            out.append(contentsOf: utf8)
        }
        return out
    }
}

/// Passes valid UTF-8 through and reads each byte that is not part of a valid sequence as Windows-1252; a chunk
/// without such a byte is passed on as it is. Remembers the first byte it read so, for the parser's warning.
package struct UTF8Repairer {
    /// The end of the previous chunk: the start of a sequence it cut.
    private var carry: [UInt8] = []
    private var line = 1
    private var offset = 0
    /// Where the first byte read as Windows-1252 was: its line, its value and its place in the file (counting from 1).
    package private(set) var firstRepair: (line: Int, byte: UInt8, offset: Int)?

    package init() {}

    /// The length of the valid UTF-8 sequence at `i`, 0 when the byte there starts none, or -1 when the bytes
    /// end before the sequence does (it may continue in the next chunk).
    private static func sequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = b[i]
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; high = 0x9F
        case 0xF0: count = 4; low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; high = 0x8F
        default: return 0
        }
        for k in 1..<count {
            guard i + k < b.count else { return -1 }
            let c = b[i + k]
            if k == 1 ? !(low...high).contains(c) : !(0x80...0xBF).contains(c) { return 0 }
        }
        return count
    }

    /// The UTF-8 of `chunk` after what the last one left; `atEnd` when no chunk follows.
    package mutating func convert(_ chunk: [UInt8], atEnd: Bool = false) -> [UInt8] {
        let bytes = carry.isEmpty ? chunk : carry + chunk
        let carried = carry.count
        carry = []
        return bytes.withUnsafeBufferPointer { b -> [UInt8] in
            // Fast path: find the first byte that needs care; before it everything is valid and passes as is.
            var i = 0
            var out: [UInt8]?
            while i < b.count {
                let byte = b[i]
                if byte < 0x80 {
                    if byte == 0x0A { line += 1 }
                    out?.append(byte)
                    i += 1
                    continue
                }
                let length = Self.sequenceLength(b, at: i)
                if length == -1, !atEnd {  // cut by the chunk's end: keep it for the next one
                    carry = Array(b[i...])
                    break
                }
                if length > 0 {
                    out?.append(contentsOf: b[i..<(i + length)])
                    i += length
                    continue
                }
                if out == nil {
                    out = Array(b[..<i])
                    out!.reserveCapacity(b.count + 64)
                }
                if firstRepair == nil { firstRepair = (line, byte, offset + i + 1) }
                out!.append(contentsOf: String(TextEncoding.cp1252Scalar(byte)).utf8)
                i += 1
            }
            offset += b.count - carry.count  // bytes[0] stood at `offset`; the new carry is not yet read
            if let out { return out }
            if carry.isEmpty && carried == 0 { return chunk }
            return Array(b[..<(b.count - carry.count)])
        }
    }
}

/// Whether `prefix` is valid UTF-8, a sequence cut at its end allowed (the prefix of a longer file).
package func isValidUTF8Prefix(_ prefix: [UInt8]) -> Bool {
    var repairer = UTF8Repairer()
    _ = repairer.convert(prefix)
    return repairer.firstRepair == nil
}
