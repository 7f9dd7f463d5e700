import CofferModel
import Testing
@testable import CofferPipeline

@Suite("Normalize: odd input")
struct NormalizeRobustnessTests {
    @Test func oddTextsNeverCrash() {
        let texts = [
            "*", "***", "//", "////BERLIN", "#", "# 12", "   ", "\t\n", "&", "CARD", "STORE", "REF", "SQ *", "TST*",
            "ÄÖÜ ß", "🍕 PIZZA 🍕", "日本の店 TOKYO", "X", "XX", "XXXX", "12", "1234567890123456789012345678901234567890",
            String(repeating: "A", count: 10_000), String(repeating: "SQ * ", count: 500),
            String(repeating: "#1 ", count: 2_000), "CHECKCARD", "CHECKCARD 0314", "PURCHASE AUTHORIZED ON",
            "café\u{301}", "\u{0}\u{1}\u{7F}", "Ü", "ÃƒÂ©", "MC", "MCX", "O'", "'", "-", "A-", "-A", ".COM",
        ]
        let normalizer = NormalizeFixtures.normalizer
        for text in texts {
            for indicator in CreditDebitIndicator.allCases {
                let result = normalizer.normalize(text: text, typeCode: text, indicator: indicator)
                #expect(result.display.utf8.count <= text.utf8.count + 64, "\(text.prefix(40))")
            }
        }
    }

    @Test func randomBytesNeverCrash() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let alphabet = Array("SQ*TST#0123456789 XABCDEFGHIJKLMNOPQRSTUVWXYZ/.&-'ÄÖÜßé€ab\t".unicodeScalars)
        for _ in 0..<2_000 {
            let length = Int(next() % 60)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
            _ = NormalizeFixtures.normalizer.normalize(text: text, indicator: next() % 2 == 0 ? .debit : .credit)
            _ = CategoryMCCTable.key(text)
        }
    }
}
