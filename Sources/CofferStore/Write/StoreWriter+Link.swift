import CofferModel
import Foundation
import GRDB

/// The writes `FinanceStore.linkAccounts` makes: moving rows between accounts with their history, and removing
/// the account that was absorbed. All are journaled (the link is a ledger entry of kind `link`), so an undo
/// reverts them.
extension StoreWriter {
    /// Starts the ledger entry of a link.
    package func beginLink(path: String) throws {
        try beginLedgerEntry(kind: .link, sha256: "", path: path, format: "link", profile: nil)
    }

    /// Every transaction of an account, oldest first.
    package func transactions(accountID: UUID) throws -> [StoredTransaction] {
        try stored("SELECT \(TxnColumn.storedList) FROM txn WHERE account_id = ? ORDER BY transaction_date, id", [accountID])
    }

    /// Deletes a transaction; with `tombstone: false` its keys are not kept (the caller retires them elsewhere).
    package func delete(_ stored: StoredTransaction, tombstone: Bool) throws {
        if tombstone { return try delete(stored) }
        try log(.transaction, .delete, id: stored.transaction.id, accountID: stored.transaction.accountID,
                day: try storedLocalDay(ofTransaction: stored.transaction.id) ?? stored.transaction.localDay)
        try db.execute(sql: "DELETE FROM txn WHERE id = ?", arguments: [stored.transaction.id])
        transactionCounts.deleted += 1
    }

    /// Moves a transaction (same id) into another account: a deletion in its old account's history and an
    /// insertion in the new one's. A content key the new account holds already gets the next occurrence number.
    package func move(_ stored: StoredTransaction, to accountID: UUID) throws {
        let id = stored.transaction.id
        let day = try storedLocalDay(ofTransaction: id) ?? stored.transaction.localDay
        try log(.transaction, .delete, id: id, accountID: stored.transaction.accountID, day: day)
        try log(.transaction, .insert, id: id, accountID: accountID, day: day)
        var occurrence = stored.keys.occurrence
        if stored.keys.externalID == nil, let fingerprint = stored.keys.fingerprint, let n = occurrence,
           try Bool.fetchOne(db, sql: """
               SELECT EXISTS (SELECT 1 FROM txn WHERE account_id = ? AND fingerprint = ? AND occurrence = ? AND external_id IS NULL)
               """, arguments: [accountID, fingerprint, n]) == true {
            occurrence = (try Int.fetchOne(db, sql: """
                SELECT MAX(occurrence) FROM txn WHERE account_id = ? AND fingerprint = ? AND external_id IS NULL
                """, arguments: [accountID, fingerprint]) ?? n) + 1
        }
        try db.execute(sql: "UPDATE OR FAIL txn SET account_id = ?, occurrence = ? WHERE id = ?", arguments: [accountID, occurrence, id])
        transactionCounts.deleted += 1
        transactionCounts.inserted += 1
    }

    /// Moves an account's balances into another; one the other holds already (same statement) is dropped.
    /// Returns how many moved.
    package func moveBalances(from source: UUID, to target: UUID) throws -> Int {
        var moved = 0
        for row in try Row.fetchAll(db, sql: "SELECT id, dedupe_key, as_of FROM balance WHERE account_id = ?", arguments: [source]) {
            let id: UUID = row[0]
            let key: String = row[1]
            let day = Self.balanceDay(asOf: row[2])
            try log(.balance, .delete, id: id, accountID: source, day: day)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM balance WHERE account_id = ? AND dedupe_key = ?)",
                                 arguments: [target, key]) == true {
                try db.execute(sql: "DELETE FROM balance WHERE id = ?", arguments: [id])
            } else {
                try log(.balance, .insert, id: id, accountID: target, day: day)
                try db.execute(sql: "UPDATE balance SET account_id = ? WHERE id = ?", arguments: [target, id])
                moved += 1
            }
        }
        return moved
    }

    /// Copies an account's tombstones (deleted and retired keys) to another, so what was deleted from one stays
    /// deleted in the other.
    package func copyTombstones(from source: UUID, to target: UUID) throws {
        try db.execute(sql: """
            INSERT INTO tombstone(transaction_id, account_id, external_id, fingerprint, occurrence, deleted_seq)
            SELECT transaction_id, ?, external_id, fingerprint, occurrence, deleted_seq FROM tombstone WHERE account_id = ?
            """, arguments: [target, source])
    }

    /// Moves the statements recorded for an account (`coffer reconcile`) to another, noting them in the undo
    /// journal (the table has no mirror: a link is the only thing that changes a recorded statement).
    package func moveStatementPeriods(from source: UUID, to target: UUID) throws {
        try db.execute(sql: """
            INSERT INTO undo_added(import_id, tbl, row_key) SELECT ?, 'statement_period', id FROM statement_period WHERE account_id = ?
            """, arguments: [importID, source])
        try db.execute(sql: "UPDATE statement_period SET account_id = ? WHERE account_id = ?", arguments: [target, source])
    }

    /// Deletes an account that holds nothing any more: a deletion in account history.
    package func deleteAccount(_ id: UUID) throws {
        try log(.account, .delete, id: id, accountID: id)
        try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id])
    }
}

extension StoreWriter {
    /// Makes `source`'s identities `target`'s: its own identity key and its aliases lead to `target`, and what its
    /// sources said about the institution and number is noted on `target`. Returns how many keys now lead there.
    package func absorbIdentities(of source: UUID, into target: UUID) throws -> Int {
        var count = try repointAccountAliases(from: source, to: target)
        if let record = try AccountRecord.fetchOne(db, key: source) {
            let formList = record.numberForms.map(Self.words) ?? []
            try noteAccountIdentity(accountID: target, institutionIDs: record.institutionIDs.map(Self.words) ?? [],
                                    numberForm: formList.first.flatMap(AccountNumberForm.init(rawValue:)))
            for form in formList.dropFirst() {
                try noteAccountIdentity(accountID: target, institutionIDs: [], numberForm: AccountNumberForm(rawValue: form))
            }
        }
        if let key = try identityKey(accountID: source) {
            // The account's own key leads to it while it exists: give it another first (the row is deleted next).
            try db.execute(sql: "UPDATE account SET identity_key = 'linked:' || hex(id) WHERE id = ?", arguments: [source])
            try addAccountAlias(key, accountID: target)
            count += 1
        }
        return count
    }
}
