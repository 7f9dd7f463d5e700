import CofferModel
import Foundation
import Testing
@testable import CofferFormats
import CofferTestSupport

/// Seeded random mutations of the samples (byte flips, cuts, duplicated and dropped spans, injected markup):
/// each either parses or throws `CofferError`. A crash or a hang fails the run.
@Suite struct CamtMutationTests {
    typealias SplitMix = SplitMix64

    static let fragments: [[UInt8]] = [
        "<", ">", "</Ntry>", "<Ntry>", "&", "&amp;", "<![CDATA[x]]>", "<!--", "-->", "\u{0}", "\u{FEFF}",
        "<Amt Ccy=\"EUR\">-1</Amt>", "<TxDtls>", "</Stmt>", "<Stmt>", "\"", "é", "\u{FF}",
    ].map { Array($0.utf8) }

    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard !out.isEmpty else { break }
            let at = Int.random(in: 0..<out.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: out[at] = UInt8.random(in: 0...255, using: &rng)
            case 1: out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...200, using: &rng)))
            case 2:
                let end = min(out.count, at + Int.random(in: 1...300, using: &rng))
                out.insert(contentsOf: out[at..<end], at: at)
            case 3: out.insert(contentsOf: fragments.randomElement(using: &rng) ?? [], at: at)
            default: out = Array(out.prefix(at))
            }
        }
        return out
    }

    @Test(arguments: ["de-musterbank-053-v02.xml", "nl-053-v08.xml", "batch-053-v02.xml", "card-foreign-053-v06.xml"])
    func mutatedSamplesNeverCrash(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: CamtTestSupport.feeds.appendingPathComponent(name)))
        for seed in UInt64(1)...300 {
            var rng = SplitMix(state: seed)
            let mutated = Self.mutate(bytes, &rng)
            do {
                _ = try CamtTestSupport.events(.bytes(mutated, name: "mutated.xml"))
            } catch let error as CofferError {
                #expect(error.code == .badInput || error.code == .unknownFormat, "seed \(seed): \(error)")
                #expect(error.location != nil, "seed \(seed): \(error)")
            } catch {
                Issue.record("seed \(seed): unexpected error \(error)")
            }
        }
    }
}
