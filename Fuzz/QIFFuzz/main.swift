import CofferFormats
import CofferModel

/// libFuzzer entry point for `QIFParser`: the first byte picks the date order (none, `dmy`, `mdy`), the rest is the
/// file. Any bytes must parse or throw a `CofferError`, never trap or hang.
///
/// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address`; see docs/fuzzing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let order: QIFDateOrder? = [nil, .dmy, .mdy][Int(start[0]) % 3]
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    _ = QIFParser.sniff(Array(bytes.prefix(4096)))
    do {
        try QIFParser(dateOrder: order).parse(.bytes(bytes, name: "fuzz.qif")) { _ in }
    } catch let error as CofferError {
        _ = error.description
    } catch {
        fatalError("QIFParser threw a non-Coffer error: \(error)")
    }
    return 0
}
