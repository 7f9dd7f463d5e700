import CofferModel
import Foundation
import GRDB

/// The form an account number came in from a source: what a new source's number may be compared with.
package enum AccountNumberForm: String, Sendable, CaseIterable {
    /// Short or masked (`XXXX-XXXXXX-71004`, `1234`): it identifies an account only with its institution.
    case short
    /// A full account number (not an IBAN).
    case full
    /// An IBAN.
    case iban
}

/// A stored account with what its sources said about its identity, beyond FinanceKit's fields: what a new source
/// whose identity key finds no account is compared with (`StoreWriter.accounts(maskedNumber:)`).
package struct StoredAccountIdentity: Sendable {
    package var account: Account
    /// `••••1234`: the last four letters and digits of its number.
    package var maskedNumber: String?
    /// The institution ids its sources gave (OFX FID or BANKID, a BIC, a profile's institution id), upper-case;
    /// empty for an account stored before they were kept.
    package var institutionIDs: [String]
    /// The forms its number came in; nil for an account stored before they were kept (unknown).
    package var numberForms: Set<AccountNumberForm>?
}

/// An identity key that leads to an account other than its own (`account_alias`).
package struct AccountAlias: Sendable, Hashable {
    package var identityKey: String
    package var accountID: UUID
    package var createdAt: Date?
    /// The import (or link) that recorded it.
    package var importID: Int64?
}

extension StoreWriter {
    /// The stored account an identity key leads to: the account whose own key it is, else the account it is an
    /// alias of.
    ///
    /// For example, after an OFX download made the account and a CSV export of the same card was landed on it,
    /// both keys lead to it:
    /// ```swift
    /// let account = try writer.account(identityKey: writer.accountIdentity(institution: scope, number: number).key)
    /// ```
    package func account(identityKey: String) throws -> Account? {
        let record = try AccountRecord.filter(AccountRecord.Columns.identityKey == identityKey).fetchOne(db)
            ?? AccountRecord.fetchOne(db, sql: """
                SELECT a.* FROM account_alias x JOIN account a ON a.id = x.account_id WHERE x.identity_key = ?
                """, arguments: [identityKey])
        return try record?.account()
    }

    /// The account's own identity key (the one it was made with), to alias it elsewhere.
    package func identityKey(accountID: UUID) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT identity_key FROM account WHERE id = ?"), arguments: [accountID])
    }

    /// Records `identityKey` as another identity of the account: later statements under that key land on it in
    /// one index look-up. An alias the key had to another account is replaced. The alias carries this write's
    /// import id (`beginImport`), when it has one.
    package func addAccountAlias(_ identityKey: String, accountID: UUID) throws {
        try AccountAliasRecord(identityKey: identityKey, accountID: accountID, createdAt: now, ledgerID: importID).upsert(db)
    }

    /// Removes an alias (an undone link or import); true when there was one.
    @discardableResult
    package func removeAccountAlias(_ identityKey: String) throws -> Bool {
        try AccountAliasRecord.deleteOne(db, key: identityKey)
    }

    /// The aliases leading to an account, oldest first.
    package func accountAliases(accountID: UUID) throws -> [AccountAlias] {
        try AccountAliasRecord.filter(AccountAliasRecord.Columns.accountID == accountID).order(Column.rowID).fetchAll(db).map(\.alias)
    }

    /// Points every alias of `from` at `to` (linking two accounts); returns how many moved.
    @discardableResult
    package func repointAccountAliases(from: UUID, to: UUID) throws -> Int {
        try db.execute(sql: "UPDATE account_alias SET account_id = ? WHERE account_id = ?", arguments: [to, from])
        return try db.changesCount
    }

    /// Stored accounts whose number shows these last characters (`••••1234`), with what their sources said about
    /// their identity: the candidates a new source with the same visible digits may be.
    package func accounts(maskedNumber: String) throws -> [StoredAccountIdentity] {
        try AccountRecord.filter(AccountRecord.Columns.maskedNumber == maskedNumber).order(AccountRecord.Columns.createdSeq)
            .fetchAll(db).map { record in
                StoredAccountIdentity(
                    account: try record.account(), maskedNumber: record.maskedNumber,
                    institutionIDs: record.institutionIDs.map(Self.words) ?? [],
                    numberForms: record.numberForms.map { Set(Self.words($0).compactMap(AccountNumberForm.init(rawValue:))) })
            }
    }

    /// Adds what a source said about an account's identity: its institution ids and its number's form, kept to
    /// compare later sources with. An account stored before forms were kept (unknown) then has this one.
    package func noteAccountIdentity(accountID: UUID, institutionIDs: [String], numberForm: AccountNumberForm?) throws {
        guard var record = try AccountRecord.fetchOne(db, key: accountID) else { return }
        let oldIDs = record.institutionIDs
        let oldForms = record.numberForms
        var ids = oldIDs.map(Self.words) ?? []
        for id in institutionIDs.map(Self.institutionID) where !id.isEmpty && !ids.contains(id) { ids.append(id) }
        var forms = oldForms.map(Self.words)
        if let numberForm, !(forms ?? []).contains(numberForm.rawValue) {
            forms = (forms ?? []) + [numberForm.rawValue]
        }
        let newIDs = ids.isEmpty ? nil : ids.joined(separator: " ")
        let newForms = forms?.joined(separator: " ")
        guard newIDs != oldIDs || newForms != oldForms else { return }
        record.institutionIDs = newIDs
        record.numberForms = newForms
        try record.update(db, columns: [AccountRecord.Columns.institutionIDs, AccountRecord.Columns.numberForms])
    }

    /// Inserts a new account with what its source said about its identity (see `insertAccount(_:identityKey:maskedNumber:)`).
    package func insertAccount(_ account: Account, identityKey: String, maskedNumber: String?,
                              institutionIDs: [String], numberForm: AccountNumberForm?) throws {
        try insertAccount(account, identityKey: identityKey, maskedNumber: maskedNumber)
        let ids = institutionIDs.map(Self.institutionID).filter { !$0.isEmpty }
        guard var record = try AccountRecord.fetchOne(db, key: account.id) else { return }
        record.institutionIDs = ids.isEmpty ? nil : ids.joined(separator: " ")
        record.numberForms = numberForm?.rawValue ?? ""
        try record.update(db, columns: [AccountRecord.Columns.institutionIDs, AccountRecord.Columns.numberForms])
    }

    /// An institution id as kept: upper-case letters and digits.
    static func institutionID(_ text: String) -> String {
        String(text.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    static func words(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }
}
