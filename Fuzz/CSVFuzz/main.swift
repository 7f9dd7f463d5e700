import CofferFormats
import CofferModel
import Foundation

/// The profiles of `config/profiles` (or `$COFFER_FUZZ_PROFILES`), loaded once.
let profiles: [CSVProfile] = {
    let directory = ProcessInfo.processInfo.environment["COFFER_FUZZ_PROFILES"] ?? "config/profiles"
    do {
        let set = try CSVProfileSet.load(directory: directory)
        precondition(!set.profiles.isEmpty, "no profiles in \(directory)")
        return set.profiles
    } catch {
        fatalError("cannot load the CSV profiles from \(directory): \(error)")
    }
}()

/// libFuzzer entry point for `CSVStatementParser`: the first byte picks a profile, the rest is the file.
///
/// Any bytes must parse or throw a `CofferError`, never trap or hang. Built by `scripts/fuzz.sh`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let profile = profiles[Int(start[0]) % profiles.count]
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    // Profiles that read the account from the file name get a name they read, so the rows are reached.
    let names = ["chase-checking": "Chase1234_Activity_fuzz.CSV", "volksbank": "Umsaetze_DE27100777770209299700_fuzz.csv"]
    let input = StatementInput.bytes(bytes, name: names[profile.id] ?? "fuzz.csv")
    do {
        _ = try CSVProfileSet(profiles: profiles).identify(input)
        try CSVStatementParser(profile: profile).parse(input) { _ in }
    } catch let error as CofferError {
        _ = error.description
    } catch {
        fatalError("CSVStatementParser threw a non-Coffer error: \(error)")
    }
    return 0
}
