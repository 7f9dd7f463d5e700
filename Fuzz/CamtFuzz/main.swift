import CofferFormats
import CofferModel

/// libFuzzer entry point for `CamtParser`: any bytes must parse or throw a `CofferError`, never trap or hang.
///
/// Built by `scripts/fuzz.sh` with `-sanitize=fuzzer,address`; see docs/fuzzing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    _ = CamtParser.sniff(Array(bytes.prefix(4096)))
    do {
        try CamtParser().parse(.bytes(bytes, name: "fuzz.xml")) { _ in }
    } catch let error as CofferError {
        _ = error.description
    } catch {
        fatalError("CamtParser threw a non-Coffer error: \(error)")
    }
    return 0
}
