import CofferModel
import CofferTestSupport
import Testing
@testable import CofferStore

/// `txn.folded_text` (`Rows.foldedText`) is each distinct folded text of a row, joined by U+001F, in the order
/// description, original description, merchant: the same text `+` joins, on random rows where texts repeat, fold
/// to the same text, or are absent. A failure prints its seed.
@Suite struct FoldedTextTests {
    static let texts = ["Café Müller", "CAFE MULLER", "café müller", "Corner Cafe", "KÖLN HBF", "", "Straße 5", "İstanbul"]

    /// The definition, joined with `+`.
    static func reference(_ description: String, _ original: String, _ merchant: String?) -> String {
        let first = SearchFolding.fold(description)
        let second = SearchFolding.fold(original)
        var text = first
        if second != first { text += "\u{1F}" + second }
        if let merchant {
            let third = SearchFolding.fold(merchant)
            if third != first, third != second { text += "\u{1F}" + third }
        }
        return text
    }

    @Test func theThreeTextsFoldAndJoinAsDefined() {
        for seed in UInt64(1)...500 {
            var rng = SplitMix64(state: seed)
            let description = Self.texts.randomElement(using: &rng)!
            let original = Bool.random(using: &rng) ? description : Self.texts.randomElement(using: &rng)!
            let merchant: String? = switch Int.random(in: 0..<4, using: &rng) {
            case 0: nil
            case 1: description
            case 2: original
            default: Self.texts.randomElement(using: &rng)!
            }
            #expect(Rows.foldedText(description: description, original: original, merchant: merchant)
                    == Self.reference(description, original, merchant), "seed \(seed)")
        }
    }
}
