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
enum StatementAccount {
    static func resolve(_ identity: RawAccountIdentity, writer: StoreWriter, location: SourceLocation) throws -> (Account, inserted: Bool) {
        let institution = identity.institutionName ?? identity.institutionID ?? "Unknown institution"
        let number = identity.accountNumber.map { $0.filter { $0.isLetter || $0.isNumber } }.flatMap { $0.isEmpty ? nil : $0 }
        let key: (key: String, id: UUID)
        if let number {
            key = writer.accountIdentity(institution: "", number: number)
        } else if let name = identity.displayName, !name.isEmpty {
            key = writer.accountIdentity(institution: institution, number: "name:" + name)
        } else {
            throw CofferError(.badInput, "the statement does not say which account it is for (no account number or name)", location: location)
        }
        if let existing = try writer.account(identityKey: key.key) { return (existing, false) }
        guard let currency = identity.currencyCode?.uppercased(), currency.count == 3 else {
            throw CofferError(.badInput, "the statement names no currency for its account (expected an ISO 4217 code such as USD)", location: location)
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
