import CofferModel
import CofferStore
import Foundation

/// What a statement says about its account, as compared with stored accounts when its identity key finds none.
struct IncomingAccount {
    var institution: InstitutionSignature
    /// The number as letters and digits.
    var number: String
    var form: AccountNumberForm
    /// Asset or liability, when the statement says (a format, a profile, an account type word).
    var kind: AccountKind?
    var currency: String?

    /// `••••1234` when the number ends in four digits: the visible digits a stored account must show too.
    var maskedNumber: String? {
        let last = number.suffix(4)
        return last.count == 4 && last.allSatisfy(\.isNumber) ? "••••" + last : nil
    }
}

/// Which stored accounts a statement's account may be, when its identity key finds none (docs/account-identity.md).
///
/// For example, the CSV export of a card (`XXXX-XXXXXX-71004`, "American Express") after its OFX download (the
/// full number, `ORG AMEX`/`FID 3101`): one candidate, the OFX's account.
///
/// A candidate shows the same last four digits, its institution is the same (`InstitutionTable.equivalent`), and
/// nothing contradicts: not another kind (asset, liability), not another currency, and not two numbers of the
/// same full form (a full number beside another full number, an IBAN beside another IBAN, are two accounts:
/// the same one would have had the same key). Accounts stored before number forms were kept are not ruled out
/// by form. The policy decides; `StatementAccount` applies it.
enum AccountCandidates {
    static func matching(_ incoming: IncomingAccount, among stored: [StoredAccountIdentity],
                         table: InstitutionTable) -> [StoredAccountIdentity] {
        stored.filter { candidate in
            guard candidate.maskedNumber == incoming.maskedNumber else { return false }
            if let kind = incoming.kind, kind != candidate.account.kind { return false }
            if let currency = incoming.currency, currency != candidate.account.currencyCode { return false }
            if incoming.form != .short, candidate.numberForms?.contains(incoming.form) == true { return false }
            return table.equivalent(incoming.institution, signature(of: candidate))
        }
    }

    /// The institution of a stored account: its name, and the ids its sources gave (its name too, for accounts
    /// stored with an id as their institution's name).
    static func signature(of stored: StoredAccountIdentity) -> InstitutionSignature {
        let name = stored.account.institutionName
        let known = name == StatementAccount.unknownInstitution ? nil : name
        return InstitutionSignature(name: known, ids: stored.institutionIDs + (known.map { [$0] } ?? []))
    }

    /// The error for a statement whose account could be several stored accounts: each named, and the remedy.
    static func ambiguity(_ incoming: IncomingAccount, _ candidates: [StoredAccountIdentity], location: SourceLocation) -> CofferError {
        let said = [incoming.institution.name, incoming.maskedNumber].compactMap { $0 }.joined(separator: " ")
        let listed = candidates.map { "\"\($0.account.displayName)\" (id \($0.account.id.uuidString), \($0.maskedNumber ?? "no number"))" }
        return CofferError(.ambiguousAccount, "this statement's account (\(said)) could be any of \(candidates.count) stored "
                           + "accounts: \(listed.joined(separator: ", ")); Coffer does not choose one and imported nothing "
                           + "from this file. Import it again with --account ID naming the right one (it is then "
                           + "remembered for later imports)", location: location)
    }
}
