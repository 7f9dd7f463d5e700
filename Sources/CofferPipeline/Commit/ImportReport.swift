import CofferModel
import Foundation

/// What importing one file did: `coffer import --json` prints one per file.
public struct FileReport: Sendable, Codable {
    /// How the file ended.
    public enum Status: String, Sendable, Codable {
        /// Committed (possibly with nothing new).
        case imported
        /// A byte-identical file was imported before; skipped.
        case alreadyImported = "already-imported"
        /// Nothing was written: `--dry-run`.
        case dryRun = "dry-run"
        /// Nothing from the file was committed; `error` says why.
        case failed
    }

    /// One change, as `--dry-run` lists them.
    public struct Change: Sendable, Codable {
        /// `insert`, `update` or `delete`.
        public var op: String
        /// The transaction's own day, `2026-03-14`.
        public var date: String
        /// The amount, signed from the account holder's side.
        public var amount: String
        /// The ISO 4217 currency code.
        public var currency: String
        /// The display text.
        public var description: String
        /// The transaction's status (`booked`, `pending`, …).
        public var status: String
    }

    /// The file, as given.
    public var path: String
    /// How the file ended.
    public var status: Status
    /// What the file was read as: `ofx`, `camt.053.001.08`, `csv`, … (nil when it could not be identified).
    public var format: String?
    /// The CSV profile it was read with.
    public var profile: String?
    /// The file's SHA-256, as the import ledger keeps it.
    public var sha256: String?
    /// Transactions inserted.
    public var inserted = 0
    /// Transactions whose values changed.
    public var updated = 0
    /// Transactions deleted (pending rows a newer statement no longer lists).
    public var deleted = 0
    /// Transactions the store already held as they are.
    public var unchanged = 0
    /// Accounts added.
    public var accountsAdded = 0
    /// Balances added.
    public var balancesAdded = 0
    /// Everything worth saying about the file that did not stop it, each naming where.
    public var warnings: [String] = []
    /// The warnings a person should look at (also in `warnings`): a statement that does not reconcile, an OFX
    /// balance that does not follow from the previous statement's, skipped rows, re-issued ids, a new account for
    /// another currency of a stored account number.
    public var attention: [String] = []
    /// Why the file failed: the error itself (its code decides what happens next: `code.isTransient`,
    /// `code.concernsStore`), placed in the file, with its cause. JSON: `code`, `message`, `file`, `line`,
    /// `column`, `element`, `description`.
    public var error: CofferError?
    /// With `--dry-run`, the first changes (at most 1,000).
    public var changes: [Change]?
    /// How long the import took, in seconds.
    public var seconds: Double = 0

    /// Creates a report for a file; the importer fills it.
    public init(path: String, status: Status) {
        self.path = path
        self.status = status
    }

    /// True when nothing went wrong.
    public var succeeded: Bool { status != .failed }
}
