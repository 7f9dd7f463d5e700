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

    /// Whether the block held nothing this reader uses (`<TxDtls/>`, or only empty elements).
    var isEmpty: Bool {
        amount == nil && indicator == nil && instructedAmount == nil && exchangeRate == nil && accountServicerRef == nil
            && endToEndID == nil && creditorName == nil && debtorName == nil && ultimateCreditorName == nil
            && ultimateDebtorName == nil && remittance.isEmpty && additionalInfo == nil && transactionTime == nil
            && code.isEmpty
    }

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
    /// The entry's own dates that were there but could not be read (`BookgDt/Dt`), for the error when no other
    /// date is left.
    var unreadableDates: [String] = []

    init(location: SourceLocation) { self.location = location }

    /// References banks write when they have none.
    static func usableRef(_ ref: String?) -> String? {
        guard let ref, ref != "NOTPROVIDED", ref != "NONREF" else { return nil }
        return ref
    }

    /// Whether the entry names any date of its own: `BookgDt`, `ValDt`, or a related date in its details.
    var hasOwnDate: Bool {
        bookingDate != nil || valueDate != nil || transactions.contains { $0.transactionTime != nil }
    }

    /// How an entry with details is read: one transaction, or one per `TxDtls`.
    enum BatchReading: Equatable {
        /// No batch: one `TxDtls` or none.
        case single
        /// A batch kept as one transaction; the reason is warned about (nil when the details carry no amounts,
        /// the ordinary batch summary).
        case whole(String?)
        /// One transaction per `TxDtls`.
        case split
    }

    /// A batch is split only when its details can be trusted to be its parts: every `TxDtls` has an amount in the
    /// entry's currency and direction, and they add up to the entry's amount. A split never changes the entry's
    /// direction or total; anything else keeps the entry whole.
    func batchReading(amount: CamtAmount, indicator: CreditDebitIndicator) -> BatchReading {
        guard transactions.count > 1 else { return .single }
        guard transactions.contains(where: { $0.amount != nil }) else { return .whole(nil) }
        var sum = Decimal(0)
        for (offset, tx) in transactions.enumerated() {
            let label = "TxDtls[\(offset + 1)]"
            guard let part = tx.amount else { return .whole("\(label) has no amount") }
            if let code = part.currency, let entryCode = amount.currency, code != entryCode {
                return .whole("\(label) is in \(code), the entry in \(entryCode)")
            }
            if part.value < 0 || (tx.indicator != nil && tx.indicator != indicator) {
                return .whole("\(label) goes the other way (\(indicator.opposite)) inside a \(indicator) entry")
            }
            sum += part.value
        }
        guard sum == amount.value else {
            return .whole("the details add up to \(ExactDecimal.text(sum)), the entry is \(ExactDecimal.text(amount.value))")
        }
        return .split
    }

    /// The raw transactions this entry stands for: one per `TxDtls` when `reading` is `.split`, else one for the
    /// whole entry. `amount` and `indicator` must already be checked. `fallbackDate` dates an entry that names no
    /// date of its own.
    func rawTransactions(amount: CamtAmount, indicator: CreditDebitIndicator, reading: BatchReading,
                         fallbackDate: RawDate? = nil) -> [RawTransaction] {
        guard reading == .split else {
            // One transaction for the entry. Ids from the strongest down: the entry's AcctSvcrRef, the single
            // TxDtls's AcctSvcrRef, NtryRef (often only unique inside one statement), the EndToEndId.
            let single = transactions.count == 1
            let id = Self.usableRef(accountServicerRef) ?? Self.usableRef(single ? transactions[0].accountServicerRef : nil)
                ?? Self.usableRef(entryRef) ?? Self.usableRef(single ? transactions[0].endToEndID : nil)
            // The details are read where they are: a copy of them retains and later releases each of their strings
            // (11 of a camt import's 288 retains a transaction, callgrind). The transaction is made in the array it
            // is returned in: made as a variable and returned as `[whole]`, it was copied three times (callgrind).
            var out: [RawTransaction] = []
            out.reserveCapacity(1)
            if single {
                out.append(make(transactions[0], amount: amount, indicator: indicator, externalID: id, location: location,
                                remittanceSeparator: " ", split: false, fallbackDate: fallbackDate))
            } else {
                // No details, or a batch kept whole: no single counterparty, all remittance lines.
                var tx = CamtTxDetails()
                tx.remittance = transactions.flatMap(\.remittance)
                out.append(make(tx, amount: amount, indicator: indicator, externalID: id, location: location,
                                remittanceSeparator: transactions.count > 1 ? "; " : " ", split: false,
                                fallbackDate: fallbackDate))
            }
            if transactions.count > 1, transactions.allSatisfy({ $0.amount != nil }) {
                // Earlier versions split every batch whose details all had amounts: these parts, under these ids.
                let entryID = Self.usableRef(accountServicerRef) ?? Self.usableRef(entryRef)
                let parts = transactions.enumerated().compactMap { offset, tx -> RawFormerPart? in
                    guard let id = Self.usableRef(tx.accountServicerRef) ?? entryID.map({ "\($0)/\(offset + 1)" })
                            ?? Self.usableRef(tx.endToEndID), var value = tx.amount?.value else { return nil }
                    var direction = tx.indicator ?? indicator
                    if value < 0 { value = -value; direction = direction.opposite }
                    return RawFormerPart(externalID: id, amount: value, indicator: direction)
                }
                if parts.count == transactions.count { out[0].formerParts = parts }
            }
            return out
        }
        let entryID = Self.usableRef(accountServicerRef) ?? Self.usableRef(entryRef)
        var out: [RawTransaction] = []
        out.reserveCapacity(transactions.count)
        for offset in transactions.indices {  // each `TxDtls` read in place, not copied (see above)
            let txAmount = CamtAmount(value: transactions[offset].amount?.value ?? amount.value, currency: amount.currency)
            let id = Self.usableRef(transactions[offset].accountServicerRef) ?? entryID.map { "\($0)/\(offset + 1)" }
                ?? Self.usableRef(transactions[offset].endToEndID)
            var loc = location
            loc.element = (loc.element ?? "Ntry") + "/NtryDtls/TxDtls[\(offset + 1)]"
            out.append(make(transactions[offset], amount: txAmount, indicator: indicator, externalID: id, location: loc,
                            remittanceSeparator: " ", split: true, fallbackDate: fallbackDate))
        }
        return out
    }

    private func make(_ tx: CamtTxDetails, amount: CamtAmount, indicator: CreditDebitIndicator,
                      externalID: String?, location: SourceLocation, remittanceSeparator: String, split: Bool,
                      fallbackDate: RawDate?) -> RawTransaction {
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
            currencyCode: amount.currency, transactionDate: tx.transactionTime ?? bookingDate ?? valueDate
                ?? transactions.lazy.compactMap(\.transactionTime).first ?? fallbackDate,
            postedDate: bookingDate, name: name, memo: memo, merchantName: party, typeCode: code.typeCode,
            transactionType: code.transactionType(for: side), status: status, isReversal: isReversal)
        let fx = foreign(tx, currency: amount.currency) ?? (split ? nil : foreign(details, currency: amount.currency))
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
