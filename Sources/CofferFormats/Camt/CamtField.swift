/// A leaf `CamtHandler` reads, named by its key below a statement, balance, entry or transaction.
///
/// For example:
/// ```swift
/// CamtField.entry("BkTxCd/Domn/Fmly/Cd")      // .codeFamily
/// CamtField.transaction("RltdPties/Cdtr/Pty/Nm") // .creditorName
/// ```
/// Each key node `CamtHandler` caches gets its four readings once, when the node is made, so an element's end
/// switches on a small integer instead of comparing its key's text.
enum CamtField: UInt8 {
    case none
    // Statement
    case statementID, statementCreated, periodStart, periodEnd, accountNumber, accountCurrency, accountName
    case ownerName, accountTypeCode, accountTypeProprietary, servicerBIC, servicerName
    // Entry and transaction (and balance for amount, indicator)
    case amount, indicator, reversal, status, bookingDay, bookingDateTime, valueDay, valueDateTime
    case accountServicerRef, entryRef, additionalInfo
    case codeDomain, codeFamily, codeSubFamily, codeProprietary
    case detailTransactionAmount, detailInstructedAmount, detailExchangeRate
    // Transaction only
    case endToEndID, creditorName, debtorName, ultimateCreditorName, ultimateDebtorName, remittance
    case acceptanceTime, transactionTime
    // Balance only
    case balanceCode, balanceDay, balanceDateTime

    /// The element a key is below.
    enum Base { case statement, entry, transaction, balance }

    /// The field `key` names below a `base` element.
    init(_ key: String, below base: Base) {
        switch base {
        case .statement: self = Self.statement(key)
        case .entry: self = Self.entry(key)
        case .transaction: self = Self.transaction(key)
        case .balance: self = Self.balance(key)
        }
    }

    /// The four readings of one key, one per kind of base element.
    struct Codes {
        var statement: CamtField
        var entry: CamtField
        var transaction: CamtField
        var balance: CamtField

        init(_ key: String) {
            statement = CamtField.statement(key)
            entry = CamtField.entry(key)
            transaction = CamtField.transaction(key)
            balance = CamtField.balance(key)
        }

        subscript(base: Base) -> CamtField {
            switch base {
            case .statement: statement
            case .entry: entry
            case .transaction: transaction
            case .balance: balance
            }
        }

        /// The base element itself (node 0): no leaf.
        static let base = Codes("")
    }

    static func statement(_ key: String) -> CamtField {
        switch key {
        case "Id": .statementID
        case "CreDtTm": .statementCreated
        case "FrToDt/FrDtTm": .periodStart
        case "FrToDt/ToDtTm": .periodEnd
        case "Acct/Id/IBAN", "Acct/Id/Othr/Id", "Acct/Id/BBAN", "Acct/Id/PrtryAcct/Id": .accountNumber
        case "Acct/Ccy": .accountCurrency
        case "Acct/Nm": .accountName
        case "Acct/Ownr/Nm", "Acct/Ownr/Pty/Nm": .ownerName
        case "Acct/Tp/Cd": .accountTypeCode
        case "Acct/Tp/Prtry": .accountTypeProprietary
        case "Acct/Svcr/FinInstnId/BIC", "Acct/Svcr/FinInstnId/BICFI": .servicerBIC
        case "Acct/Svcr/FinInstnId/Nm": .servicerName
        default: .none
        }
    }

    static func entry(_ key: String) -> CamtField {
        switch key {
        case "Amt": .amount
        case "CdtDbtInd": .indicator
        case "RvslInd": .reversal
        case "Sts", "Sts/Cd", "Sts/Prtry": .status
        case "BookgDt/Dt": .bookingDay
        case "BookgDt/DtTm": .bookingDateTime
        case "ValDt/Dt": .valueDay
        case "ValDt/DtTm": .valueDateTime
        case "AcctSvcrRef": .accountServicerRef
        case "NtryRef": .entryRef
        case "AddtlNtryInf": .additionalInfo
        default: code(key) ?? amountDetail(key) ?? .none
        }
    }

    static func transaction(_ key: String) -> CamtField {
        switch key {
        case "Amt": .amount
        case "CdtDbtInd": .indicator
        case "Refs/AcctSvcrRef": .accountServicerRef
        case "Refs/EndToEndId": .endToEndID
        case "RltdPties/Cdtr/Nm", "RltdPties/Cdtr/Pty/Nm": .creditorName
        case "RltdPties/Dbtr/Nm", "RltdPties/Dbtr/Pty/Nm": .debtorName
        case "RltdPties/UltmtCdtr/Nm", "RltdPties/UltmtCdtr/Pty/Nm": .ultimateCreditorName
        case "RltdPties/UltmtDbtr/Nm", "RltdPties/UltmtDbtr/Pty/Nm": .ultimateDebtorName
        case "RmtInf/Ustrd": .remittance
        case "RltdDts/AccptncDtTm": .acceptanceTime
        case "RltdDts/TxDtTm": .transactionTime
        case "AddtlTxInf": .additionalInfo
        default: code(key) ?? amountDetail(key) ?? .none
        }
    }

    static func balance(_ key: String) -> CamtField {
        switch key {
        // `Tp/Cd` and `Tp/Prtry` are version .001.01's shape.
        case "Tp/CdOrPrtry/Cd", "Tp/CdOrPrtry/Prtry", "Tp/Cd", "Tp/Prtry": .balanceCode
        case "Amt": .amount
        case "CdtDbtInd": .indicator
        case "Dt/Dt": .balanceDay
        case "Dt/DtTm": .balanceDateTime
        default: .none
        }
    }

    /// A leaf below `BkTxCd` (`CamtBankTransactionCode.set`'s keys).
    private static func code(_ key: String) -> CamtField? {
        switch key {
        case "BkTxCd/Domn/Cd": .codeDomain
        case "BkTxCd/Domn/Fmly/Cd": .codeFamily
        case "BkTxCd/Domn/Fmly/SubFmlyCd": .codeSubFamily
        case "BkTxCd/Prtry/Cd": .codeProprietary
        default: nil
        }
    }

    /// A leaf below `AmtDtls`: the transaction amount, the instructed amount, the exchange rate.
    private static func amountDetail(_ key: String) -> CamtField? {
        switch key {
        case "AmtDtls/TxAmt/Amt": .detailTransactionAmount
        case "AmtDtls/InstdAmt/Amt": .detailInstructedAmount
        case "AmtDtls/InstdAmt/CcyXchg/XchgRate", "AmtDtls/TxAmt/CcyXchg/XchgRate",
             "AmtDtls/CntrValAmt/CcyXchg/XchgRate": .detailExchangeRate
        default: nil
        }
    }
}
