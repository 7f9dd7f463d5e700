import CofferModel
import CofferStore
import Foundation

/// What linking two accounts did (with `dryRun`, would do).
public struct LinkReport: Sendable, Codable {
    /// The ledger entry recording the link (`coffer imports undo` reverts it).
    public var ledgerID: Int64?
    /// The account kept.
    public var kept: UUID
    /// The account merged into it and deleted.
    public var removed: UUID
    /// Transactions moved into the kept account.
    public var moved = 0
    /// Transactions the kept account already held (matched, not moved).
    public var matched = 0
    /// Matched transactions whose date the other account gave earlier (the day it happened is the earliest).
    public var redated = 0
    /// Balances moved into the kept account.
    public var balancesMoved = 0
    /// Identities of the removed account that became aliases of the kept one.
    public var aliases = 0
    /// Whether nothing was written (the report says what a link would do).
    public var dryRun: Bool
}

extension FinanceStore {
    /// Makes two stored accounts one: `other`'s transactions are matched into `keep` the way an import matches
    /// another source's records (the institution's id within a namespace, else amount, direction, currency,
    /// within 3 days, and agreeing text; same-day twins stay two), so nothing is doubled; the rest move with
    /// their ids. Balances move; `other`'s identities become aliases of `keep`, so later imports of either
    /// source land on `keep`; `other` is deleted.
    ///
    /// In history each moved transaction is a deletion in `other`'s stream and an insertion with the same id in
    /// `keep`'s, each matched one a deletion in `other`'s; `other` is deleted from account history. The link is
    /// a ledger entry like an import, so `undoImport` reverts it exactly.
    @discardableResult
    public func linkAccounts(keep keepID: UUID, other otherID: UUID, dryRun: Bool = false) throws -> LinkReport {
        try write(dryRun: dryRun) { writer in
            guard keepID != otherID else { throw CofferError(.usage, "an account cannot be linked with itself") }
            guard let keep = try writer.account(id: keepID) else { throw CofferError(.usage, "no account \(keepID) (see coffer accounts)") }
            guard let other = try writer.account(id: otherID) else { throw CofferError(.usage, "no account \(otherID) (see coffer accounts)") }
            guard keep.currencyCode == other.currencyCode else {
                throw CofferError(.usage, "\(keep.displayName) is in \(keep.currencyCode) and \(other.displayName) in "
                                  + "\(other.currencyCode): accounts in two currencies are two accounts")
            }
            guard keep.kind == other.kind else {
                throw CofferError(.usage, "\(keep.displayName) is \(keep.kind == .asset ? "an asset" : "a liability") account and "
                                  + "\(other.displayName) \(other.kind == .asset ? "an asset" : "a liability") account: not one account")
            }
            var report = LinkReport(kept: keepID, removed: otherID, dryRun: dryRun)
            try writer.beginLink(path: "link \(other.displayName) into \(keep.displayName)")
            report.ledgerID = writer.importID
            var claimed = Set<UUID>()
            for stored in try writer.transactions(accountID: otherID) {
                if let match = try Self.linkMatch(stored, in: keepID, claimed: claimed, writer: writer) {
                    claimed.insert(match.transaction.id)
                    var kept = match.transaction
                    if stored.transaction.isEarlier(than: kept) {
                        // The day it happened is the earliest day any source gives it (docs/dedupe.md).
                        if kept.postedDate == nil { kept.postedDate = kept.transactionDate }
                        kept.takeDate(of: stored.transaction)
                        try writer.update(kept, keys: match.keys, valuesFromStatement: false)
                        report.redated += 1
                    }
                    if match.keys.externalID == nil, stored.keys.externalID != nil {
                        try writer.setKeys(DedupeKeys(externalID: stored.keys.externalID, fingerprint: match.keys.fingerprint,
                                                      occurrence: match.keys.occurrence), forTransaction: match.transaction.id)
                    }
                    try writer.delete(stored, tombstone: false)
                    // The other source's keys now name the kept row: its next import finds it, not a new one.
                    try writer.retireKeys(stored.keys, ofTransaction: match.transaction.id, accountID: keepID)
                    report.matched += 1
                } else {
                    try writer.move(stored, to: keepID)
                    claimed.insert(stored.transaction.id)
                    report.moved += 1
                }
            }
            report.balancesMoved = try writer.moveBalances(from: otherID, to: keepID)
            try writer.copyTombstones(from: otherID, to: keepID)
            try writer.carryOccurrenceMark(from: otherID, to: keepID)
            try writer.moveStatementPeriods(from: otherID, to: keepID)
            report.aliases = try writer.absorbIdentities(of: otherID, into: keepID)
            try writer.deleteAccount(otherID)
            try writer.finishImport(unchanged: report.matched)
            return report
        }
    }

    /// The row of `keep` that `stored` (a row of the other account) is, if any.
    static func linkMatch(_ stored: StoredTransaction, in keepID: UUID, claimed: Set<UUID>,
                          writer: StoreWriter) throws -> StoredTransaction? {
        let t = stored.transaction
        if let id = stored.keys.externalID, let same = try writer.transaction(accountID: keepID, externalID: id),
           !claimed.contains(same.transaction.id) {
            return same
        }
        let day = t.localDay
        let candidates = try writer.transactions(accountID: keepID, fromDay: day - Matcher.crossSourceDays,
                                                 throughDay: day + Matcher.crossSourceDays,
                                                 amount: t.transactionAmount.amount, indicator: t.creditDebitIndicator)
        return Matcher.bestAgreeing(candidates, with: t, claimed: claimed) { c in
            // Both carrying their institution's id in one namespace: the ids decided above, and differ.
            guard let a = stored.keys.externalID, let b = c.keys.externalID else { return true }
            return Self.namespace(a) != Self.namespace(b)
        }
    }

    /// `ofx`, `camt`, `csv:<profile>`, or "" for a bare id stored before namespaces.
    static func namespace(_ id: String) -> String {
        let parts = id.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count > 1 else { return "" }
        return parts[0] == "csv" && parts.count > 2 ? "csv:" + parts[1] : String(parts[0])
    }
}
