import CofferModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Text in encodings the byte reader does not decode itself, converted to UTF-8 before it reads: UTF-16 with a
/// byte order mark (Excel's "Unicode text") or without one (`UTF16Text.form(of:)`: a header's first characters
/// are ASCII beside zero bytes), and any encoding iconv knows that a profile names (`cp1250`,
/// `cp1251`, `ISO-8859-15`, `MACINTOSH`, …).
///
/// UTF-16 and every single-byte encoding are converted as the file is read, a chunk at a time (`UTF16Transcoder`,
/// `SingleByteDecoder`, as for OFX, camt, MT940 and QIF), so a large export takes no more memory than its UTF-8
/// original: a 1M-row UTF-16 CSV held whole and converted by iconv took 742 MB. Only multi-byte encodings other
/// than UTF-16 (Shift_JIS, GB18030, Big5) are still converted whole by iconv and held in memory.
///
/// Why iconv by hand: Foundation's `String(data:encoding:)` knows only a few of these, and its MacRoman decodes
/// wrongly on this toolchain; glibc's iconv is on every Linux machine and knows hundreds.
package enum CSVInputDecoding {
    /// Whether iconv can convert from `label` to UTF-8.
    package static func isKnown(_ label: String) -> Bool {
        let cd = iconv_open("UTF-8", label)
        guard cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }

    /// `UTF-16LE` or `UTF-16BE` when `prefix` starts as UTF-16 text, and how long its byte order mark is (0 or 2).
    static func utf16Label(_ prefix: [UInt8]) -> (label: String, bom: Int)? {
        guard let form = UTF16Text.form(of: prefix) else { return nil }
        return (form.label, prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) ? 2 : 0)
    }

    /// `input` read as UTF-8 when it is UTF-16 or the profile names an iconv encoding; else `input`.
    static func utf8(_ input: StatementInput, profile: CSVProfile) throws -> StatementInput {
        let head = try input.prefix(4)
        // UTF-16 by its byte order mark or its ASCII beside zero bytes, whatever the profile says.
        if let form = UTF16Text.form(of: head) { return input.decodingUTF16(form) }
        guard let label = profile.iconvEncoding else { return input }
        if let form = UTF16Text.Form(label: label) { return input.converting(.declaredByProfile(.utf16(form))) }
        if (try? SingleByteTable(label: label)) != nil { return input.converting(.declaredByProfile(.singleByte(label))) }
        var bytes: [UInt8] = []
        let reader = try input.makeReader()
        while let chunk = try reader.next() { bytes.append(contentsOf: chunk) }
        return .bytes(try convert(bytes, from: label, file: input.name), name: input.name)
    }

    /// The first bytes of a file as UTF-8 for identification (a cut character at the end is dropped); nil when
    /// they need no conversion or cannot be converted.
    static func utf8Prefix(_ prefix: [UInt8], label: String? = nil) -> [UInt8]? {
        let utf16 = utf16Label(prefix)
        guard let from = utf16?.label ?? label else { return nil }
        let body = Array(prefix.dropFirst(utf16?.bom ?? 0))
        return try? convert(body, from: from, file: "", partialEnd: true)
    }

    /// Converts `bytes` from `label` to UTF-8; an invalid sequence throws `.badInput` naming its line.
    static func convert(_ bytes: [UInt8], from label: String, file: String, partialEnd: Bool = false) throws -> [UInt8] {
        let cd = iconv_open("UTF-8", label)
        guard cd != iconv_t(bitPattern: -1) else {
            throw CofferError(.badConfiguration, "iconv does not know the encoding '\(label)'")
        }
        defer { iconv_close(cd) }
        var output = [UInt8](repeating: 0, count: max(bytes.count * 2, 64))
        var input = bytes
        var produced = 0
        let inputCount = input.count
        var consumed = 0
        while consumed < inputCount {
            if output.count - produced < 64 { output.append(contentsOf: [UInt8](repeating: 0, count: output.count)) }
            let result: Int = input.withUnsafeMutableBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress! + consumed)
                        .assumingMemoryBound(to: CChar.self)
                    var inLeft = inputCount - consumed
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress! + produced)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = outBuffer.count - produced
                    let r = iconv(cd, &inPointer, &inLeft, &outPointer, &outLeft)
                    consumed = inputCount - inLeft
                    produced = outBuffer.count - outLeft
                    return r == -1 ? Int(errno) : 0
                }
            }
            switch result {
            case 0: break
            case Int(E2BIG): continue
            case Int(EINVAL) where partialEnd: consumed = inputCount
            default:
                let line = bytes[..<consumed].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                throw CofferError(.badInput, "the file is not valid \(label) text (a byte sequence \(label) does not "
                                  + "define, at byte \(consumed + 1)); check the profile's encoding",
                                  location: SourceLocation(file: file, line: line))
            }
        }
        return Array(output[..<produced])
    }
}
