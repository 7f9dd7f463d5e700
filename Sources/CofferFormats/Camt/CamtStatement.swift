import CofferModel
import Foundation

/// One `Stmt` (camt.053), `Rpt` (camt.052) or `Ntfctn` (camt.054) while it is read: its header, and the sums
/// that check it reconciles.
struct CamtStatement: Sendable {
    var header: RawStatementHeader
    /// Whether `.begin` was emitted (it is, at the first balance or entry, or at the end).
    var begun = false
    var entryCount = 0
    var balanceCount = 0
    var opening: Decimal?
    var closing: Decimal?
    var openingCode: String?
    /// Σ credits − Σ debits of the booked entries.
    var bookedNet = Decimal(0)
    var currency: String?

    init(location: SourceLocation) {
        header = RawStatementHeader(account: RawAccountIdentity(kind: .asset), location: location)
    }

    /// Records the account type and the kind it implies.
    ///
    /// ISO's `CARD` (card account) and `LOAN` are liabilities: a `DBIT` on them is money owed. Every other
    /// type (current `CACC`, savings `SVGS`, …) and an absent type are assets.
    mutating func setAccountType(_ code: String) {
        header.account.accountType = code
        header.account.kind = (code == "CARD" || code == "LOAN") ? .liability : .asset
    }

    /// Takes a balance into the reconciliation check.
    mutating func note(_ balance: RawBalance) {
        let signed = balance.resolvedIndicator == .debit ? -balance.amount : balance.amount
        switch balance.code {
        case "OPBD":
            opening = signed; openingCode = "OPBD"
        case "PRCD" where openingCode != "OPBD":
            opening = signed; openingCode = "PRCD"
        case "CLBD":
            closing = signed
        default: break
        }
    }

    /// Takes an entry into the reconciliation check; only booked entries move the booked balance.
    mutating func note(entry amount: Decimal, indicator: CreditDebitIndicator, status: TransactionStatus?) {
        guard status == nil || status == .booked else { return }
        bookedNet += indicator == .debit ? -amount : amount
    }

    /// A warning when the opening balance plus the booked entries is not the closing balance.
    func reconciliationWarning() -> ParseWarning? {
        guard let opening, let closing, let openingCode else { return nil }
        let expected = opening + bookedNet
        guard expected != closing else { return nil }
        func text(_ d: Decimal) -> String { ExactDecimal.text(d, minimumFractionDigits: 2) }
        let unit = currency.map { " \($0)" } ?? ""
        let message = "the statement does not reconcile: \(openingCode) \(text(opening))\(unit) + booked entries "
            + "\(text(bookedNet))\(unit) = \(text(expected))\(unit), but CLBD is \(text(closing))\(unit) "
            + "(difference \(text(closing - expected))\(unit)); imported as sent"
        return ParseWarning(message, location: header.location)
    }
}
