import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// Resolves a statement's account identity to the stored `Account`, creating it the first time.
///
/// The identity is the account number (letters and digits, case-folded) — an IBAN is unique by itself and a
/// person's accounts at different institutions practically never share a number — so an OFX download, a camt
/// file and a CSV export of one account land on one `Account` when the CSV profile names the same number.
/// Without a number, the profile's account name scoped by the institution is used. The number itself is never
/// stored: only a keyed hash and the last four characters (`••••1234`).
///
/// FinanceKit's account has one currency, so one account number in several currencies (a multi-currency IBAN
/// in camt) is one account per currency: the first currency seen keeps the number's key, each other currency
/// gets the number and its code as key.
///
/// What the statement does not say, the import's `Fallback` may: the account of a statement that names none
/// (`coffer import --account`/`--new-account`), and the currency of one whose account is new
/// (`--currency`); a stored account's own currency is used before either.
enum StatementAccount {
    struct Fallback: Sendable {
        var account: ImportOptions.AccountChoice?
        var currency: String?
    }

    static func resolve(_ identity: RawAccountIdentity, writer: StoreWriter, location: SourceLocation,
                        fallback: Fallback = Fallback()) throws -> (Account, inserted: Bool) {
        var identity = identity
        identity.currencyCode = identity.currencyCode.map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            .flatMap { $0.isEmpty ? nil : $0 }
        let number = identity.accountNumber.map { $0.filter { $0.isLetter || $0.isNumber } }.flatMap { $0.isEmpty ? nil : $0 }
        if number == nil, identity.displayName?.isEmpty ?? true {
            switch fallback.account {
            case .existing(let id)?:
                guard let account = try writer.account(id: id) else {
                    throw CofferError(.usage, "--account: no stored account has the id \(id)", location: location)
                }
                return (account, false)
            case .new(let name)?:
                identity.displayName = name
            case nil:
                throw CofferError(.badInput, "the statement does not say which account it is for (no account number or "
                                  + "name, e.g. no BANKACCTFROM or CCACCTFROM); name it with --account ID (an existing "
                                  + "account's id, last digits or name) or --new-account NAME", location: location)
            }
        }
        let institution = identity.institutionName ?? identity.institutionID ?? "Unknown institution"
        var key: (key: String, id: UUID)
        if let number {
            key = writer.accountIdentity(institution: "", number: number)
            if let existing = try writer.account(identityKey: key.key) {
                guard let currency = identity.currencyCode, currency != existing.currencyCode,
                      !(try writer.hasTransactions(accountID: existing.id, currency: currency)) else {
                    // Its own currency, or one it already holds transactions in (stores filled before accounts
                    // were kept per currency put a multi-currency IBAN's statements on one account).
                    return (existing, false)
                }
                // The same number in another currency: that currency's own account.
                key = writer.accountIdentity(institution: "", number: number + ":" + currency)
            }
        } else {
            key = writer.accountIdentity(institution: institution, number: "name:" + (identity.displayName ?? ""))
        }
        if let existing = try writer.account(identityKey: key.key) { return (existing, false) }
        guard let currency = (identity.currencyCode ?? fallback.currency)?.uppercased(), currency.count == 3,
              currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            let found = identity.currencyCode.map { "'\($0)'" } ?? "none"
            throw CofferError(.badInput, "the statement names no currency for its new account (expected an ISO 4217 code "
                              + "such as USD, found \(found)); give it with --currency CODE", location: location)
        }
        let masked = number.flatMap { $0.contains(where: \.isNumber) ? "••••" + String($0.suffix(4)) : nil }
        let kind = identity.kind ?? inferKind(identity.accountType)
        let displayName = identity.displayName ?? [institution, masked].compactMap { $0 }.joined(separator: " ")
        let description = identity.accountType.map(describe)
        let account: Account = kind == .asset
            ? .asset(AssetAccount(id: key.id, displayName: displayName, accountDescription: description,
                                  institutionName: institution, currencyCode: currency))
            : .liability(LiabilityAccount(id: key.id, displayName: displayName, accountDescription: description,
                                          institutionName: institution, currencyCode: currency))
        try writer.insertAccount(account, identityKey: key.key, maskedNumber: masked)
        return (account, true)
    }

    /// A readable account type: OFX `CREDITLINE` → "Credit line", camt `CACC` → "Current account".
    static func describe(_ type: String) -> String {
        let known = ["CHECKING": "Checking", "SAVINGS": "Savings", "MONEYMRKT": "Money market", "CREDITLINE": "Credit line",
                     "CREDITCARD": "Credit card", "CD": "Certificate of deposit", "CACC": "Current account", "SVGS": "Savings",
                     "CARD": "Card account", "LOAN": "Loan", "INVESTMENT": "Investment", "CASH": "Cash account"]
        return known[type.uppercased()] ?? type.capitalized
    }

    static func inferKind(_ type: String?) -> AccountKind {
        guard let type = type?.uppercased() else { return .asset }
        return ["CREDITCARD", "CREDITLINE", "CARD", "LOAN", "MORTGAGE", "LINEOFCREDIT"].contains(type) ? .liability : .asset
    }
}
