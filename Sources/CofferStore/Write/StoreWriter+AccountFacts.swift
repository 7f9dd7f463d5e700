import Foundation
import GRDB

/// What an import asks about an account before it matches the account's records: each answer one or two index
/// look-ups, whatever the account holds (the partial indexes of migration v20 and `txn_external_id`). A pass over
/// the account's rows here would make every cron import as slow as the account is long.
extension StoreWriter {
    /// What an account already holds, asked once per statement so that imports can skip look-ups that cannot
    /// match (a new account has nothing to dedupe against; an account fed by one kind of source needs no
    /// cross-source matching; one without pending transactions needs no pending→booked search).
    package struct AccountFacts: Sendable {
        package var hasTransactions: Bool
        package var hasExternalIDs: Bool
        package var hasRecordsWithoutExternalID: Bool
        package var hasOpenTransactions: Bool

        package init(hasTransactions: Bool, hasExternalIDs: Bool, hasRecordsWithoutExternalID: Bool, hasOpenTransactions: Bool) {
            self.hasTransactions = hasTransactions
            self.hasExternalIDs = hasExternalIDs
            self.hasRecordsWithoutExternalID = hasRecordsWithoutExternalID
            self.hasOpenTransactions = hasOpenTransactions
        }
    }

    /// The statements behind the answers, each with its account bound to `?1` (tests read their query plans).
    package enum AccountFactSQL {
        /// `facts(accountID:)`, one row of four answers: `txn_account_date`, `txn_external_id`,
        /// `txn_idless_source` and `txn_open` each answer one. The partial indexes are named (`INDEXED BY`): left to
        /// itself, SQLite walked all of an account's rows in `txn_account_date` to find an open one, and a plan that
        /// cannot use the named index is an error, not a slow import.
        package static let facts = """
            SELECT EXISTS (SELECT 1 FROM txn WHERE account_id = ?1),
                   EXISTS (SELECT 1 FROM txn INDEXED BY txn_external_id WHERE account_id = ?1 AND external_id IS NOT NULL),
                   EXISTS (SELECT 1 FROM txn INDEXED BY txn_idless_source WHERE account_id = ?1 AND external_id IS NULL),
                   EXISTS (SELECT 1 FROM txn INDEXED BY txn_open WHERE account_id = ?1 AND status IN (0, 3))
            """
        /// The condition is `txn_posted_later`'s own, word for word: SQLite uses a partial index only for a query
        /// whose terms include the index's.
        package static let postedLater = """
            SELECT EXISTS (SELECT 1 FROM txn INDEXED BY txn_posted_later WHERE account_id = ?1 AND posted_date >= transaction_date + 86400000)
            """
        /// A source other than `?2` sorts before or after it: two ranges of `txn_idless_source`.
        package static let idlessOutside = """
            SELECT EXISTS (SELECT 1 FROM txn INDEXED BY txn_idless_source WHERE account_id = ?1 AND external_id IS NULL AND source < ?2)
                OR EXISTS (SELECT 1 FROM txn INDEXED BY txn_idless_source WHERE account_id = ?1 AND external_id IS NULL AND source > ?2)
            """
        /// An id outside the namespace `?2` sorts before it or at or after `?3`, the least text above every id
        /// that begins with it: two ranges of `txn_external_id`.
        package static let idsOutside = """
            SELECT EXISTS (SELECT 1 FROM txn INDEXED BY txn_external_id WHERE account_id = ?1 AND external_id IS NOT NULL AND external_id < ?2)
                OR EXISTS (SELECT 1 FROM txn INDEXED BY txn_external_id WHERE account_id = ?1 AND external_id IS NOT NULL AND external_id >= ?3)
            """
        /// `idsOutside` for a namespace `nextPrefix` cannot bound: a pass over the account's ids.
        package static let idsOutsideScan = """
            SELECT EXISTS (SELECT 1 FROM txn WHERE account_id = ?1 AND external_id IS NOT NULL
                           AND substr(external_id, 1, length(?2)) != ?2)
            """
    }

    package func facts(accountID: UUID) throws -> AccountFacts {
        let row = try Row.fetchOne(db.cachedStatement(sql: AccountFactSQL.facts), arguments: [accountID])
        return AccountFacts(hasTransactions: row?[0] ?? false, hasExternalIDs: row?[1] ?? false,
                            hasRecordsWithoutExternalID: row?[2] ?? false, hasOpenTransactions: row?[3] ?? false)
    }

    /// Whether the account's rows may carry occurrence numbers counted over a whole file, as versions before 2026-11
    /// stored them (migration v21): then an import also looks for each record under its file-wide number.
    package func mayHoldFileWideOccurrences(accountID: UUID) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM file_wide_occurrence_account WHERE account_id = ?)
            """), arguments: [accountID]) ?? true
    }

    /// Marks `target` as holding file-wide occurrence numbers when `source`, whose rows it takes, is marked (a link).
    /// Never unmarked, an undone link included: the mark only makes imports look in one more place.
    package func carryOccurrenceMark(from source: UUID, to target: UUID) throws {
        try db.execute(sql: """
            INSERT OR IGNORE INTO file_wide_occurrence_account(account_id)
                SELECT ? FROM file_wide_occurrence_account WHERE account_id = ?
            """, arguments: [target, source])
    }

    /// Whether the account holds a row posted a day or more after its date (a pending row that booked, an OFX
    /// `DTPOSTED` after its `DTUSER`).
    package func hasRowsPostedLater(accountID: UUID) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: AccountFactSQL.postedLater), arguments: [accountID]) ?? false
    }

    /// Whether the account holds rows without an institution id from a source other than `source` (a camt.052
    /// report's pending entries beside a CSV export): records another source gave, which this source's may be.
    package func hasRecordsWithoutExternalID(accountID: UUID, outside source: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: AccountFactSQL.idlessOutside), arguments: [accountID, source]) ?? false
    }

    /// Whether the account holds institution ids outside the namespace `prefix` (`ofx:`): records another source
    /// identified, which this source's records may be.
    package func hasExternalIDs(accountID: UUID, outside prefix: String) throws -> Bool {
        guard let above = Self.nextPrefix(after: prefix) else {
            return try Bool.fetchOne(db, sql: AccountFactSQL.idsOutsideScan, arguments: [accountID, prefix]) ?? false
        }
        return try Bool.fetchOne(db.cachedStatement(sql: AccountFactSQL.idsOutside), arguments: [accountID, prefix, above]) ?? false
    }

    /// The least text above every text that begins with `prefix`, in SQLite's binary order (its UTF-8 bytes):
    /// `prefix` with its last byte one higher. Nil when that is not text (an empty prefix, or one ending in a byte
    /// above ASCII), which namespaces never are: they end in `:`.
    package static func nextPrefix(after prefix: String) -> String? {
        var bytes = Array(prefix.utf8)
        guard let last = bytes.last, last < 0x7F else { return nil }
        bytes[bytes.count - 1] = last + 1
        return String(decoding: bytes, as: UTF8.self)
    }
}
