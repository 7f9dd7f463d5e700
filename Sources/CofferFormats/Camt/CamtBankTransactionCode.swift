import CofferModel

/// An ISO 20022 bank transaction code (`BkTxCd`): domain/family/sub-family, and a proprietary code.
///
/// For example:
/// ```swift
/// var code = CamtBankTransactionCode()
/// code.domain = "PMNT"; code.family = "CCRD"; code.subFamily = "POSD"
/// code.typeCode            // "PMNT/CCRD/POSD"
/// code.transactionType(for: .debit)     // .pointOfSale
/// ```
struct CamtBankTransactionCode: Sendable {
    var domain: String?
    var family: String?
    var subFamily: String?
    var proprietary: String?

    /// Takes one leaf below `BkTxCd` (`BkTxCd/Domn/Fmly/Cd`…), by its field (`CamtField.entry`).
    mutating func set(_ field: CamtField, _ value: String?) {
        switch field {
        case .codeDomain: domain = value
        case .codeFamily: family = value
        case .codeSubFamily: subFamily = value
        case .codeProprietary: proprietary = value
        default: break
        }
    }

    var isEmpty: Bool { domain == nil && family == nil && subFamily == nil && proprietary == nil }

    /// The code as sent: `PMNT/ICDT/ESCT` when the structured code is there, else the proprietary code.
    var typeCode: String? {
        guard var code = domain else { return proprietary }
        // Appended, not joined from an array: this runs for every transaction.
        if let family { code += "/"; code += family }
        if let subFamily { code += "/"; code += subFamily }
        return code
    }

    /// FinanceKit's reading of the code for a payment in direction `side`; nil when it says nothing Coffer
    /// understands.
    ///
    /// The sub-family decides first where it is specific (salary, standing order, cash withdrawal, interest,
    /// charges), then the family (credit transfers, direct debits, cards, cheques), then the domain. Without a
    /// structured code, a proprietary code that starts with a SWIFT MT940 type (`NTRF`, `NDDT`, `NCHK`…) is read.
    /// Salary and pension (`SALA`, `PENS`) are a direct deposit only when received; paid out, they are transfers.
    func transactionType(for side: CreditDebitIndicator) -> TransactionType? {
        if let domain {
            if subFamily == "SALA" || subFamily == "PENS" { return side == .credit ? .directDeposit : .transfer }
            return Self.subFamilyType(subFamily) ?? Self.familyType(family) ?? Self.domainType(domain)
        }
        return proprietary.flatMap(Self.swiftType)
    }

    private static func subFamilyType(_ code: String?) -> TransactionType? {
        switch code {
        case "STDO": .standingOrder
        case "CWDL", "XBCW": .atm
        case "POSD", "POSC", "XBSA", "SMCD", "SMRR": .pointOfSale
        case "INTR": .interest
        case "CHRG", "FEES", "COMM", "COMI", "SUBS": .fee
        case "ADJT": .adjustment
        case "DVCA": .dividend
        case "CDPT", "CHKD": .deposit
        case "ESDD", "BBDD", "PMDD", "OODD": .directDebit
        case "CCHQ", "BCHQ", "CCCH", "URCQ", "UPCQ": .check
        default: nil
        }
    }

    private static func familyType(_ code: String?) -> TransactionType? {
        switch code {
        case "ICDT", "RCDT": .transfer
        case "IDDT", "RDDT": .directDebit
        case "CCRD", "MCRD", "DCCT": .pointOfSale
        case "ICHQ", "RCHQ", "CCHQ": .check
        case "CNTR": .deposit
        default: nil
        }
    }

    private static func domainType(_ code: String) -> TransactionType? {
        switch code {
        case "LDAS": .loan
        default: nil
        }
    }

    /// SWIFT MT940 transaction type codes many banks put into `Prtry/Cd` (`NTRF+116+...`).
    private static func swiftType(_ code: String) -> TransactionType? {
        switch code.prefix(4) {
        case "NTRF", "FTRF": .transfer
        case "NDDT": .directDebit
        case "NCHK": .check
        case "NCHG", "NCOM", "FCHG": .fee
        case "NINT", "FINT": .interest
        case "NSTO": .standingOrder
        case "NDIV": .dividend
        case "NLDP", "NLOA": .loan
        default: nil
        }
    }
}
