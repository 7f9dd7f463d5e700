import CofferModel

/// FinanceKit's transaction type for an MT940 entry: from the German business transaction code (GVC, the three
/// digits opening a structured `:86:`) when there is one, else from the `:61:` transaction type (`NTRF`, `NDDT`).
/// Nil when neither says (`NMSC`): the normalizer then infers the type from the text.
enum MT940TransactionCode {
    static func type(gvc: String?, swift code: String, indicator: CreditDebitIndicator) -> TransactionType? {
        if let gvc, let type = gvcType(gvc, indicator) { return type }
        return swiftType(code, indicator)
    }

    /// The DFÜ agreement's GVC list (Anlage 3), the codes a private or small-business account sees.
    static func gvcType(_ gvc: String, _ indicator: CreditDebitIndicator) -> TransactionType? {
        switch gvc {
        case "001", "002", "003", "101", "102": .check
        case "004", "005", "104", "105", "109", "171", "174": .directDebit
        case "106", "107": indicator == .debit ? .pointOfSale : .refund
        case "008", "052", "117", "152": .standingOrder
        case "020", "051", "116", "118", "119", "166", "169", "177", "191": .transfer
        case "053", "153", "154": indicator == .credit ? .directDeposit : .transfer
        case "082": .deposit
        case "083": .atm
        case "805": indicator == .credit ? .interest : .fee
        case "808", "809": .fee
        case "814": .interest
        default: nil
        }
    }

    /// SWIFT's identification codes (the three characters after `N`, `S` or `F`).
    static func swiftType(_ code: String, _ indicator: CreditDebitIndicator) -> TransactionType? {
        switch code.dropFirst() {
        case "TRF", "BOE", "BRF": .transfer
        case "DDT": .directDebit
        case "CHK": .check
        case "CHG", "COM", "COL": .fee
        case "INT": .interest
        case "STO": .standingOrder
        case "DIV": .dividend
        case "LDP", "LOA": .loan
        case "SAL": indicator == .credit ? .directDeposit : .transfer
        case "CAS": indicator == .debit ? .withdrawal : .deposit
        default: nil
        }
    }
}
