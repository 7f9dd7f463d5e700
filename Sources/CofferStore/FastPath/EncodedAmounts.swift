import CofferModel
import Foundation

/// The stored text and integer forms of a transaction's amounts, and its folded search text, computed before the
/// write.
///
/// Turning a `Decimal` into its exact text and micro-units costs about a microsecond per transaction; an import
/// computes them on its parsing thread (see `CofferPipeline`'s import pipe) so the thread holding the write
/// transaction only binds values. So for the folded text (`txn.folded_text`, `SearchFolding`): the writer uses it
/// when the transaction's texts are still the ones it was folded from, and folds again otherwise. Everything else
/// is bound straight from the `Transaction`.
package struct EncodedAmounts: Sendable, Equatable {
    let amountText: String
    /// Micro-units; `nil` when the amount has more than six decimals (stored truncated, see `Rows.scaled`).
    let exactScaled: Int64?
    let amountScaled: Int64
    let foreignAmountText: String?
    let exchangeRateText: String?
    /// `Rows.foldedText` of the texts below.
    let foldedText: String
    let foldedFrom: FoldedTexts

    struct FoldedTexts: Sendable, Equatable {
        let description: String
        let original: String
        let merchant: String?

        init(_ t: borrowing Transaction) {
            description = t.transactionDescription
            original = t.originalTransactionDescription
            merchant = t.merchantName
        }
    }

    /// The folded text of `t`: the one computed beforehand when `t`'s texts are unchanged since.
    func foldedText(of t: Transaction) -> String {
        foldedFrom == FoldedTexts(t) ? foldedText : Rows.foldedText(t)
    }

    /// The amount in micro-units as `amount_scaled` stores it (positive; truncated beyond six decimals).
    package var scaled: Int64 { amountScaled }

    package init(_ t: borrowing Transaction) {
        let amount = t.transactionAmount.amount
        amountText = ExactDecimal.text(amount)
        exactScaled = ExactDecimal.scaled(amount)
        amountScaled = exactScaled ?? Rows.scaled(amount)
        foreignAmountText = t.foreignCurrencyAmount.map { ExactDecimal.text($0.amount) }
        exchangeRateText = t.foreignCurrencyExchangeRate.map { ExactDecimal.text($0) }
        foldedText = Rows.foldedText(t)
        foldedFrom = FoldedTexts(t)
    }
}
