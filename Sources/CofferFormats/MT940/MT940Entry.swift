import CofferModel
import Foundation

/// One `:61:` line and its `:86:` as a raw transaction, read the way `CamtEntry` reads a camt entry, so that an
/// MT940 file and a camt.053 file of the same account give the same texts and dates:
/// - `transactionDate` and `postedDate` are the entry (booking) date, else the value date (SWIFT leaves the entry
///   date out when it is the value date).
/// - `name` is the counterparty (`?32`/`?33`, else the SEPA ultimate party `ABWE+` on a debit, `ABWA+` on a
///   credit), else the booking text `?00`; `memo` is the remittance text (`SVWZ+`, else the purpose `?20`–`?29`),
///   else the booking text when the name is the counterparty. `merchantName` is the counterparty. An entry
///   without `:86:` is named by its supplementary details, else its reference, else its type code.
/// - The id is the bank's reference (after `//`) with the booking day and the amount (`2026030200000117/20260302/C2850.00`):
///   banks reuse their references across days and entries, and a reused one must not make two transactions one.
///   Without a usable reference (`NONREF`) the content decides, as for any source without ids.
/// - An MT942 report's entries are pending.
enum MT940Entry {
    static func raw(_ line: MT940StatementLine, info: MT940Information?, location: SourceLocation, currency: String?,
                    pending: Bool) -> RawTransaction {
        let side = line.isReversal ? line.indicator.opposite : line.indicator
        let party = info?.counterpartyName ?? (side == .debit ? info?.ultimateCreditor : info?.ultimateDebtor)
        let bookingText = info?.bookingText
        // Without a `:86:` the line's own details, else its reference for the owner, else its type, say what it was.
        let name = party ?? bookingText
            ?? (info == nil ? line.details ?? MT940StatementLine.usable(line.customerReference) ?? line.typeCode : nil)
        let memo = info?.remittance ?? (party != nil ? bookingText : nil)
        let day = line.entryDate ?? line.valueDate
        let id = MT940StatementLine.usable(line.bankReference).map {
            "\($0)/\(CalendarDay.string(day.date).replacingOccurrences(of: "-", with: ""))/"
                + "\(line.indicator == .debit ? "D" : "C")\(ExactDecimal.text(line.amount, minimumFractionDigits: 2))"
        }
        let gvc = info?.transactionCode
        return RawTransaction(
            location: location, externalID: id, amount: line.amount, indicator: line.indicator, currencyCode: currency,
            transactionDate: day, postedDate: day, name: name, memo: memo, merchantName: party,
            typeCode: line.typeCode + (gvc.map { "+" + $0 } ?? ""),
            transactionType: MT940TransactionCode.type(gvc: gvc, swift: line.typeCode, indicator: line.indicator),
            status: pending ? .pending : .booked, isReversal: line.isReversal)
    }
}
