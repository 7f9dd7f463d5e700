import CofferModel
import Foundation

// The one shape every format parser produces. Parsers stream these as `StatementEvent`s in source order;
// the pipeline normalizes them into FinanceKit's model. Nothing here knows about the store.

/// A date as a statement gave it: a calendar day (stored as midnight UTC) or an exact instant, with the offset
/// from UTC the source wrote it in when it said one.
///
/// For example, OFX `20260331200000[-8:PST]` is the instant 2026-04-01T04:00:00Z with `utcOffset` -28,800: the
/// bank's own day is March 31 (`localDay`).
package struct RawDate: Hashable, Sendable, CustomStringConvertible {
    package let date: Date
    /// True when the source gave only a calendar day.
    package let isDateOnly: Bool
    /// Seconds east of UTC the source gave with the time (OFX `[-8:PST]`, camt `+02:00` or `Z`); nil for a
    /// date-only value and for a time the source gave without a zone (read as UTC).
    package let utcOffset: Int?

    package init(date: Date, isDateOnly: Bool, utcOffset: Int? = nil) {
        self.date = date
        self.isDateOnly = isDateOnly
        self.utcOffset = isDateOnly ? nil : utcOffset
    }

    /// The offset a stored transaction keeps: nil for a calendar day, else the source's (0 when it gave none).
    package var storedOffset: Int? { isDateOnly ? nil : (utcOffset ?? 0) }

    /// The calendar day in the source's own offset, as days since 1970-01-01 (a date-only value's own day).
    package var localDay: Int { CalendarDay.localDay(date, offset: storedOffset) }

    /// A calendar day; nil when the day does not exist.
    package static func day(year: Int, month: Int, day: Int) -> RawDate? {
        CalendarDay.date(year: year, month: month, day: day).map { RawDate(date: $0, isDateOnly: true) }
    }

    package var description: String {
        isDateOnly ? CalendarDay.string(date) : ISO8601DateFormatter().string(from: date)
    }
}

/// Who holds the account, as far as the statement says.
package struct RawAccountIdentity: Hashable, Sendable {
    /// Display name of the institution (OFX `ORG`, camt `Svcr/FinInstnId/Nm`, a CSV profile's `institution`).
    package var institutionName: String?
    /// The institution's identifier: OFX `FID` or `BANKID`, camt BIC, a profile's institution id.
    package var institutionID: String?
    /// Another identifier the statement gives for the institution: OFX `FID` when `BANKID` took `institutionID`.
    package var otherInstitutionID: String?
    /// The account number or IBAN, in full as the statement gives it. The store never keeps it in clear text.
    package var accountNumber: String?
    /// The statement's own account type word: `CHECKING`, `SAVINGS`, `CREDITLINE`, `CREDITCARD`, camt `Tp/Cd`.
    package var accountType: String?
    /// Asset or liability, when the format says (OFX `CCSTMTRS` is a liability; a profile says `kind:`).
    package var kind: AccountKind?
    package var currencyCode: String?
    package var displayName: String?
    /// The number shows only some of its digits (a card's `XXXX-XXXXXX-71004`): it identifies the account only
    /// together with the institution.
    package var isMasked = false
    /// A number the same source used for this account before it said the real one (a CSV profile's former fixed
    /// number): the account stored under it is adopted.
    package var formerNumber: String?
    /// The currency a new account gets when neither the statement nor the import (`--currency`) says one, said in
    /// a warning: QIF, which never names a currency, assumes Quicken's own, USD.
    package var assumedCurrency: String?

    package init(institutionName: String? = nil, institutionID: String? = nil, accountNumber: String? = nil,
                accountType: String? = nil, kind: AccountKind? = nil, currencyCode: String? = nil,
                displayName: String? = nil) {
        self.institutionName = institutionName
        self.institutionID = institutionID
        self.accountNumber = accountNumber
        self.accountType = accountType
        self.kind = kind
        self.currencyCode = currencyCode
        self.displayName = displayName
    }
}

/// The start of one statement (one account, one period). A file may hold several.
package struct RawStatementHeader: Sendable {
    package var account: RawAccountIdentity
    /// The period the statement covers (OFX `DTSTART`/`DTEND`, camt `FrToDt`), when given.
    package var periodStart: RawDate?
    package var periodEnd: RawDate?
    /// The statement's own id (camt `Stmt/Id`), when given.
    package var statementID: String?
    /// When the institution made the statement (OFX `DTSERVER`, else `DTEND`; camt `CreDtTm`, else the message's,
    /// else `ToDtTm`): which of two statements is newer (docs/dedupe.md). Nil when the file does not say (CSV:
    /// the import takes its latest row's date).
    package var asOf: RawDate?
    /// Whether the format lists pending rows (camt.052, a CSV with a status column): a statement that does can
    /// say a pending row is gone; one that does not says so only when its period ends long after the row.
    package var listsPending = false
    package var location: SourceLocation

    package init(account: RawAccountIdentity, periodStart: RawDate? = nil, periodEnd: RawDate? = nil,
                statementID: String? = nil, location: SourceLocation) {
        self.account = account
        self.periodStart = periodStart
        self.periodEnd = periodEnd
        self.statementID = statementID
        self.location = location
    }
}

/// A correction the institution sends for a transaction it sent before (OFX `CORRECTFITID`/`CORRECTACTION`).
package struct RawCorrection: Hashable, Sendable {
    package enum Action: String, Sendable { case replace, delete }
    package var action: Action
    /// The institution id of the transaction being corrected.
    package var targetID: String

    package init(action: Action, targetID: String) {
        self.action = action
        self.targetID = targetID
    }
}

/// One transaction as the statement gave it.
package struct RawTransaction: Sendable {
    package var location: SourceLocation
    /// The institution's own id: OFX `FITID`, camt `AcctSvcrRef` or `NtryRef`, a CSV id column.
    package var externalID: String?
    /// Signed from the account holder's side: positive adds to the holder (credit), negative takes (debit).
    /// When `indicator` is set, this is the magnitude and `indicator` gives the direction.
    package var amount: Decimal
    /// Set when the source states the direction explicitly (camt `CdtDbtInd`, a CSV DR/CR column).
    package var indicator: CreditDebitIndicator?
    package var currencyCode: String?
    package var transactionDate: RawDate?
    package var postedDate: RawDate?
    /// OFX `NAME`/`PAYEE`, a CSV description column: the main text.
    package var name: String?
    /// OFX `MEMO`, camt `RmtInf/Ustrd` or `AddtlNtryInf`: further text.
    package var memo: String?
    /// A counterparty or merchant the source names explicitly (camt `RltdPties`, a CSV merchant column).
    package var merchantName: String?
    /// The source's own type code, as sent (OFX `TRNTYPE`, camt `BkTxCd`, a CSV type column).
    package var typeCode: String?
    /// The parser's reading of its own type code; nil when it has none.
    package var transactionType: TransactionType?
    package var merchantCategoryCode: MerchantCategoryCode?
    /// A category word from the source (CSV `Category`).
    package var category: String?
    package var status: TransactionStatus?
    package var checkNumber: String?
    /// The amount in the original currency, positive, when the transaction was made in another currency.
    package var foreignAmount: Decimal?
    package var foreignCurrencyCode: String?
    package var exchangeRate: Decimal?
    /// camt `RvslInd`: this entry reverses an earlier one.
    package var isReversal: Bool
    package var correction: RawCorrection?
    /// A camt batch kept whole that Coffer before 2026-11 split into one transaction per `TxDtls`: the parts as
    /// that version stored them, so a store filled then still matches it (see `CamtEntry.batchReading`).
    package var formerParts: [RawFormerPart] = []
    /// The amount (as `amount`, with `indicator`) an earlier version stored for this row, when it reads it
    /// differently now (a CSV fee column netted since 2026-11): the stored row is found by it and corrected.
    package var formerAmount: (amount: Decimal, indicator: CreditDebitIndicator?)?

    package init(location: SourceLocation, externalID: String? = nil, amount: Decimal,
                indicator: CreditDebitIndicator? = nil, currencyCode: String? = nil,
                transactionDate: RawDate? = nil, postedDate: RawDate? = nil, name: String? = nil,
                memo: String? = nil, merchantName: String? = nil, typeCode: String? = nil,
                transactionType: TransactionType? = nil, merchantCategoryCode: MerchantCategoryCode? = nil,
                category: String? = nil, status: TransactionStatus? = nil, checkNumber: String? = nil,
                foreignAmount: Decimal? = nil, foreignCurrencyCode: String? = nil, exchangeRate: Decimal? = nil,
                isReversal: Bool = false, correction: RawCorrection? = nil) {
        self.location = location
        self.externalID = externalID
        self.amount = amount
        self.indicator = indicator
        self.currencyCode = currencyCode
        self.transactionDate = transactionDate
        self.postedDate = postedDate
        self.name = name
        self.memo = memo
        self.merchantName = merchantName
        self.typeCode = typeCode
        self.transactionType = transactionType
        self.merchantCategoryCode = merchantCategoryCode
        self.category = category
        self.status = status
        self.checkNumber = checkNumber
        self.foreignAmount = foreignAmount
        self.foreignCurrencyCode = foreignCurrencyCode
        self.exchangeRate = exchangeRate
        self.isReversal = isReversal
        self.correction = correction
    }

    /// The direction: the explicit indicator, else the sign (zero counts as credit).
    package var resolvedIndicator: CreditDebitIndicator {
        indicator ?? (amount < 0 ? .debit : .credit)
    }
}

/// One part of a batch as an earlier version stored it: its id, amount (positive) and direction.
package struct RawFormerPart: Hashable, Sendable {
    package var externalID: String
    package var amount: Decimal
    package var indicator: CreditDebitIndicator

    package init(externalID: String, amount: Decimal, indicator: CreditDebitIndicator) {
        self.externalID = externalID
        self.amount = amount
        self.indicator = indicator
    }
}

/// A balance the statement reports.
package struct RawBalance: Sendable {
    package enum Kind: String, Sendable {
        /// Posted transactions only (OFX `LEDGERBAL`, camt `CLBD`/`OPBD`/`ITBD`).
        case booked
        /// Including pending (OFX `AVAILBAL`, camt `CLAV`/`ITAV`).
        case available
    }
    package var kind: Kind
    /// Signed from the holder's side (positive: the holder's money; negative: owed), or the magnitude when
    /// `indicator` is set.
    package var amount: Decimal
    package var indicator: CreditDebitIndicator?
    package var currencyCode: String?
    package var asOf: RawDate
    /// The source's own code (`CLBD`, `LEDGERBAL`), for messages.
    package var code: String?
    package var location: SourceLocation

    package init(kind: Kind, amount: Decimal, indicator: CreditDebitIndicator? = nil, currencyCode: String? = nil,
                asOf: RawDate, code: String? = nil, location: SourceLocation) {
        self.kind = kind
        self.amount = amount
        self.indicator = indicator
        self.currencyCode = currencyCode
        self.asOf = asOf
        self.code = code
        self.location = location
    }

    package var resolvedIndicator: CreditDebitIndicator {
        indicator ?? (amount < 0 ? .debit : .credit)
    }
}

/// Something the parser noticed that does not stop the import (a statement that does not reconcile, skipped
/// investment positions).
package struct ParseWarning: Sendable, CustomStringConvertible {
    package var message: String
    package var location: SourceLocation
    /// A person should look (a statement that does not reconcile, a skipped row): `coffer import` prints these
    /// even under cron, where it is otherwise quiet.
    package var needsAttention: Bool
    /// Set when the statement's own balances do not add up (camt opening + booked entries ≠ closing, a CSV running
    /// balance): the reported balance minus the one the amounts give. The import records it with the statement,
    /// and `coffer reconcile` lists it.
    package var balanceDifference: Decimal?

    package init(_ message: String, location: SourceLocation, needsAttention: Bool = false, balanceDifference: Decimal? = nil) {
        self.message = message
        self.location = location
        self.needsAttention = needsAttention
        self.balanceDifference = balanceDifference
    }

    package var description: String { "\(location): \(message)" }
}

/// What a parser emits, in source order: `begin`, then the statement's transactions and balances, then `end`;
/// again for each further statement in the file.
package enum StatementEvent: Sendable {
    case begin(RawStatementHeader)
    case transaction(RawTransaction)
    case balance(RawBalance)
    case end
    case warning(ParseWarning)
}

/// A format parser: bytes in, events out. Pure apart from reading its input; streams (never holds the whole
/// file as objects). Throws `CofferError` with code `.badInput` and a location for malformed input.
///
/// `emit` takes each event `consuming`: a transaction's event moves to the preparer and on into the prepared
/// transaction, where a borrowed one was copied (a dozen references retained) and the parser's copy then released.
package protocol StatementParser: Sendable {
    func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws
}
