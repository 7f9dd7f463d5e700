import CofferModel
import Foundation

/// A `Bal` while it is read.
struct CamtBalanceDraft: Sendable {
    var code: String?
    var amount: CamtAmount?
    var indicator: CreditDebitIndicator?
    var asOf: RawDate?
    /// Why the balance cannot be read (a malformed amount or date), when it cannot.
    var problem: String?
}

/// The leaf elements `CamtHandler` reads, by their path below the statement, entry, transaction or balance.
///
/// Only an entry's `Amt` and `CdtDbtInd` are required: without them its transaction cannot be trusted, and the
/// file fails. Every other value is optional in ISO 20022 and real files send them empty (`<AddtlNtryInf/>`,
/// `<RvslInd/>`): an empty value is absent, and a malformed optional value (a date, a rate, a detail's amount) is
/// dropped with a warning naming the element. A balance with a malformed value is skipped with a warning.
extension CamtHandler {
    /// The current leaf's text, trimmed; computed only for the leaves that are read.
    var leafText: String? { CamtValues.text(String(decoding: text, as: UTF8.self)) }

    func statementField(_ key: String) throws {
        guard statement != nil else { return }
        var value: String? { leafText }
        switch key {
        case "Id": statement?.header.statementID = value
        case "CreDtTm": if let d = try lenient({ try dateTime(value) }) { statement?.created = d }
        case "FrToDt/FrDtTm": if let d = try lenient({ try dateTime(value) }) { statement?.header.periodStart = d }
        case "FrToDt/ToDtTm": if let d = try lenient({ try dateTime(value) }) { statement?.header.periodEnd = d }
        case "Acct/Id/IBAN", "Acct/Id/Othr/Id", "Acct/Id/BBAN", "Acct/Id/PrtryAcct/Id":
            if let value { statement?.header.account.accountNumber = value }
        case "Acct/Ccy":
            guard let value = value?.uppercased() else { return }
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
        case "RvslInd": if let flag = try lenient({ try bool(value) }) { entry?.isReversal = flag }
        case "Sts", "Sts/Cd", "Sts/Prtry":
            guard let value else { return }
            entry?.statusCode = value
            entry?.status = Self.status(value)
        case "BookgDt/Dt": if let d = try entryDate(key, isDay: true) { entry?.bookingDate = d }
        case "BookgDt/DtTm": if let d = try entryDate(key, isDay: false) { entry?.bookingDate = d }
        case "ValDt/Dt": if let d = try entryDate(key, isDay: true) { entry?.valueDate = d }
        case "ValDt/DtTm": if let d = try entryDate(key, isDay: false) { entry?.valueDate = d }
        case "AcctSvcrRef": entry?.accountServicerRef = value
        case "NtryRef": entry?.entryRef = value
        case "AddtlNtryInf": entry?.additionalInfo = value
        default:
            if key.hasPrefix("BkTxCd/") {
                entry?.code.set(key, value)
            } else if key.hasPrefix("AmtDtls/"), let detail = try lenient({ try amountDetail(key.dropFirst(8), value) }) {
                entry?.details.apply(detail)
            }
        }
    }

    /// An entry's booking or value date; one that is there but unreadable is noted for the entry's error.
    private func entryDate(_ key: String, isDay: Bool) throws -> RawDate? {
        let value = leafText
        guard let d = try lenient({ isDay ? try date(value) : try dateTime(value) }) else {
            if let value { entry?.unreadableDates.append("\(key) '\(value)'") }
            return nil
        }
        return d
    }

    func txField(_ key: String) throws {
        guard tx != nil else { return }
        var value: String? { leafText }
        switch key {
        case "Amt": if let a = try lenient({ try amount(value) }) { tx?.amount = a }
        case "CdtDbtInd": if let i = try lenient({ try indicator(value) }) { tx?.indicator = i }
        case "Refs/AcctSvcrRef": tx?.accountServicerRef = value
        case "Refs/EndToEndId": tx?.endToEndID = value
        case "RltdPties/Cdtr/Nm", "RltdPties/Cdtr/Pty/Nm": tx?.creditorName = value
        case "RltdPties/Dbtr/Nm", "RltdPties/Dbtr/Pty/Nm": tx?.debtorName = value
        case "RltdPties/UltmtCdtr/Nm", "RltdPties/UltmtCdtr/Pty/Nm": tx?.ultimateCreditorName = value
        case "RltdPties/UltmtDbtr/Nm", "RltdPties/UltmtDbtr/Pty/Nm": tx?.ultimateDebtorName = value
        case "RmtInf/Ustrd": if let value { tx?.remittance.append(value) }
        case "RltdDts/AccptncDtTm": if let d = try lenient({ try dateTime(value) }) { tx?.transactionTime = d }
        case "RltdDts/TxDtTm":
            if tx?.transactionTime == nil, let d = try lenient({ try dateTime(value) }) { tx?.transactionTime = d }
        case "AddtlTxInf": tx?.additionalInfo = value
        default:
            if key.hasPrefix("BkTxCd/") {
                tx?.code.set(key, value)
            } else if key.hasPrefix("AmtDtls/"), let detail = try lenient({ try amountDetail(key.dropFirst(8), value) }) {
                tx?.apply(detail)
            }
        }
    }

    func balanceField(_ key: String) throws {
        guard balance != nil else { return }
        var value: String? { leafText }
        switch key {
        // `Tp/Cd` and `Tp/Prtry` are version .001.01's shape.
        case "Tp/CdOrPrtry/Cd", "Tp/CdOrPrtry/Prtry", "Tp/Cd", "Tp/Prtry": balance?.code = value
        // Each value is read into a local first: `problem` writes to `balance` too.
        case "Amt": if let a = problem({ try amount(value) }) { balance?.amount = a }
        case "CdtDbtInd": if let i = problem({ try indicator(value) }) { balance?.indicator = i }
        case "Dt/Dt": if let d = problem({ try date(value) }) { balance?.asOf = d }
        case "Dt/DtTm": if let d = problem({ try dateTime(value) }) { balance?.asOf = d }
        default: break
        }
    }

    /// An optional value: empty is absent; malformed is dropped with a warning naming the element.
    func lenient<T>(_ read: () throws -> T?) throws -> T? {
        guard !text.isEmpty else { return nil }
        do {
            return try read()
        } catch let problem as CofferError where problem.code == .badInput {
            if leafText == nil { return nil }  // only spaces: as empty
            try emit?(.warning(ParseWarning("\(problem.message); the value is ignored",
                                            location: problem.location ?? location(upTo: path.count - 1))))
            return nil
        }
    }

    /// A balance's value: a malformed one marks the balance as unreadable (it is skipped when it ends).
    private func problem<T>(_ read: () throws -> T?) -> T? {
        do {
            return try read()
        } catch {
            let message = (error as? CofferError)?.message ?? "\(error)"
            if balance?.problem == nil { balance?.problem = "\(message) in \(path.last ?? "the balance")" }
            return nil
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

    func dateTime(_ value: String?) throws -> RawDate {
        guard let value, let date = CamtValues.dateTime(value) else {
            throw error("expected a date and time like 2026-03-14T09:30:00+01:00, found '\(value ?? "")'")
        }
        return date
    }
}
