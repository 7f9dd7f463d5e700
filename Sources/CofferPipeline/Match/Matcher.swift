import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// The match/dedupe policy of docs/dedupe.md as a function: an incoming record and the stored candidates in, a
/// `MatchDecision` out. It writes nothing; `ImportSession` applies its decisions and tells it what was applied
/// (`record`), since what a file has matched so far is part of the input (two records never claim one row).
///
/// For every record, highest fidelity first:
/// 1. an institution correction (`CORRECTFITID`) replaces or deletes its target;
/// 2. the institution's id in this file's namespace: same values → unchanged, changed → update (same `id`);
/// 3. for records without the institution's id, the content fingerprint with its occurrence number (the 2nd
///    identical coffee of a day is occurrence 2); records that carry ids are matched by them alone;
/// 4. keys deleted before (a tombstone) are not stored again;
/// 5. a new id whose content repeats a row of the same namespace that the statement's period covers: a re-issued id;
/// 6. a booked record that matches a stored pending one (same account and direction, amount equal or up to 20%
///    more for tips, dated on or up to 10 days after it, similar text) books the pending one in place; a pending
///    record that matches a stored booked one the same way (an older statement arriving later) only dates it earlier;
/// 7. a record from a different source (another id namespace, one side without an id, or two sources without ids)
///    with the same amount and direction, dated within 3 days of the stored one's date or posting day, with agreeing
///    text, is the same transaction: nothing new, and the id is kept on the stored one;
/// 8. otherwise it is inserted; a pending record is not when a newer statement already recorded would have retired it.
/// A matched row takes the values of the newest statement that lists it; its date is the earliest any gives.
struct Matcher {
    // MARK: The statement (set when it begins)

    /// The namespace of this file's institution ids (`ofx`, `camt`, `csv:<profile>`); ids arrive prefixed with it.
    let namespace: String
    /// The local days the current statement says it covers (OFX DTSTART/DTEND, camt FrToDt), if it says.
    var period: ClosedRange<Int>?
    /// The current statement's as-of time in ms (nil: not known while it is read).
    var statementAsOf: Int64?
    /// What the account held before this statement (see `StoreWriter.facts`).
    var facts = StoreWriter.AccountFacts(hasTransactions: false, hasExternalIDs: false,
                                         hasRecordsWithoutExternalID: false, hasOpenTransactions: false)
    /// The account holds ids of another source (or from before namespaces): cross-source matching may find them.
    var idsOutsideNamespace = false
    /// The latest local day the account held rows on when the statement began (nil: none). A row dated later than
    /// that (plus the cross-source window and the posting days a stored row may be found by) can be neither a
    /// re-issue of a stored row nor another source's record of one: the look-ups are skipped (the new days of an
    /// overlapping download: ~50% of its CPU otherwise).
    var latestStoredDay: Int?
    /// How many days before a record's day a stored row posted on that day may be dated: `pendingDays` when the
    /// account holds a row posted a day or more after its date (a pending row that booked), else 1 (a posting
    /// date's UTC day). At 500 rows a day, the 11-day reach cost an overlapping download 2.2x.
    var postingReach = 1
    /// Whether any tombstone may apply (the store holds one, or this file retired keys).
    var checkTombstones: Bool

    // MARK: What this file matched so far

    /// Stored transactions claimed by a fuzzy match in this file, so two records never claim one.
    var claimed: Set<UUID> = []
    /// Stored rows this file matched by an institution id.
    var matchedRows: Set<UUID> = []
    /// Rows this file matched by id or content, or inserted: a pending record of the file is none of them, and no
    /// record of the file is a re-issued id of one. (A set of row ids, not of the ids they carry: one insert a row.)
    var listedRows: Set<UUID> = []

    init(namespace: String, checkTombstones: Bool) {
        self.namespace = namespace
        self.checkTombstones = checkTombstones
    }

    /// How many days apart two sources may date one transaction.
    static let crossSourceDays = 3
    /// How many days after a pending row its booked record may be dated.
    static let pendingDays = 10
    /// How long after a pending row a statement that lists no pending rows must end to say the row is gone.
    static let postingDays = 10

    // MARK: Deciding

    /// The decision for one record of the current statement; `idless` answers whether the account holds records
    /// without ids of another source (asked only when needed).
    func decide(_ prepared: PreparedTransaction, in store: some MatchCandidates) throws -> MatchDecision {
        let raw = prepared.raw
        let incoming = prepared.transaction
        let externalID = prepared.externalID
        let keys = DedupeKeys(externalID: externalID, fingerprint: prepared.fingerprint.key, occurrence: prepared.occurrence)
        if let correction = raw.correction { return try correct(correction, incoming, keys: keys, in: store) }

        // Records of an account that held nothing before this statement can only match each other, and their
        // (fingerprint, occurrence) keys are unique within the file: skip the look-ups (the common bulk case).
        let fresh = !facts.hasTransactions && !prepared.repeatedID
        if !fresh, let decision = try matchStored(prepared, keys: keys, in: store) { return decision }
        if checkTombstones, let decision = try deletedBefore(prepared, in: store) { return decision }

        // (A repeated id is compared with this file's own rows too: no skipping for it.)
        // A stored row is found by its posting day too, which may be up to `postingDays` after its date.
        let reach = Self.crossSourceDays + Self.postingDays
        let beyondStored = !prepared.repeatedID && (latestStoredDay.map { incoming.localDay > $0 + reach } ?? true)
        if let externalID, !fresh, !beyondStored, let stored = try reissueMatch(incoming, externalID: externalID, in: store) {
            // The bank re-issued its id for a row already stored: the new id is the row's now, the old one retired
            // (so the older download is still recognised), and the statement says so once.
            // Then it is that row listed again, reconciled with it like any listing of its id.
            var d = MatchDecision(.reissuedID)
            var rekeyed = stored
            rekeyed.keys = DedupeKeys(externalID: externalID, fingerprint: stored.keys.fingerprint,
                                      occurrence: stored.keys.occurrence)
            d.retired = (stored.transaction.id, DedupeKeys(externalID: stored.keys.externalID))
            d.rekeys = [(stored.transaction.id, rekeyed.keys)]
            d.claimed = stored.transaction.id
            return try reconcile(rekeyed, with: incoming, keys: rekeyed.keys, into: d, in: store)
        }
        if !fresh, incoming.isOpen, let booked = try bookedMatch(for: incoming, in: store) {
            // An older listing of a row stored booked: its values stay the booked ones; it may date the row earlier.
            var d = MatchDecision(.olderPendingListing)
            d.claimed = booked.transaction.id
            d.listedRow = booked.transaction.id
            return dateOnly(booked, by: incoming, listing: incoming, keepPostingDay: true, into: d)
        }
        if incoming.status == .booked, facts.hasOpenTransactions, let pending = try pendingMatch(for: incoming, in: store) {
            var booked = incoming
            booked.id = pending.transaction.id
            if booked.postedDate == nil { booked.postedDate = booked.transactionDate }
            // Keep when it took place as the pending record said it; the booked record gives the posting date.
            if pending.transaction.isEarlier(than: booked) { booked.takeDate(of: pending.transaction) }
            var d = MatchDecision(.pendingBooked, .update(booked, keys, valuesFromStatement: true))
            d.retired = (pending.transaction.id, pending.keys)
            d.claimed = pending.transaction.id
            d.seenOpen = [pending.transaction.id]
            return d
        }
        // Another source of the same account words records differently; only worth a look when the account
        // holds records of the other kind (with an institution id vs without), or for a repeated id.
        let otherKind = externalID == nil
            ? try facts.hasExternalIDs || prepared.repeatedID
                || (!namespace.isEmpty && facts.hasRecordsWithoutExternalID && store.hasIdlessRows(outside: namespace))
            : facts.hasRecordsWithoutExternalID || idsOutsideNamespace
        if otherKind, !beyondStored, let other = try crossSourceMatch(for: incoming, externalID: externalID, in: store) {
            return try otherSource(other, incoming, externalID: externalID, in: store)
        }
        if incoming.isOpen { return MatchDecision(.newPending, .insertPending(incoming, keys)) }
        return MatchDecision(.new, .insert(incoming, keys))
    }

    /// Rules 2–3 and the shapes earlier versions stored: the stored row this record is by its id or its content
    /// keys, reconciled with it.
    private func matchStored(_ prepared: PreparedTransaction, keys: DedupeKeys,
                             in store: some MatchCandidates) throws -> MatchDecision? {
        let raw = prepared.raw
        let incoming = prepared.transaction
        let externalID = prepared.externalID
        if let externalID {
            // By the namespaced id; in a store from before namespaces, by the bare id, and the row takes the
            // namespaced one.
            var legacy = false
            var found = try store.idMatch(externalID, comparedWith: incoming, amounts: prepared.amounts)
            if found == nil, !namespace.isEmpty, let bare = raw.externalID, !bare.isEmpty {
                found = try store.idMatch(bare, comparedWith: incoming, amounts: prepared.amounts)
                legacy = found != nil
            }
            if let match = found {
                var d = MatchDecision(.institutionID)
                    d.matchedByID = match.id
                d.listedRow = match.id
                var stored = legacy || !match.unchanged ? try store.row(id: match.id) : nil
                if legacy, stored != nil {
                    stored!.keys.externalID = externalID
                    d.rekeys = [(match.id, stored!.keys)]
                }
                guard !match.unchanged, let stored else {
                    if incoming.isOpen { d.seenOpen = [match.id] }
                    d.listed = .init(id: match.id, date: incoming.transactionDate, offset: incoming.timeZoneOffset,
                                     sameSource: true)
                    return d
                }
                return try reconcile(stored, with: incoming, keys: keys, into: d, in: store)
            }
        }
        if !raw.formerParts.isEmpty, let parts = try storedParts(raw.formerParts, of: incoming, in: store) {
            // A batch an earlier version stored as its parts: it is there already.
            var d = MatchDecision(.storedParts)
            d.rekeys = parts.compactMap { part in part.adopted.map { ($0.transaction.id, $0.keys) } }
            d.listedParts = parts.map { part in
                .init(id: part.row.transaction.id, date: part.row.transaction.transactionDate,
                      offset: part.row.transaction.timeZoneOffset, sameSource: true)
            }
            d.seenOpen = parts.filter(\.row.transaction.isOpen).map(\.row.transaction.id)
            return d
        }
        let fingerprint = prepared.fingerprint
        var byContent = try store.row(fingerprint: fingerprint.key, occurrence: prepared.occurrence)
        if byContent == nil, prepared.legacyOccurrence != prepared.occurrence {
            // A row a version before 2026-11 stored under its file-wide occurrence number (`TransactionPreparer`).
            byContent = try store.row(fingerprint: fingerprint.key, occurrence: prepared.legacyOccurrence)
        }
        if byContent == nil, let legacy = fingerprint.legacyKey {
            // A row a version before 10-local-day stored under its UTC day's fingerprint.
            byContent = try store.row(fingerprint: legacy, occurrence: prepared.occurrence)
        }
        if let stored = byContent {
            let matchedKeys = DedupeKeys(externalID: externalID ?? stored.keys.externalID, fingerprint: keys.fingerprint,
                                         occurrence: keys.occurrence)
            return try reconcile(stored, with: incoming, keys: matchedKeys, into: MatchDecision(.fingerprint), in: store)
        }
        if let former = raw.formerAmount, externalID == nil {
            // An earlier version stored this row with another amount (before the fee was netted): that row, corrected.
            var old = incoming
            old.transactionAmount = CurrencyAmount(amount: former.amount.magnitude,
                                                   currencyCode: incoming.transactionAmount.currencyCode)
            old.creditDebitIndicator = former.indicator ?? (former.amount < 0 ? .debit : .credit)
            if let stored = try store.row(fingerprint: Fingerprint(transaction: old).key, occurrence: prepared.occurrence) {
                return try reconcile(stored, with: incoming, keys: keys, into: MatchDecision(.formerAmount), in: store)
            }
        }
        return nil
    }

    /// Rule 4: keys deleted before are not stored again (a pending row a statement retired is, when this statement
    /// is newer than the retiring one); a retired id whose row lives on (booked from pending, or
    /// re-keyed by a re-issue) means this file lists that row (undo keeps it while this import stands).
    private func deletedBefore(_ prepared: PreparedTransaction, in store: some MatchCandidates) throws -> MatchDecision? {
        let externalID = prepared.externalID
        var deleted = try (externalID.map { id in
            try store.isDeleted(externalID: id, asOf: statementAsOf)
                || (prepared.raw.externalID.map { try store.isDeleted(externalID: $0, asOf: statementAsOf) } ?? false)
        } ?? false)
        if deleted, let externalID, let owner = try store.retiredOwner(externalID: externalID), matchedRows.contains(owner) {
            // The id was retired for a re-issued one, and this file lists both: two transactions after all.
            deleted = false
        } else if !deleted {
            deleted = try store.isDeleted(fingerprint: prepared.fingerprint.key, occurrence: prepared.occurrence, asOf: statementAsOf)
            if !deleted, let legacy = prepared.fingerprint.legacyKey {
                deleted = try store.isDeleted(fingerprint: legacy, occurrence: prepared.occurrence, asOf: statementAsOf)
            }
        }
        guard deleted else { return nil }
        var d = MatchDecision(.deletedBefore)
        if let externalID, let owner = try store.retiredOwner(externalID: externalID), try store.row(id: owner) != nil {
            d.listed = .init(id: owner, date: prepared.transaction.transactionDate, offset: prepared.transaction.timeZoneOffset,
                             sameSource: true)
        }
        return d
    }

    /// Rule 7's outcome: the stored row takes the id when it had none, the earlier date, and the other source's
    /// text when its statement is the newer (`textRule`).
    private func otherSource(_ other: StoredTransaction, _ incoming: Transaction, externalID: String?,
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

    /// Rule 1: an institution correction of the row it names.
    private func correct(_ correction: RawCorrection, _ incoming: Transaction, keys: DedupeKeys,
                         in store: some MatchCandidates) throws -> MatchDecision {
        guard let target = try stored(byID: correction.targetID, in: store) else {
            if correction.action == .replace, try keys.externalID.map({ try stored(byID: bare($0), in: store) }) ?? nil == nil {
                return MatchDecision(.correction, .insert(incoming, keys))
            }
            return MatchDecision(.correction)
        }
        var d = MatchDecision(.correction)
        if let adopted = target.adopted { d.rekeys = [(adopted.transaction.id, adopted.keys)] }
        switch correction.action {
        case .delete:
            d.outcome = .delete(target.row)
        case .replace:
            var replaced = incoming
            replaced.id = target.row.transaction.id
            d.outcome = .update(replaced, keys, valuesFromStatement: true)
        }
        return d
    }

    // MARK: After a decision is applied

    /// Notes what the session applied, so later records of the file see it.
    mutating func record(_ d: MatchDecision) {
        if let id = d.claimed { claimed.insert(id) }
        if let id = d.matchedByID { matchedRows.insert(id) }
        if let id = d.listedRow { listedRows.insert(id) }
        if d.rule == .reissuedID { checkTombstones = true }
        if d.rule == .pendingBooked { postingReach = Self.pendingDays }
    }

    /// Notes a row the session inserted.
    mutating func recordInsert(_ inserted: Transaction, externalID: String?) {
        listedRows.insert(inserted.id)  // a twin later in the file is no re-issue of it
        if postingReach < Self.pendingDays, let posted = inserted.postedDate,
           posted.timeIntervalSince(inserted.transactionDate) >= 86_400 {
            postingReach = Self.pendingDays  // as `hasRowsPostedLater` would now say, for this file's later statements
        }
        if inserted.isOpen { facts.hasOpenTransactions = true }
    }

    /// Whether a statement retires an open row it covers and does not list (docs/dedupe.md): only one newer than
    /// every statement that listed the row, and only one that lists pending rows or whose period ends long enough
    /// after the row for it to have posted.
    static func retires(_ row: Transaction, listedAsOf: Date?, asOf: Date, throughDay: Int, listsPending: Bool) -> Bool {
        if let listedAsOf, listedAsOf >= asOf { return false }
        return listsPending || throughDay - row.localDay >= postingDays
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
