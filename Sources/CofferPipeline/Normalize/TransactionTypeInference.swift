import CofferModel
import Foundation

/// Infers a `TransactionType` from what a statement says, and only from what it says explicitly.
///
/// For example:
/// ```swift
/// TransactionTypeInference.infer(rawText: "ATM WITHDRAWAL 123 MAIN ST", typeCode: nil, indicator: .debit,
///                                hasMerchant: false, mcc: nil)               // .atm
/// TransactionTypeInference.infer(rawText: "JOHN SMITH", typeCode: nil, indicator: .debit,
///                                hasMerchant: false, mcc: nil)               // .unknown
/// ```
/// In order: the feed's own type code when it is specific (OFX `TRNTYPE` such as `ATM` or `DIRECTDEP`, a CSV
/// type column such as Chase's `ACH_DEBIT` or `Return`, a camt `BkTxCd` sub-family such as `POSD` or `SALA`;
/// generic codes such as `DEBIT`, `CREDIT`, `OTHER` say nothing); then a keyword in the text (see
/// `TransactionTypeKeywords`, first listed wins: `ATM FEE` is a fee); then a debit at a merchant the feed gave an
/// MCC for or a merchant rule named (`hasMerchant`) is a point-of-sale purchase. Anything else is `.unknown`,
/// which is honest.
package enum TransactionTypeInference {
    package static func infer(rawText: String, typeCode: String?, indicator: CreditDebitIndicator, hasMerchant: Bool,
                             mcc: MerchantCategoryCode?) -> TransactionType {
        if let typeCode, let type = type(forCode: typeCode, indicator: indicator) { return type }
        if let type = TransactionTypeKeywords.type(in: rawText, indicator: indicator) { return type }
        if indicator == .debit && (mcc != nil || hasMerchant) { return .pointOfSale }
        return .unknown
    }

    /// The type a feed's own code names, or nil for a generic or unknown code.
    package static func type(forCode code: String, indicator: CreditDebitIndicator) -> TransactionType? {
        var normalized = code.uppercased()
        // Foundation's trimming and replacing cost more than the look-up; most codes need neither.
        if normalized.utf8.contains(UInt8(ascii: " ")) {
            normalized = String(normalized.trimmingWhitespace.map { $0 == " " ? "_" : $0 })
        }
        if let type = codes[normalized] { return direction(type, indicator) }
        // camt `BkTxCd` domain/family/sub-family, `PMNT/CCRD/POSD` or `PMNT-CCRD-POSD`: the sub-family decides. A
        // code with neither separator (`DEBIT`, `OTHER`: most codes not in the table) makes no array of parts.
        guard normalized.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") }) else { return nil }
        if let last = normalized.split(whereSeparator: { $0 == "/" || $0 == "-" }).last, last.count < normalized.count,
           let type = camtSubFamilies[String(last)]
        {
            return direction(type, indicator)
        }
        return nil
    }

    /// Refunds and deposits are credits, purchases debits: a code that contradicts the direction says nothing.
    private static func direction(_ type: TransactionType, _ indicator: CreditDebitIndicator) -> TransactionType? {
        switch type {
        case .refund, .deposit, .directDeposit: return indicator == .credit ? type : nil
        case .pointOfSale, .withdrawal: return indicator == .debit ? type : (type == .pointOfSale ? .refund : nil)
        default: return type
        }
    }

    /// OFX `TRNTYPE` values and CSV type columns (Chase, Apple Card, Amex, Monzo, Revolut), uppercased.
    static let codes: [String: TransactionType] = [
        // OFX 2.x TRNTYPE
        "ATM": .atm, "POS": .pointOfSale, "CHECK": .check, "XFER": .transfer, "DIRECTDEP": .directDeposit,
        "DIRECTDEBIT": .directDebit, "INT": .interest, "DIV": .dividend, "FEE": .fee, "SRVCHG": .fee,
        "PAYMENT": .billPayment, "REPEATPMT": .standingOrder, "CASH": .withdrawal, "DEP": .deposit,
        // CSV type columns
        "SALE": .pointOfSale, "PURCHASE": .pointOfSale, "CARD_PAYMENT": .pointOfSale, "DEBIT_CARD": .pointOfSale,
        "RETURN": .refund, "REFUND": .refund, "INTEREST": .interest, "ADJUSTMENT": .adjustment,
        "TRANSFER": .transfer, "ACCT_XFER": .transfer, "QUICKPAY_DEBIT": .transfer, "QUICKPAY_CREDIT": .transfer,
        "WIRE_OUTGOING": .transfer, "WIRE_INCOMING": .transfer, "ACH_DEBIT": .directDebit,
        "CHECK_PAID": .check, "CHECK_DEPOSIT": .deposit, "FEE_TRANSACTION": .fee, "LOAN_PMT": .loan,
        "BILLPAY": .billPayment, "BILL_PAYMENT": .billPayment, "DIVIDEND": .dividend, "DEPOSIT": .deposit,
        "DIRECT_DEBIT": .directDebit, "DIRECT_DEPOSIT": .directDeposit, "STANDING_ORDER": .standingOrder,
        "ATM_WITHDRAWAL": .atm, "CASH_WITHDRAWAL": .atm, "TOPUP": .deposit, "EXCHANGE": .transfer,
    ]

    /// ISO 20022 bank transaction sub-family codes (External Code Sets, `BkTxCd/Domn/Fmly/SubFmlyCd`).
    static let camtSubFamilies: [String: TransactionType] = [
        "POSD": .pointOfSale, "POSC": .refund, "CWDL": .atm, "SALA": .directDeposit, "PENS": .directDeposit,
        "ESDD": .directDebit, "BBDD": .directDebit, "PMDD": .directDebit, "OODD": .directDebit,
        "ESCT": .transfer, "DMCT": .transfer, "XBCT": .transfer, "SDVA": .transfer, "BOOK": .transfer,
        "STDO": .standingOrder, "INTR": .interest, "CHRG": .fee, "COMM": .fee, "DVDE": .dividend,
        "CCHQ": .check, "CQRV": .check, "CDPT": .deposit,
    ]
}
