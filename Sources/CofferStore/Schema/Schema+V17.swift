import GRDB

/// Migration v17 (issue 17): clients and their grants, FinanceKit's authorization for programs other than the
/// store's owner, and the day of each change, by which history tells a client what entered or left its grant.
/// Append-only like every migration: a change is a new one (docs/schema.md).
extension Schema {
    static func registerClientsMigration(_ migrator: inout DatabaseMigrator) {
        // `client`: one program that reads the store through its grant (docs/access.md). Its bearer token is kept
        // only as its SHA-256 (`token_hash`); `state` is `notDetermined`, `authorized`, `denied` or `revoked` (a
        // revoked client's token no longer opens anything); `epoch` grows with every decision of the owner, and
        // history tokens carry it, so a token older than the grant it was read under is refused; `data_types` is the
        // comma-separated list of granted types (`accounts,accountBalances,transactions,orders`); a request by the
        // client itself (`requestAuthorization()`) sets `requested_at` and counts up `requests`; times are
        // milliseconds since 1970. `client_grant`: the accounts of an authorized client's grant, each with the
        // earliest day (days since 1970) of what it may see of it, NULL for all. Grants name account ids and keep no
        // foreign key: an account that a link removes stays named, and matches nothing.
        //
        // `change_log.day`: the day of the changed record after the change (for a deletion, before it): a
        // transaction's local day (`txn.local_day`), a balance's UTC day of `as_of`; NULL for accounts and for
        // changes logged before v17. `prior_day`: for an update, the record's day before it. History for a client
        // decides with them whether a record entered or left the client's dates (`HistoryReader`).
        migrator.registerMigration("v17-clients") { db in
            try db.execute(sql: """
                CREATE TABLE client (
                    id BLOB PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL UNIQUE,
                    token_hash BLOB NOT NULL UNIQUE,
                    state TEXT NOT NULL DEFAULT 'notDetermined',
                    epoch INTEGER NOT NULL DEFAULT 1,
                    data_types TEXT NOT NULL DEFAULT '',
                    created_at INTEGER NOT NULL,
                    decided_at INTEGER,
                    requested_at INTEGER,
                    requests INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE client_grant (
                    client_id BLOB NOT NULL REFERENCES client(id) ON DELETE CASCADE,
                    account_id BLOB NOT NULL,
                    earliest_day INTEGER,
                    PRIMARY KEY (client_id, account_id)
                ) WITHOUT ROWID;
                ALTER TABLE change_log ADD COLUMN day INTEGER;
                ALTER TABLE change_log ADD COLUMN prior_day INTEGER;
                """)
        }
    }
}
