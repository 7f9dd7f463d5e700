import CofferFormats
import CofferModel

/// libFuzzer entry point for `OFXParser`: any bytes must parse or throw a `CofferError`, never trap or hang.
///
/// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address`; see docs/fuzzing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    _ = OFXParser.sniff(Array(bytes.prefix(4096)))
    do {
        // Input that starts as UTF-16 goes through the conversion an import would put in front (UTF16Text).
        let parser: any StatementParser = UTF16Text.form(of: bytes).map { UTF16StatementParser(form: $0, inner: OFXParser()) } ?? OFXParser()
        try parser.parse(.bytes(bytes, name: "fuzz.ofx")) { _ in }
    } catch let error as CofferError {
        _ = error.description
    } catch {
        fatalError("OFXParser threw a non-Coffer error: \(error)")
    }
    return 0
}
