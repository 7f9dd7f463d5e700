import CofferFormats
import CofferModel

/// libFuzzer entry point for `MT940Parser`: any bytes must parse or throw a `CofferError`, never trap or hang.
///
/// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address`; see docs/fuzzing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    _ = MT940Parser.sniff(Array(bytes.prefix(4096)))
    do {
        try MT940Parser().parse(.bytes(bytes, name: "fuzz.sta")) { _ in }
    } catch let error as CofferError {
        _ = error.description
    } catch {
        fatalError("MT940Parser threw a non-Coffer error: \(error)")
    }
    return 0
}
