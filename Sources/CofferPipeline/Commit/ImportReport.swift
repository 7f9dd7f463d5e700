import CofferModel
import Foundation

/// What importing one file did: `coffer import --json` prints one per file.
public struct FileReport: Sendable, Codable {
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
        public var op: String
        public var date: String
        public var amount: String
        public var currency: String
        public var description: String
        public var status: String
    }

    public var path: String
    public var status: Status
    public var format: String?
    public var profile: String?
    public var sha256: String?
    public var inserted = 0
    public var updated = 0
    public var deleted = 0
    public var unchanged = 0
    /// Accounts and balances added.
    public var accountsAdded = 0
    public var balancesAdded = 0
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
    public var seconds: Double = 0

    public init(path: String, status: Status) {
        self.path = path
        self.status = status
    }

    /// True when nothing went wrong.
    public var succeeded: Bool { status != .failed }
}
