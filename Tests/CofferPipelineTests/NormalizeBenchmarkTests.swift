import CofferModel
import Foundation
import Testing
@testable import CofferPipeline

/// Measures clean + match + infer per transaction. Runs only with `COFFER_BENCH=1`:
/// `COFFER_BENCH=1 swift test -c release --filter NormalizeBenchmark`.
@Suite("Normalize: benchmark", .enabled(if: ProcessInfo.processInfo.environment["COFFER_BENCH"] == "1"))
struct NormalizeBenchmarkTests {
    @Test func nanosecondsPerTransaction() {
        let texts = descriptionCases.map(\.raw).filter { !$0.isEmpty }
        let normalizer = NormalizeFixtures.normalizer
        let cleaner = DescriptionCleaner()
        let rounds = 4_000
        let calls = rounds * texts.count
        var sink = 0
        let clock = ContinuousClock()
        let cleanOnly = clock.measure {
            for _ in 0..<rounds { for text in texts { sink &+= cleaner.clean(text).display.utf8.count } }
        }
        let cleanAndMatch = clock.measure {
            for _ in 0..<rounds {
                for text in texts {
                    let cleaned = cleaner.clean(text)
                    sink &+= normalizer.rules.match(raw: text, cleaned: cleaned.display) == nil ? 0 : 1
                }
            }
        }
        let whole = clock.measure {
            for _ in 0..<rounds {
                for text in texts { sink &+= normalizer.normalize(text: text, indicator: .debit).display.utf8.count }
            }
        }
        func perCall(_ duration: Duration) -> Int {
            Int((Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9) / Double(calls))
        }
        print("normalize benchmark: \(calls) calls; clean \(perCall(cleanOnly)) ns, clean+match \(perCall(cleanAndMatch)) ns, "
              + "clean+match+infer \(perCall(whole)) ns per transaction (sink \(sink))")
        #expect(sink > 0)
    }
}
