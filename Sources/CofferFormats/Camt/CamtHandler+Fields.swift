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
    var leafText: String? { CamtValues.text(utf8: text) }

    /// `read` over the current leaf's bytes when they are exactly what `leafText` would hold (trimmed, clean);
    /// nil when they are not, or `read` finds no value: the caller then reads `leafText` the usual way, so every
    /// error and warning is the `String` path's.
    func leafBytes<T>(_ read: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        let raw = text
        guard let clean = CamtValues.cleanRange(raw), !clean.isEmpty else { return nil }
        return read(UnsafeBufferPointer(rebasing: raw[clean]))
    }

    func statementField(_ field: CamtField) throws {
        guard statement != nil else { return }
        var value: String? { leafText }
        switch field {
        case .statementID: statement?.header.statementID = value
        case .statementCreated: if let d = try lenient({ try dateTime() }) { statement?.created = d }
        case .periodStart: if let d = try lenient({ try dateTime() }) { statement?.header.periodStart = d }
        case .periodEnd: if let d = try lenient({ try dateTime() }) { statement?.header.periodEnd = d }
        case .accountNumber: if let value { statement?.header.account.accountNumber = value }
        case .accountCurrency:
            guard let value = value?.uppercased() else { return }
            statement?.header.account.currencyCode = value
            statement?.currency = value
        case .accountName: statement?.header.account.displayName = value
        case .ownerName:
            if statement?.header.account.displayName == nil { statement?.header.account.displayName = value }
        case .accountTypeCode: if let value { statement?.setAccountType(value) }
        case .accountTypeProprietary: statement?.header.account.accountType = value
        case .servicerBIC: statement?.header.account.institutionID = value
        case .servicerName: statement?.header.account.institutionName = value
        default: break
        }
    }

    func entryField(_ field: CamtField) throws {
        guard entry != nil else { return }
        var value: String? { leafText }
        switch field {
        case .amount: entry?.amount = try amount()
        case .indicator: entry?.indicator = try indicator()
        case .reversal: if let flag = try lenient({ try bool(value) }) { entry?.isReversal = flag }
        case .status:
            guard let value else { return }
            entry?.statusCode = value
            entry?.status = Self.status(value)
        case .bookingDay: if let d = try entryDate("BookgDt/Dt", isDay: true) { entry?.bookingDate = d }
        case .bookingDateTime: if let d = try entryDate("BookgDt/DtTm", isDay: false) { entry?.bookingDate = d }
        case .valueDay: if let d = try entryDate("ValDt/Dt", isDay: true) { entry?.valueDate = d }
        case .valueDateTime: if let d = try entryDate("ValDt/DtTm", isDay: false) { entry?.valueDate = d }
        case .accountServicerRef: entry?.accountServicerRef = value
        case .entryRef: entry?.entryRef = value
        case .additionalInfo: entry?.additionalInfo = value
        case .codeDomain, .codeFamily, .codeSubFamily, .codeProprietary: entry?.code.set(field, value)
        case .detailTransactionAmount, .detailInstructedAmount, .detailExchangeRate:
            if let detail = try lenient({ try amountDetail(field) }) { entry?.details.apply(detail) }
        default: break
        }
    }

    /// An entry's booking or value date; one that is there but unreadable is noted for the entry's error.
    private func entryDate(_ key: String, isDay: Bool) throws -> RawDate? {
        if let d = leafBytes(isDay ? CamtValues.date(utf8:) : CamtValues.dateTime(utf8:)) { return d }
        let value = leafText
        guard let d = try lenient({ isDay ? try date(value) : try dateTime(value) }) else {
            if let value { entry?.unreadableDates.append("\(key) '\(value)'") }
            return nil
        }
        return d
    }

    func txField(_ field: CamtField) throws {
        guard tx != nil else { return }
        var value: String? { leafText }
        switch field {
        case .amount: if let a = try lenient({ try amount() }) { tx?.amount = a }
        case .indicator: if let i = try lenient({ try indicator() }) { tx?.indicator = i }
        case .accountServicerRef: tx?.accountServicerRef = value
        case .endToEndID: tx?.endToEndID = value
        case .creditorName: tx?.creditorName = value
        case .debtorName: tx?.debtorName = value
        case .ultimateCreditorName: tx?.ultimateCreditorName = value
        case .ultimateDebtorName: tx?.ultimateDebtorName = value
        case .remittance: if let value { tx?.remittance.append(value) }
        case .acceptanceTime: if let d = try lenient({ try dateTime() }) { tx?.transactionTime = d }
        case .transactionTime:
            if tx?.transactionTime == nil, let d = try lenient({ try dateTime() }) { tx?.transactionTime = d }
        case .additionalInfo: tx?.additionalInfo = value
        case .codeDomain, .codeFamily, .codeSubFamily, .codeProprietary: tx?.code.set(field, value)
        case .detailTransactionAmount, .detailInstructedAmount, .detailExchangeRate:
            if let detail = try lenient({ try amountDetail(field) }) { tx?.apply(detail) }
        default: break
        }
    }

    func balanceField(_ field: CamtField) throws {
        guard balance != nil else { return }
        switch field {
        case .balanceCode: balance?.code = leafText
        // Each value is read into a local first: `problem` writes to `balance` too.
        case .amount: if let a = problem({ try amount() }) { balance?.amount = a }
        case .indicator: if let i = problem({ try indicator() }) { balance?.indicator = i }
        case .balanceDay: if let d = problem({ try date() }) { balance?.asOf = d }
        case .balanceDateTime: if let d = problem({ try dateTime() }) { balance?.asOf = d }
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
    private func amountDetail(_ field: CamtField) throws -> CamtAmountDetail? {
        switch field {
        case .detailTransactionAmount: return .transactionAmount(try amount())
        case .detailInstructedAmount: return .instructedAmount(try amount())
        case .detailExchangeRate:
            if let rate = leafBytes(CamtValues.amount(utf8:)) { return .exchangeRate(rate) }
            let value = leafText
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

    /// The current leaf as an amount in the current `Ccy`.
    private func amount() throws -> CamtAmount {
        if let decimal = leafBytes(CamtValues.amount(utf8:)) { return CamtAmount(value: decimal, currency: currency) }
        let value = leafText
        guard let value, let decimal = CamtValues.amount(value) else {
            throw error("expected an amount like 1234.56, found '\(value ?? "")'")
        }
        return CamtAmount(value: decimal, currency: currency)
    }

    private func indicator() throws -> CreditDebitIndicator {
        if let indicator = leafBytes(CamtValues.indicator(utf8:)) { return indicator }
        let value = leafText
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

    /// The current leaf as a date.
    private func date() throws -> RawDate {
        if let date = leafBytes(CamtValues.date(utf8:)) { return date }
        return try date(leafText)
    }

    private func date(_ value: String?) throws -> RawDate {
        guard let value, let date = CamtValues.date(value) else {
            throw error("expected a date like 2026-03-14, found '\(value ?? "")'")
        }
        return date
    }

    /// The current leaf as a date-time.
    func dateTime() throws -> RawDate {
        if let date = leafBytes(CamtValues.dateTime(utf8:)) { return date }
        return try dateTime(leafText)
    }

    func dateTime(_ value: String?) throws -> RawDate {
        guard let value, let date = CamtValues.dateTime(value) else {
            throw error("expected a date and time like 2026-03-14T09:30:00+01:00, found '\(value ?? "")'")
        }
        return date
    }
}
