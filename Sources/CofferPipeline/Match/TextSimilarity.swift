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

extension TextSimilarity {
    /// How well a transaction's text names `merchant` (an order's merchant), 0…1: the share of the merchant's words
    /// found among the transaction's merchant, description and original description; or 0.75 when the bank squashed
    /// or cut the name (`NORDICOUTFIT*8842` for Nordic Outfitters): the merchant's first 8 letters (5 at least) appear
    /// in the transaction's letters run together.
    static func score(merchant: String, _ t: Transaction) -> Double {
        let wanted = words(merchant)
        guard !wanted.isEmpty else { return 0 }
        let text = [t.merchantName ?? "", t.transactionDescription, t.originalTransactionDescription].joined(separator: " ")
        var score = Double(wanted.intersection(words(text)).count) / Double(wanted.count)
        let squashedMerchant = merchant.lowercased().split { !$0.isLetter }.map(String.init)
            .filter { !legalForms.contains($0) }.joined()
        if squashedMerchant.count >= 5 {
            let squashedText = String(text.lowercased().filter(\.isLetter))
            if squashedText.contains(String(squashedMerchant.prefix(8))) { score = max(score, 0.75) }
        }
        return score
    }
}
