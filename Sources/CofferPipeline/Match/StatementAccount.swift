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
/// A statement whose key finds no account may still be a stored one (docs/account-identity.md): the person's
/// `accounts.yaml` is asked first; else one stored account of an equivalent institution with the same last four
/// digits and nothing contradicting (`AccountCandidates`) is landed on and the key recorded as its alias, while
/// several such accounts fail the file (`ambiguous-account`) unless `--account` names one of them.
///
/// What the statement does not say, the import's `Fallback` may: the account of a statement that names none
/// (`coffer import --account`/`--new-account`), and the currency of one whose account is new
/// (`--currency`); a stored account's own currency is used before either.
enum StatementAccount {
    struct Fallback: Sendable {
        var account: ImportOptions.AccountChoice?
        var currency: String?
    }

    /// What says which institutions and identities are one: the configuration's institution table and the
    /// person's account aliases (`accounts.yaml`).
    struct Rules: Sendable {
        var institutions = InstitutionTable.empty
        var aliases: [AccountAliasRule] = []
    }

    /// The statement's account, and what the person should hear about how it was chosen.
    struct Resolution {
        var account: Account
        var inserted: Bool
        /// A warning a person should look at (a new account for another currency of a stored number).
        var attention: String?
        /// A plain warning (the statement landed on a stored account under another identity, now an alias).
        var notice: String?
    }

    /// The institution name of an account whose statement names none.
    static let unknownInstitution = "Unknown institution"

    /// The statement's account, whether it was created, and what the user should know about how it was chosen.
    static func resolve(_ identity: RawAccountIdentity, writer: StoreWriter, location: SourceLocation,
                        fallback: Fallback = Fallback(), rules: Rules = Rules()) throws -> Resolution {
        var identity = identity
        // A currency code that is not one (`US`, `€`) is treated as absent: the stored account's, or --currency.
        let sentCurrency = identity.currencyCode?.trimmingWhitespace.uppercased()
        identity.currencyCode = sentCurrency.flatMap(isCurrencyCode)
        let badCurrency = sentCurrency.flatMap { $0.isEmpty || identity.currencyCode != nil ? nil : $0 }
        let number = identity.accountNumber.map { $0.filter { $0.isLetter || $0.isNumber } }.flatMap { $0.isEmpty ? nil : $0 }
        if number == nil, identity.displayName?.isEmpty ?? true {
            switch fallback.account {
            case .existing(let id)?:
                guard let account = try writer.account(id: id) else {
                    throw CofferError(.usage, "--account: no stored account has the id \(id)", location: location)
                }
                if let currency = identity.currencyCode, currency != account.currencyCode {
                    throw CofferError(.usage, "--account: the statement is in \(currency), but \(account.displayName) is "
                                      + "in \(account.currencyCode); name an account in \(currency) or use --new-account",
                                      location: location)
                }
                return Resolution(account: account, inserted: false)
            case .new(let name)?:
                identity.displayName = name
            case nil:
                throw CofferError(.badInput, "the statement does not say which account it is for (no account number or "
                                  + "name: an OFX file without BANKACCTFROM or CCACCTFROM, a QIF file without an !Account "
                                  + "block); name it with --account ID (an existing account's id, last digits or name) or "
                                  + "--new-account NAME", location: location)
            }
        }
        let institution = identity.institutionName ?? identity.institutionID ?? unknownInstitution
        let institutionIDs = [identity.institutionID, identity.otherInstitutionID].compactMap { $0 }
        var key: (key: String, id: UUID)
        var sibling: Account?
        var form: AccountNumberForm?
        if let number {
            // A short or masked number (Chase ••••1234, Capital One ••••1234) is an account only with its
            // institution; a full number or IBAN is unique by itself.
            let short = isShort(number, identity)
            form = short ? .short : isIBAN(number) ? .iban : .full
            let incoming = IncomingAccount(
                institution: InstitutionSignature(name: identity.institutionName ?? identity.institutionID, ids: institutionIDs),
                number: number.uppercased(), form: form!, kind: identity.kind ?? identity.accountType.map(inferKind),
                currency: identity.currencyCode)
            // The person's own word first: accounts.yaml.
            if let account = try configuredAccount(incoming, rules: rules, writer: writer) {
                return Resolution(account: account, inserted: false)
            }
            let scope = short ? institutionScope(identity) : ""
            key = writer.accountIdentity(institution: scope, number: number)
            if !scope.isEmpty, try writer.account(identityKey: key.key) == nil {
                // Stores made before 2026-11 keyed every number alone: adopt such an account when it is this
                // institution's, under the new key.
                let legacy = writer.accountIdentity(institution: "", number: number)
                if let old = try writer.account(identityKey: legacy.key),
                   normalized(old.institutionName) == normalized(institution) {
                    try writer.rekeyAccount(id: old.id, identityKey: key.key, maskedNumber: nil)
                }
            }
            if let former = identity.formerNumber.map({ $0.filter { $0.isLetter || $0.isNumber } }), !former.isEmpty,
               try writer.account(identityKey: key.key) == nil {
                // The profile named this fixed number before it took the number from the file: every file of the
                // layout landed on that account. The first account a file names adopts it.
                for formerScope in Set(["", isShort(former, identity) ? institutionScope(identity) : ""]) {
                    let formerKey = writer.accountIdentity(institution: formerScope, number: former)
                    if let old = try writer.account(identityKey: formerKey.key),
                       normalized(old.institutionName) == normalized(institution) {
                        let masked = number.contains(where: \.isNumber) ? "••••" + String(number.suffix(4)) : nil
                        try writer.rekeyAccount(id: old.id, identityKey: key.key, maskedNumber: masked)
                        break
                    }
                }
            }
            if let existing = try writer.account(identityKey: key.key) {
                guard let currency = identity.currencyCode, currency != existing.currencyCode,
                      !(try writer.heldBeforePerCurrencyAccounts(accountID: existing.id, currency: currency)) else {
                    // Its own currency (or none said), or one a store filled before accounts were kept per currency
                    // already put on it. What this source says is kept for comparing later ones (an account stored
                    // before learns its institution ids and its number's form here).
                    try writer.noteAccountIdentity(accountID: existing.id, institutionIDs: institutionIDs, numberForm: form)
                    return Resolution(account: existing, inserted: false)
                }
                // The same number in another currency: that currency's own account.
                sibling = existing
                key = writer.accountIdentity(institution: scope, number: number + ":" + currency)
            } else if let landed = try storedCandidate(incoming, key: key.key, writer: writer, location: location,
                                                       fallback: fallback, rules: rules) {
                return landed
            }
        } else {
            key = writer.accountIdentity(institution: institution, number: "name:" + (identity.displayName ?? ""))
        }
        if let existing = try writer.account(identityKey: key.key) { return Resolution(account: existing, inserted: false) }
        var assumed: String?
        if identity.currencyCode == nil, fallback.currency.flatMap(isCurrencyCode) == nil, let code = identity.assumedCurrency {
            assumed = code
        }
        guard let currency = identity.currencyCode ?? fallback.currency.flatMap(isCurrencyCode) ?? assumed else {
            let said = badCurrency.map { "names the currency '\($0)', which is not an ISO 4217 code" } ?? "names no currency"
            throw CofferError(.badInput, "the statement \(said) for its new account (expected a code such as USD); give "
                              + "it with --currency CODE", location: location)
        }
        let masked = number.flatMap { $0.contains(where: \.isNumber) ? "••••" + String($0.suffix(4)) : nil }
        let kind = identity.kind ?? inferKind(identity.accountType)
        var displayName = identity.displayName ?? [institution, masked].compactMap { $0 }.joined(separator: " ")
        var warning: String?
        if let sibling {
            displayName += " (\(currency))"
            warning = "\(sibling.displayName) is an account in \(sibling.currencyCode); this statement of the same account "
                + "number is in \(currency): imported to a separate \(currency) account, \(displayName) (one account per "
                + "number and currency)"
        }
        let description = identity.accountType.map(describe)
        let account: Account = kind == .asset
            ? .asset(AssetAccount(id: key.id, displayName: displayName, accountDescription: description,
                                  institutionName: institution, currencyCode: currency))
            : .liability(LiabilityAccount(id: key.id, displayName: displayName, accountDescription: description,
                                          institutionName: institution, currencyCode: currency))
        try writer.insertAccount(account, identityKey: key.key, maskedNumber: masked, institutionIDs: institutionIDs,
                                 numberForm: form)
        let notice = assumed.map {
            "the statement names no currency (QIF never does): the new account \(displayName) is in \($0); if it is not, "
                + "undo this import (coffer imports undo) and import again with --currency CODE"
        }
        return Resolution(account: account, inserted: true, attention: warning, notice: notice)
    }

    /// The account `accounts.yaml` says this statement's account is, when one of its identities matches and the
    /// account's currency does not contradict the statement's. Throws when the file names an account the store
    /// does not have: landing elsewhere would make the double the person wrote the file to avoid.
    static func configuredAccount(_ incoming: IncomingAccount, rules: Rules, writer: StoreWriter) throws -> Account? {
        for rule in rules.aliases
        where rule.matches(incoming.institution, number: incoming.number, currency: incoming.currency, table: rules.institutions) {
            guard let account = try writer.account(id: rule.accountID) else {
                throw CofferError(.badConfiguration, "this identity names account \(rule.accountID.uuidString), which is not in "
                                  + "this store (coffer accounts lists its accounts); correct the id or remove the entry",
                                  location: rule.location)
            }
            if let currency = incoming.currency, currency != account.currencyCode { continue }
            return account
        }
        return nil
    }

    /// A stored account this statement's account is, though its identity key finds none (a CSV export's masked
    /// number of a card stored from its OFX download): one candidate is landed on, its key recorded as an alias
    /// of the account; several fail the file unless `--account` names one of them (`AccountCandidates`).
    static func storedCandidate(_ incoming: IncomingAccount, key: String, writer: StoreWriter, location: SourceLocation,
                                fallback: Fallback, rules: Rules) throws -> Resolution? {
        guard let masked = incoming.maskedNumber else { return nil }
        let candidates = AccountCandidates.matching(incoming, among: try writer.accounts(maskedNumber: masked),
                                                    table: rules.institutions)
        let chosen: StoredAccountIdentity
        switch candidates.count {
        case 0: return nil
        case 1: chosen = candidates[0]
        default:
            guard case .existing(let id)? = fallback.account, let named = candidates.first(where: { $0.account.id == id }) else {
                throw AccountCandidates.ambiguity(incoming, candidates, location: location)
            }
            chosen = named
        }
        try writer.addAccountAlias(key, accountID: chosen.account.id)
        try writer.noteAccountIdentity(accountID: chosen.account.id, institutionIDs: incoming.institution.ids,
                                       numberForm: incoming.form)
        let said = [incoming.institution.name, masked].compactMap { $0 }.joined(separator: " ")
        let why = candidates.count > 1 ? "--account chose it" : "same institution and last digits, nothing contradicts"
        let notice = "this statement's account (\(said)) is the stored account \"\(chosen.account.displayName)\" (id "
            + "\(chosen.account.id.uuidString)): \(why); its identity is now an alias of that account, so later imports land "
            + "there directly"
        return Resolution(account: chosen.account, inserted: false, notice: notice)
    }

    /// The code, when `text` is an ISO 4217-shaped code (three ASCII letters).
    static func isCurrencyCode(_ text: String) -> String? {
        let code = text.uppercased()
        return code.count == 3 && code.allSatisfy({ $0.isASCII && $0.isLetter }) ? code : nil
    }

    /// Under 8 letters and digits, or marked masked (`XXXX-XXXXXX-71004`).
    static func isShort(_ number: String, _ identity: RawAccountIdentity) -> Bool {
        number.count < 8 || identity.isMasked
    }

    /// An IBAN: two letters, two check digits, then 11 to 30 letters and digits.
    static func isIBAN(_ number: String) -> Bool {
        let chars = Array(number.uppercased())
        return (15...34).contains(chars.count) && chars[0].isLetter && chars[1].isLetter && chars[2].isNumber
            && chars[3].isNumber && chars.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// What scopes a short number: the institution's id, else its name.
    static func institutionScope(_ identity: RawAccountIdentity) -> String {
        let scope = identity.institutionID ?? identity.institutionName ?? "unknown"
        return "institution:" + normalized(scope)
    }

    static func normalized(_ text: String) -> String {
        text.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    /// A readable account type: OFX `CREDITLINE` → "Credit line", camt `CACC` → "Current account".
    static func describe(_ type: String) -> String {
        let known = ["CHECKING": "Checking", "SAVINGS": "Savings", "MONEYMRKT": "Money market", "CREDITLINE": "Credit line",
                     "CREDITCARD": "Credit card", "CD": "Certificate of deposit", "CACC": "Current account", "SVGS": "Savings",
                     "CARD": "Card account", "LOAN": "Loan", "INVESTMENT": "Investment", "CASH": "Cash account",
                     "OTHERASSET": "Other asset", "OTHERLIABILITY": "Other liability"]
        return known[type.uppercased()] ?? type.capitalized
    }

    static func inferKind(_ type: String?) -> AccountKind {
        guard let type = type?.uppercased() else { return .asset }
        return ["CREDITCARD", "CREDITLINE", "CARD", "LOAN", "MORTGAGE", "LINEOFCREDIT", "OTHERLIABILITY"].contains(type)
            ? .liability : .asset
    }
}
