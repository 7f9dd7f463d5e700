@testable import CofferModel
import CofferTestSupport
import Testing

/// `UTF8Builder` writes what joining the same pieces with `+` gives, for ASCII and non-ASCII pieces, small and
/// large strings, and numbers from 0 to `Int.max`. A failure prints its seed.
@Suite struct UTF8BuilderTests {
    static let pieces = ["", "/", "STMTTRN", "Document/BkToCstmrStmt/Stmt", "ofx", ":", "Bäckerei Schäfer", "€",
                         String(repeating: "long text ", count: 12), "e\u{0301}", "🙂"]

    @Test func piecesAndNumbersJoinAsPlusJoinsThem() {
        for seed in UInt64(1)...500 {
            var rng = SplitMix64(state: seed)
            var expected = ""
            var steps: [(String?, Int?)] = []
            for _ in 0..<Int.random(in: 0...8, using: &rng) {
                if Bool.random(using: &rng) {
                    let piece = Self.pieces.randomElement(using: &rng)!
                    steps.append((piece, nil))
                    expected += piece
                } else {
                    let number = [0, 1, 9, 10, 99, 100, 12_345, Int.max, Int.random(in: 0...Int.max, using: &rng)]
                        .randomElement(using: &rng)!
                    steps.append((nil, number))
                    expected += String(number)
                }
            }
            let built = UTF8Builder.make(capacity: expected.utf8.count) { text in
                for (piece, number) in steps {
                    if let piece { text.put(piece) }
                    if let number { text.put(number: number) }
                }
            }
            #expect(built == expected, "seed \(seed)")
            #expect(built.utf8.count == expected.utf8.count, "seed \(seed)")
        }
    }

    @Test func aByteAtATime() {
        let built = UTF8Builder.make(capacity: 8) { text in
            text.put("Ntry")
            text.put(UInt8(ascii: "["))
            text.put(number: 3)
            text.put(UInt8(ascii: "]"))
        }
        #expect(built == "Ntry[3]")
    }
}
