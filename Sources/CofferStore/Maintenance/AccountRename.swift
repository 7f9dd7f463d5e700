import CofferModel
import Foundation

extension Account {
    /// The same account under another display name (FinanceKit's `displayName`: the name the person gave it).
    package func renamed(_ displayName: String) -> Account {
        switch self {
        case .asset(let a):
            .asset(AssetAccount(id: a.id, displayName: displayName, accountDescription: a.accountDescription,
                                institutionName: a.institutionName, currencyCode: a.currencyCode, openingDate: a.openingDate))
        case .liability(let l):
            .liability(LiabilityAccount(id: l.id, displayName: displayName, accountDescription: l.accountDescription,
                                        institutionName: l.institutionName, currencyCode: l.currencyCode,
                                        openingDate: l.openingDate, creditInformation: l.creditInformation))
        }
    }
}

extension FinanceStore {
    /// Gives an account the name the person chooses: one `updated` in account history. Later imports keep it (an
    /// import never renames a stored account).
    @discardableResult
    public func renameAccount(id: UUID, to displayName: String) throws -> Account {
        let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw CofferError(.usage, "an account's name cannot be empty") }
        return try write { writer in
            guard let account = try writer.account(id: id) else {
                throw CofferError(.usage, "no account \(id) (see coffer accounts)")
            }
            let renamed = account.renamed(name)
            try writer.updateAccount(renamed)
            return renamed
        }
    }
}
