import CofferModel
import Foundation

/// The fields of one `<STMTTRN>` as they arrive, turned into a `RawTransaction` when it closes.
///
/// For example, `<TRNTYPE>POS<DTPOSTED>20260302<TRNAMT>-4.50<FITID>A1<NAME>Corner Cafe<SIC>5814` becomes a
/// transaction of -4.50, posted and made on 2026-03-02, type `.pointOfSale`, MCC 5814.
///
/// Mapping rules:
/// - `TRNAMT` is signed from the holder's side, as OFX sends it (negative takes money away); `indicator` is nil.
/// - `DTUSER` is the transaction date; without it the transaction date is `DTPOSTED`.
/// - `NAME` is the name; a `PAYEE` aggregate's `NAME` (or a `PAYEE` sent as a plain value) fills in without it.
/// - `CURRENCY` (amounts are in `CURSYM`): the amount becomes `TRNAMT × CURRATE` in the account's currency and
///   `|TRNAMT|` is the foreign amount. `ORIGCURRENCY` (amounts already converted to `CURDEF`): the amount stays
///   and the foreign amount is `|TRNAMT| ÷ CURRATE`, rounded to 2 decimals. Both follow the specification's
///   definition of `CURRATE` as the ratio of the `CURDEF` currency to the `CURSYM` currency (one `CURSYM`
///   unit is worth `CURRATE` `CURDEF` units).
/// - `CORRECTACTION` with `CORRECTFITID` becomes `correction`; a `DELETE` may omit `TRNAMT` (amount 0).
struct OFXTransactionFields {
    enum Conversion { case none, currency, original }

    var location: SourceLocation
    var fitID: String?
    var amount: Decimal?
    var typeCode: String?
    var posted: RawDate?
    /// Why `DTPOSTED` could not be read, when it could not.
    var postedProblem: String?
    var postedProblemLocation: SourceLocation?
    var user: RawDate?
    var name: String?
    var payeeName: String?
    var memo: String?
    var sic: MerchantCategoryCode?
    var checkNumber: String?
    var correctFitID: String?
    var correctAction: RawCorrection.Action?
    var conversion = Conversion.none
    var currencySymbol: String?
    var currencyRate: Decimal?

    init(location: SourceLocation) { self.location = location }

    /// The finished transaction; throws when a required field is missing.
    func build(accountCurrency: String?) throws -> RawTransaction {
        let correction = correctFitID.flatMap { id in correctAction.map { RawCorrection(action: $0, targetID: id) } }
        guard let sent = amount ?? (correction?.action == .delete ? Decimal(0) : nil) else {
            throw CofferError(.badInput, "expected a <TRNAMT> amount in this transaction, found none", location: location)
        }
        guard let postedDate = posted ?? user else {
            throw CofferError(.badInput, postedProblem ?? "expected a <DTPOSTED> date in this transaction, found none",
                              location: postedProblemLocation ?? location)
        }
        // The conversion is worked out first and the transaction made once, as the value returned: made as a
        // variable and then adjusted, it was copied out on return, twice a transaction (callgrind).
        var amount = sent
        var currencyCode = accountCurrency
        var foreignAmount: Decimal?
        var foreignCurrencyCode: String?
        var exchangeRate: Decimal?
        if let symbol = currencySymbol, conversion != .none {
            exchangeRate = currencyRate
            let magnitude = sent < 0 ? -sent : sent
            switch conversion {
            case .none: break
            case .currency:
                if let rate = currencyRate {
                    amount = sent * rate
                    foreignAmount = magnitude
                    foreignCurrencyCode = symbol
                } else {
                    currencyCode = symbol  // no rate: the amount stays in the currency it was sent in
                }
            case .original:
                foreignCurrencyCode = symbol
                if let rate = currencyRate, rate > 0 {
                    var quotient = magnitude / rate
                    var rounded = Decimal()
                    NSDecimalRound(&rounded, &quotient, 2, .plain)
                    foreignAmount = rounded
                }
            }
        }
        return RawTransaction(
            location: location, externalID: fitID, amount: amount, currencyCode: currencyCode,
            transactionDate: user ?? postedDate, postedDate: postedDate, name: name ?? payeeName, memo: memo,
            typeCode: typeCode, transactionType: typeCode.flatMap(OFXTransactionFields.transactionType),
            merchantCategoryCode: sic, checkNumber: checkNumber, foreignAmount: foreignAmount,
            foreignCurrencyCode: foreignCurrencyCode, exchangeRate: exchangeRate, correction: correction)
    }

    /// FinanceKit's type for an OFX `TRNTYPE`; nil where OFX says only the direction (`CREDIT`, `DEBIT`) or
    /// nothing specific (`OTHER`, `HOLD`), and for `CASH`, which is neither an ATM withdrawal for sure nor
    /// FinanceKit's "withdrawal by another party".
    /// `code` is upper-cased already.
    static func transactionType(_ code: String) -> TransactionType? {
        switch code {
        case "POS": return .pointOfSale
        case "ATM": return .atm
        case "CHECK": return .check
        case "FEE", "SRVCHG": return .fee
        case "INT": return .interest
        case "DIV": return .dividend
        case "DEP": return .deposit
        case "DIRECTDEP": return .directDeposit
        case "DIRECTDEBIT": return .directDebit
        case "XFER": return .transfer
        case "PAYMENT": return .billPayment
        case "REPEATPMT": return .standingOrder
        default: return nil
        }
    }
}
