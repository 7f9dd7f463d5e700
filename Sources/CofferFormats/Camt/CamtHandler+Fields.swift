import CofferModel
import Foundation

/// A `Bal` while it is read.
struct CamtBalanceDraft: Sendable {
    var code: String?
    var amount: CamtAmount?
    var indicator: CreditDebitIndicator?
    var asOf: RawDate?
}

/// The leaf elements `CamtHandler` reads, by their path below the statement, entry, transaction or balance.
extension CamtHandler {
    /// The current leaf's text, trimmed; computed only for the leaves that are read.
    var leafText: String? { CamtValues.text(text) }

    func statementField(_ key: String) throws {
        guard statement != nil else { return }
        var value: String? { leafText }
        switch key {
        case "Id": statement?.header.statementID = value
        case "FrToDt/FrDtTm": statement?.header.periodStart = try dateTime(value)
        case "FrToDt/ToDtTm": statement?.header.periodEnd = try dateTime(value)
        case "Acct/Id/IBAN", "Acct/Id/Othr/Id": statement?.header.account.accountNumber = value
        case "Acct/Ccy":
            statement?.header.account.currencyCode = value
            statement?.currency = value
        case "Acct/Nm": statement?.header.account.displayName = value
        case "Acct/Ownr/Nm", "Acct/Ownr/Pty/Nm":
            if statement?.header.account.displayName == nil { statement?.header.account.displayName = value }
        case "Acct/Tp/Cd": if let value { statement?.setAccountType(value) }
        case "Acct/Tp/Prtry": statement?.header.account.accountType = value
        case "Acct/Svcr/FinInstnId/BIC", "Acct/Svcr/FinInstnId/BICFI":
            statement?.header.account.institutionID = value
        case "Acct/Svcr/FinInstnId/Nm": statement?.header.account.institutionName = value
        default: break
        }
    }

    func entryField(_ key: String) throws {
        guard entry != nil else { return }
        var value: String? { leafText }
        switch key {
        case "Amt": entry?.amount = try amount(value)
        case "CdtDbtInd": entry?.indicator = try indicator(value)
        case "RvslInd": entry?.isReversal = try bool(value)
        case "Sts", "Sts/Cd", "Sts/Prtry":
            entry?.statusCode = value
            entry?.status = Self.status(value)
        case "BookgDt/Dt": entry?.bookingDate = try date(value)
        case "BookgDt/DtTm": entry?.bookingDate = try dateTime(value)
        case "ValDt/Dt": entry?.valueDate = try date(value)
        case "ValDt/DtTm": entry?.valueDate = try dateTime(value)
        case "AcctSvcrRef": entry?.accountServicerRef = value
        case "NtryRef": entry?.entryRef = value
        case "AddtlNtryInf": entry?.additionalInfo = value
        default:
            if key.hasPrefix("BkTxCd/") {
                entry?.code.set(key, value)
            } else if key.hasPrefix("AmtDtls/"), let detail = try amountDetail(key.dropFirst(8), value) {
                entry?.details.apply(detail)
            }
        }
    }

    func txField(_ key: String) throws {
        guard tx != nil else { return }
        var value: String? { leafText }
        switch key {
        case "Amt": tx?.amount = try amount(value)
        case "CdtDbtInd": tx?.indicator = try indicator(value)
        case "Refs/AcctSvcrRef": tx?.accountServicerRef = value
        case "Refs/EndToEndId": tx?.endToEndID = value
        case "RltdPties/Cdtr/Nm", "RltdPties/Cdtr/Pty/Nm": tx?.creditorName = value
        case "RltdPties/Dbtr/Nm", "RltdPties/Dbtr/Pty/Nm": tx?.debtorName = value
        case "RltdPties/UltmtCdtr/Nm", "RltdPties/UltmtCdtr/Pty/Nm": tx?.ultimateCreditorName = value
        case "RltdPties/UltmtDbtr/Nm", "RltdPties/UltmtDbtr/Pty/Nm": tx?.ultimateDebtorName = value
        case "RmtInf/Ustrd": if let value { tx?.remittance.append(value) }
        case "RltdDts/AccptncDtTm": tx?.transactionTime = try dateTime(value)
        case "RltdDts/TxDtTm": if tx?.transactionTime == nil { tx?.transactionTime = try dateTime(value) }
        case "AddtlTxInf": tx?.additionalInfo = value
        default:
            if key.hasPrefix("BkTxCd/") {
                tx?.code.set(key, value)
            } else if key.hasPrefix("AmtDtls/"), let detail = try amountDetail(key.dropFirst(8), value) {
                tx?.apply(detail)
            }
        }
    }

    func balanceField(_ key: String) throws {
        guard balance != nil else { return }
        var value: String? { leafText }
        switch key {
        case "Tp/CdOrPrtry/Cd", "Tp/CdOrPrtry/Prtry": balance?.code = value
        case "Amt": balance?.amount = try amount(value)
        case "CdtDbtInd": balance?.indicator = try indicator(value)
        case "Dt/Dt": balance?.asOf = try date(value)
        case "Dt/DtTm": balance?.asOf = try dateTime(value)
        default: break
        }
    }

    /// `AmtDtls/…` below an entry or a `TxDtls`: the transaction amount, the instructed amount, the exchange.
    private func amountDetail(_ key: Substring, _ value: String?) throws -> CamtAmountDetail? {
        switch key {
        case "TxAmt/Amt": return .transactionAmount(try amount(value))
        case "InstdAmt/Amt": return .instructedAmount(try amount(value))
        case "InstdAmt/CcyXchg/XchgRate", "TxAmt/CcyXchg/XchgRate", "CntrValAmt/CcyXchg/XchgRate":
            guard let rate = value.flatMap(CamtValues.amount) else {
                throw error("expected an exchange rate like 1.0856, found '\(value ?? "")'")
            }
            return .exchangeRate(rate)
        default: return nil
        }
    }

    /// `BOOK` → booked, `PDNG` → pending, `INFO` → memo; `FUTR` (booked on a future date) → pending, as it has not
    /// touched the booked balance yet. Anything else → nil (the pipeline decides).
    static func status(_ code: String?) -> TransactionStatus? {
        switch code {
        case "BOOK": .booked
        case "PDNG", "FUTR": .pending
        case "INFO": .memo
        default: nil
        }
    }

    // MARK: Values with their errors

    private func amount(_ value: String?) throws -> CamtAmount {
        guard let value, let decimal = CamtValues.amount(value) else {
            throw error("expected an amount like 1234.56, found '\(value ?? "")'")
        }
        return CamtAmount(value: decimal, currency: currency)
    }

    private func indicator(_ value: String?) throws -> CreditDebitIndicator {
        guard let value, let indicator = CamtValues.indicator(value) else {
            throw error("expected CRDT or DBIT, found '\(value ?? "")'")
        }
        return indicator
    }

    private func bool(_ value: String?) throws -> Bool {
        guard let value, let flag = CamtValues.bool(value) else {
            throw error("expected true or false, found '\(value ?? "")'")
        }
        return flag
    }

    private func date(_ value: String?) throws -> RawDate {
        guard let value, let date = CamtValues.date(value) else {
            throw error("expected a date like 2026-03-14, found '\(value ?? "")'")
        }
        return date
    }

    private func dateTime(_ value: String?) throws -> RawDate {
        guard let value, let date = CamtValues.dateTime(value) else {
            throw error("expected a date and time like 2026-03-14T09:30:00+01:00, found '\(value ?? "")'")
        }
        return date
    }
}
