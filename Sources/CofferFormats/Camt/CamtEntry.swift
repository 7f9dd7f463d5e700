import CofferModel
import Foundation

/// An amount with its currency and, when a currency exchange goes with it, the rate.
struct CamtAmount: Sendable {
    var value: Decimal
    var currency: String?
}

/// What one `TxDtls` block says about one transaction inside an entry.
struct CamtTxDetails: Sendable {
    var amount: CamtAmount?
    var indicator: CreditDebitIndicator?
    var instructedAmount: CamtAmount?
    /// `CcyXchg/XchgRate` from `InstdAmt`, `TxAmt` or `CntrValAmt`, the first one given.
    var exchangeRate: Decimal?
    var accountServicerRef: String?
    var endToEndID: String?
    var creditorName: String?
    var debtorName: String?
    var ultimateCreditorName: String?
    var ultimateDebtorName: String?
    var remittance: [String] = []
    var additionalInfo: String?
    var transactionTime: RawDate?
    var code = CamtBankTransactionCode()

    mutating func apply(_ detail: CamtAmountDetail) {
        switch detail {
        case .transactionAmount(let amount): if self.amount == nil { self.amount = amount }
        case .instructedAmount(let amount): instructedAmount = amount
        case .exchangeRate(let rate): if exchangeRate == nil { exchangeRate = rate }
        }
    }
}

/// One value read from an `AmtDtls` block.
enum CamtAmountDetail: Sendable {
    case transactionAmount(CamtAmount)
    case instructedAmount(CamtAmount)
    case exchangeRate(Decimal)
}

/// One `Ntry` as it is read, turned into raw transactions when it ends.
///
/// How an entry reads (the choices a user sees):
/// - `transactionDate` is when it happened: the card's `RltdDts/AccptncDtTm` or `TxDtTm` when given, else
///   `BookgDt`, else (pending entries without a booking date) `ValDt`. `ValDt` is the interest value date, not the
///   moment of the payment, so it is never preferred. `postedDate` is `BookgDt`.
/// - `name` is the counterparty (`Cdtr` on a debit, `Dbtr` on a credit, sides swapped for a reversal; `Nm` or
///   `Pty/Nm`), else the bank's booking text `AddtlNtryInf`. `memo` is the remittance text (`Ustrd` lines joined
///   by a space), else the booking text when the name is the counterparty. `merchantName` is the counterparty.
/// - `RvslInd` only sets `isReversal`: the bank's `CdtDbtInd` already books a reversed debit as a credit.
struct CamtEntry: Sendable {
    var location: SourceLocation
    var amount: CamtAmount?
    var indicator: CreditDebitIndicator?
    var isReversal = false
    var status: TransactionStatus?
    var statusCode: String?
    var bookingDate: RawDate?
    var valueDate: RawDate?
    var accountServicerRef: String?
    var entryRef: String?
    var code = CamtBankTransactionCode()
    var additionalInfo: String?
    /// Entry-level `AmtDtls` (card payments often put the foreign amount there).
    var details = CamtTxDetails()
    var transactions: [CamtTxDetails] = []

    init(location: SourceLocation) { self.location = location }

    /// References banks write when they have none.
    static func usableRef(_ ref: String?) -> String? {
        guard let ref, ref != "NOTPROVIDED", ref != "NONREF" else { return nil }
        return ref
    }

    /// Whether the entry is split into one transaction per `TxDtls`: a batch of several, each with its own amount.
    var isSplit: Bool {
        transactions.count > 1 && transactions.allSatisfy { $0.amount != nil }
    }

    /// The raw transactions this entry stands for: one per `TxDtls` in a batch with amounts per transaction, else
    /// one for the whole entry. `amount` and `indicator` must already be checked.
    func rawTransactions(amount: CamtAmount, indicator: CreditDebitIndicator) -> [RawTransaction] {
        guard isSplit else {
            // One transaction for the entry. Ids from the strongest down: the entry's AcctSvcrRef, the single
            // TxDtls's AcctSvcrRef, NtryRef (often only unique inside one statement), the EndToEndId.
            let single = transactions.count == 1 ? transactions.first : nil
            var tx = single ?? CamtTxDetails()
            if transactions.count > 1 {
                // A batch without amounts per transaction: no single counterparty, all remittance lines.
                tx.remittance = transactions.flatMap(\.remittance)
            }
            let id = Self.usableRef(accountServicerRef) ?? Self.usableRef(single?.accountServicerRef)
                ?? Self.usableRef(entryRef) ?? Self.usableRef(single?.endToEndID)
            return [make(tx, amount: amount, indicator: indicator, externalID: id, location: location,
                         remittanceSeparator: transactions.count > 1 ? "; " : " ")]
        }
        let entryID = Self.usableRef(accountServicerRef) ?? Self.usableRef(entryRef)
        var out: [RawTransaction] = []
        out.reserveCapacity(transactions.count)
        for (offset, tx) in transactions.enumerated() {
            var txAmount = tx.amount ?? amount
            var txIndicator = tx.indicator ?? indicator
            if txAmount.value < 0 {
                txAmount.value = -txAmount.value
                txIndicator = txIndicator.opposite
            }
            let id = Self.usableRef(tx.accountServicerRef) ?? entryID.map { "\($0)/\(offset + 1)" }
                ?? Self.usableRef(tx.endToEndID)
            var loc = location
            loc.element = (loc.element ?? "Ntry") + "/NtryDtls/TxDtls[\(offset + 1)]"
            out.append(make(tx, amount: txAmount, indicator: txIndicator, externalID: id, location: loc,
                            remittanceSeparator: " "))
        }
        return out
    }

    private func make(_ tx: CamtTxDetails, amount: CamtAmount, indicator: CreditDebitIndicator,
                      externalID: String?, location: SourceLocation, remittanceSeparator: String) -> RawTransaction {
        let code = tx.code.isEmpty ? self.code : tx.code
        // The counterparty: who was paid on a debit, who paid on a credit. A reversal keeps the parties of the
        // payment it reverses, so its sides are swapped.
        let side = isReversal ? indicator.opposite : indicator
        let party = side == .debit
            ? (tx.creditorName ?? tx.ultimateCreditorName) : (tx.debtorName ?? tx.ultimateDebtorName)
        let bookingText = additionalInfo ?? tx.additionalInfo
        let remittance = tx.remittance.isEmpty ? nil : tx.remittance.joined(separator: remittanceSeparator)
        let name = party ?? bookingText
        let memo = remittance ?? (party != nil ? bookingText : nil)
        var raw = RawTransaction(
            location: location, externalID: externalID, amount: amount.value, indicator: indicator,
            currencyCode: amount.currency, transactionDate: tx.transactionTime ?? bookingDate ?? valueDate,
            postedDate: bookingDate, name: name, memo: memo, merchantName: party, typeCode: code.typeCode,
            transactionType: code.transactionType(for: side), status: status, isReversal: isReversal)
        let fx = foreign(tx, currency: amount.currency) ?? (isSplit ? nil : foreign(details, currency: amount.currency))
        if let fx {
            raw.foreignAmount = fx.value
            raw.foreignCurrencyCode = fx.currency
            raw.exchangeRate = tx.exchangeRate ?? details.exchangeRate
        }
        return raw
    }

    /// The instructed amount when it is in another currency than the booked one.
    private func foreign(_ tx: CamtTxDetails, currency: String?) -> CamtAmount? {
        guard let instructed = tx.instructedAmount, let code = instructed.currency, code != currency else { return nil }
        return instructed
    }
}
