import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// How a matched row is reconciled with a listing (docs/dedupe.md, "Values"): the newest statement's values, the
/// earliest date any source gives, and across sources the newest statement's words.
extension Matcher {
    /// Rule 7's outcome: the stored row takes the id when it had none, the earlier date, and the other source's
    /// text when its statement is the newer (`textRule`).
    func otherSource(_ other: StoredTransaction, _ incoming: Transaction, externalID: String?,
                     in store: some MatchCandidates) throws -> MatchDecision {
        var d = MatchDecision(.otherSource)
        if other.keys.externalID == nil, externalID != nil {
            d.rekeys = [(other.transaction.id, DedupeKeys(externalID: externalID, fingerprint: other.keys.fingerprint,
                                                          occurrence: other.keys.occurrence))]
        }
        d.claimed = other.transaction.id
        if other.transaction.isOpen { d.seenOpen = [other.transaction.id] }
        var updated = other.transaction
        var texts = false
        switch try textRule(incoming, row: other, in: store) {
        case .take:
            updated.takeText(of: incoming)
            texts = true
        case .restamp:
            texts = true
            d.restamp = other.transaction.id
        case .keep: break
        case .deferred: d.deferredText = (other.transaction.id, incoming)
        }
        if incoming.isEarlier(than: other.transaction) {
            // The day it happened is the earliest day any source gives it (docs/dedupe.md).
            updated.takeDate(of: incoming)
            if updated.postedDate == nil { updated.postedDate = other.transaction.transactionDate }
        }
        guard updated == other.transaction else {
            d.outcome = .update(updated, DedupeKeys(externalID: other.keys.externalID ?? externalID,
                                                    fingerprint: other.keys.fingerprint, occurrence: other.keys.occurrence),
                                valuesFromStatement: texts)
            d.restamp = nil
            return d
        }
        d.listed = .init(id: other.transaction.id, date: incoming.transactionDate, offset: incoming.timeZoneOffset,
                         sameSource: false)
        return d
    }

    enum TextRule {
        /// The listing's text replaces the row's.
        case take
        /// The same words, from a newer statement: the row's text is this source's now.
        case restamp
        case keep
        /// Decided when this statement's as-of time is known (`ImportSession.resolveDeferredTexts`).
        case deferred
    }

    /// What a listing does to the text of a row that carries another source's (docs/dedupe.md, "Values"): the
    /// newest statement's text wins; between equally old ones the greater text, so that the choice depends on the
    /// set of statements, not on their order. Deferred while this statement's as-of time is not known (a CSV export
    /// without `as_of`: its latest row's day, known at its end).
    func textRule(_ listing: Transaction, row: StoredTransaction, in store: some MatchCandidates) throws -> TextRule {
        guard let mine = statementAsOf else { return .deferred }
        let theirs = try store.textAsOf(row) ?? .min
        let newer = mine != theirs ? mine > theirs
            : row.transaction.textOrder.lexicographicallyPrecedes(listing.textOrder)
        guard newer else { return .keep }
        return listing.sameText(as: row.transaction) ? .restamp : .take
    }

    /// Same transaction, maybe evolved: an update when any value differs, from a statement no older than the one
    /// whose values the row carries.
    func reconcile(_ stored: StoredTransaction, with incoming: Transaction, keys: DedupeKeys, into base: MatchDecision,
                   in store: some MatchCandidates) throws -> MatchDecision {
        var d = base
        d.listedRow = stored.transaction.id
        var updated = incoming
        updated.id = stored.transaction.id
        if stored.transaction.timeZoneOffset == nil, updated.timeZoneOffset != nil,
           stored.transaction.transactionDate == updated.transactionDate {
            // A row stored before offsets were kept (dated by its UTC day), listed again with its offset: on its UTC
            // day it stays as it is; on another day it moves to its own day (an update, docs/dedupe.md "Upgrades").
            if stored.transaction.localDay == updated.localDay { updated.timeZoneOffset = nil }
        } else if !updated.isEarlier(than: stored.transaction) {
            // The day it happened is the earliest day any source gave it: a later listing never moves it later.
            updated.takeDate(of: stored.transaction)
        }
        // A listing without a posting date says nothing about it: a row that booked from pending keeps the day it
        // booked (other sources date it by that day), and re-importing the booked file changes nothing.
        if updated.postedDate == nil { updated.postedDate = stored.transaction.postedDate }
        if stored.transaction.isOpen { d.seenOpen = [stored.transaction.id] }
        var valuesFromStatement = true
        if !namespace.isEmpty, let source = stored.source, source != namespace {
            // The row carries another source's text (rule 7): this listing's text replaces it only by that rule, and
            // the row's values stay that source's unless it does.
            switch try textRule(updated, row: stored, in: store) {
            case .take: break
            case .restamp: d.restamp = stored.transaction.id
            case .keep:
                updated.takeText(of: stored.transaction)
                valuesFromStatement = false
            case .deferred:
                d.deferredText = (stored.transaction.id, updated)
                updated.takeText(of: stored.transaction)
                valuesFromStatement = false
            }
        }
        if updated == stored.transaction {
            if (stored.keys.externalID == nil && keys.externalID != nil)
                || (stored.keys.externalID == keys.externalID && stored.keys.occurrence != keys.occurrence) {
                d.rekeys.append((updated.id, keys))
            }
            d.listed = .init(id: updated.id, date: incoming.transactionDate, offset: incoming.timeZoneOffset, sameSource: true)
            return d
        }
        if let asOf = statementAsOf, let valuesAsOf = try store.valuesAsOf(stored.transaction.id), asOf < valuesAsOf {
            // An older statement than the one whose values the row carries (docs/dedupe.md): its amount, status and
            // text are history; it may only say the transaction happened earlier.
            return dateOnly(stored, by: updated, listing: incoming, keepPostingDay: false, into: d)
        }
        d.outcome = .update(updated, keys, valuesFromStatement: valuesFromStatement)
        if valuesFromStatement { d.restamp = nil }
        return d
    }

    /// A listing whose values are history (an older statement, a pending listing of a booked row): the row keeps
    /// them, and may only be dated earlier, by `dated` (the listing's date as the rule orders them); `listing` is
    /// what the statement said, noted for undo. With `keepPostingDay`, a row without a posting date keeps the day it
    /// had as one.
    func dateOnly(_ stored: StoredTransaction, by dated: Transaction, listing: Transaction, keepPostingDay: Bool,
                  into base: MatchDecision) -> MatchDecision {
        var d = base
        guard dated.isEarlier(than: stored.transaction) else {
            d.listed = .init(id: stored.transaction.id, date: listing.transactionDate, offset: listing.timeZoneOffset,
                             sameSource: false)
            return d
        }
        var earlier = stored.transaction
        earlier.takeDate(of: dated)
        if keepPostingDay, earlier.postedDate == nil { earlier.postedDate = stored.transaction.transactionDate }
        d.outcome = .update(earlier, stored.keys, valuesFromStatement: false)
        return d
    }
}

extension Transaction {
    /// Pending or authorized: a row a later statement may book or retire.
    var isOpen: Bool { status == .pending || status == .authorized }

    /// Earlier as the earliest-date rule compares dates (docs/dedupe.md): by local day, then by instant, then a
    /// date-only value (or one stored before offsets were kept) before a time, then the smaller offset; a total
    /// order, so the date kept does not depend on which listing came first.
    func isEarlier(than other: Transaction) -> Bool {
        let (day, otherDay) = (localDay, other.localDay)
        if day != otherDay { return day < otherDay }
        if transactionDate != other.transactionDate { return transactionDate < other.transactionDate }
        return (timeZoneOffset ?? Int.min) < (other.timeZoneOffset ?? Int.min)
    }

    /// Whether the texts are the same: the words, the merchant, its category code and the type read from them.
    func sameText(as other: Transaction) -> Bool {
        transactionDescription == other.transactionDescription
            && originalTransactionDescription == other.originalTransactionDescription
            && merchantName == other.merchantName && merchantCategoryCode == other.merchantCategoryCode
            && transactionType == other.transactionType
    }

    /// Takes the other's text: the words, the merchant, its category code and the type read from them.
    mutating func takeText(of other: Transaction) {
        transactionDescription = other.transactionDescription
        originalTransactionDescription = other.originalTransactionDescription
        merchantName = other.merchantName
        merchantCategoryCode = other.merchantCategoryCode
        transactionType = other.transactionType
    }

    /// An order of texts, to choose between two equally new sources' whatever their order of arrival.
    var textOrder: [String] {
        [originalTransactionDescription, transactionDescription, merchantName ?? "",
         merchantCategoryCode.map { String($0.rawValue) } ?? "", transactionType.name]
    }

    /// Takes the other's date: its instant and the offset it was given in.
    mutating func takeDate(of other: Transaction) {
        transactionDate = other.transactionDate
        timeZoneOffset = other.timeZoneOffset
    }
}
