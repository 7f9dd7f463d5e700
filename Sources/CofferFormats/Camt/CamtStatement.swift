import CofferModel
import Foundation

/// One `Stmt` (camt.053), `Rpt` (camt.052) or `Ntfctn` (camt.054) while it is read: its header, its currency,
/// what waits for the currency to be known, and the sums that check each currency's part reconciles.
///
/// How the statement's currency is chosen (ISO makes `Acct/Ccy` optional, 0..1, and many banks omit it):
/// `Acct/Ccy`, else the first balance's `Amt/@Ccy`, else the first entry's. Balances come before entries in every
/// version, so until the first entry ends the balances wait here.
///
/// FinanceKit's account has one currency, so a statement of one account number in several currencies (a
/// multi-currency IBAN) is several accounts: balances and entries in another currency than the statement's are
/// set aside per currency and emitted after the statement as statements of their own, with the same account
/// number and period. They are held in memory (a statement's foreign-currency part is small in practice).
struct CamtStatement: Sendable {
    var header: RawStatementHeader
    /// Whether `.begin` was emitted (it is when the first entry ends, or at the end of the statement).
    var begun = false
    var entryCount = 0
    /// `Acct/Ccy` when given, else the currency chosen when the statement begins.
    var currency: String?
    /// `CreDtTm` of the statement, the last resort for an entry's date.
    var created: RawDate?
    /// Balances read before the statement began (its currency not yet known).
    var pendingBalances: [RawBalance] = []
    /// The statement's own currency's reconciliation.
    var reconciliation = CamtReconciliation()
    /// Parts in other currencies, by currency, in the order they appeared.
    var others: [CamtCurrencyPart] = []

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

    /// Whether an amount in `code` belongs to the statement's own currency (an amount without `Ccy` does).
    func isOwn(_ code: String?) -> Bool {
        guard let code, let currency else { return true }
        return code == currency
    }

    /// The part of the statement in `code`, made on first use.
    mutating func part(_ code: String) -> Int {
        if let index = others.firstIndex(where: { $0.currency == code }) { return index }
        others.append(CamtCurrencyPart(currency: code))
        return others.count - 1
    }
}

/// The balances and transactions of a statement in a currency other than its own, emitted after it.
struct CamtCurrencyPart: Sendable {
    let currency: String
    var balances: [RawBalance] = []
    var transactions: [RawTransaction] = []
    var reconciliation = CamtReconciliation()
}

/// Opening balance + booked entries = closing balance, checked for one currency of a statement.
struct CamtReconciliation: Sendable {
    var opening: Decimal?
    var closing: Decimal?
    var openingCode: String?
    /// Σ credits − Σ debits of the booked entries, in micro-units (`ExactDecimal.storageScale`) while each amount
    /// is exact at that scale and the sum fits 64 bits; any other amount is summed as a `Decimal` in `restNet`.
    /// Foundation's `Decimal` addition cost about 5,000 instructions an entry (callgrind), a twentieth of camt's
    /// parsing thread.
    private var scaledNet: Int64 = 0
    private var restNet = Decimal(0)

    /// Σ credits − Σ debits of the booked entries, exactly, without trailing fraction zeros.
    var bookedNet: Decimal {
        let scaled = Self.decimal(micro: scaledNet)
        return restNet.isZero ? scaled : restNet + scaled
    }

    /// `micro` micro-units as a `Decimal`, exactly and without trailing fraction zeros (as a sum of `Decimal`s
    /// prints).
    private static func decimal(micro: Int64) -> Decimal {
        var mantissa = micro.magnitude
        var exponent = -ExactDecimal.storageScale
        while exponent < 0, mantissa != 0, mantissa % 10 == 0 {
            mantissa /= 10
            exponent += 1
        }
        guard mantissa != 0 else { return Decimal(0) }
        return Decimal(sign: micro < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa))
    }

    /// Takes a balance into the check.
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

    /// Takes an entry into the check; only booked entries move the booked balance.
    mutating func note(entry amount: Decimal, indicator: CreditDebitIndicator, status: TransactionStatus?) {
        guard status == nil || status == .booked else { return }
        guard let scaled = ExactDecimal.scaled(amount) else {
            restNet += indicator == .debit ? -amount : amount
            return
        }
        // `scaled` is never `Int64.min` (its magnitude fits `Int64.max`), so it can be negated.
        let (sum, overflow) = scaledNet.addingReportingOverflow(indicator == .debit ? -scaled : scaled)
        if overflow {
            restNet += Self.decimal(micro: scaledNet)
            scaledNet = indicator == .debit ? -scaled : scaled
        } else {
            scaledNet = sum
        }
    }

    /// A warning when the opening balance plus the booked entries is not the closing balance.
    func warning(currency: String?, at location: SourceLocation) -> ParseWarning? {
        guard let opening, let closing, let openingCode else { return nil }
        let expected = opening + bookedNet
        guard expected != closing else { return nil }
        func text(_ d: Decimal) -> String { ExactDecimal.text(d, minimumFractionDigits: 2) }
        let unit = currency.map { " \($0)" } ?? ""
        let message = "the statement does not reconcile: \(openingCode) \(text(opening))\(unit) + booked entries "
            + "\(text(bookedNet))\(unit) = \(text(expected))\(unit), but CLBD is \(text(closing))\(unit) "
            + "(difference \(text(closing - expected))\(unit)); imported as sent"
        return ParseWarning(message, location: location, needsAttention: true, balanceDifference: closing - expected)
    }
}
