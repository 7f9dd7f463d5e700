import CofferModel
import Foundation

/// How alike two transactions' texts are, 0…1: shared words of the merchant or cleaned description.
enum TextSimilarity {
    /// Two texts agree from this score on: half the words of the shorter text (3 letters or more) are in the
    /// other, or the merchants are equal (docs/dedupe.md has the edge cases).
    static let agreeing = 0.5

    static func score(_ a: Transaction, _ b: Transaction) -> Double {
        if let m = a.merchantName, let n = b.merchantName, !m.isEmpty, m.lowercased() == n.lowercased() { return 1 }
        let x = words(a.transactionDescription + " " + a.originalTransactionDescription)
        let y = words(b.transactionDescription + " " + b.originalTransactionDescription)
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        return Double(x.intersection(y).count) / Double(min(x.count, y.count))
    }

    /// Words of 3 letters or more, without legal forms (`GmbH`, `Inc`, `LLC`): they say nothing about which
    /// merchant it was, and would make `Corner Bakery GmbH` and `Metro Transit GmbH` a third alike.
    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter }.filter { $0.count >= 3 }.map(String.init)).subtracting(legalForms)
    }

    static let legalForms: Set<String> = ["gmbh", "inc", "llc", "ltd", "corp", "plc", "sarl", "ohg"]
}
