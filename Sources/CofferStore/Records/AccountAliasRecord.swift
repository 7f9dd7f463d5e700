import Foundation
import GRDB

/// A row of `account_alias`, the GRDB way (see `AccountRecord`): an identity key that leads to an account other
/// than its own. `alias` maps it to `AccountAlias`.
struct AccountAliasRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "account_alias"

    var identityKey: String
    var accountID: UUID
    var createdAt: Int64?
    /// The import (or link) that recorded it.
    var ledgerID: Int64?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case identityKey = "identity_key", accountID = "account_id", createdAt = "created_at", ledgerID = "ledger_id"
    }

    enum Columns {
        static let accountID = Column(CodingKeys.accountID)
    }

    var alias: AccountAlias {
        AccountAlias(identityKey: identityKey, accountID: accountID, createdAt: createdAt.map(Rows.date), importID: ledgerID)
    }
}
