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
    /// Rows this file matched by id or content, or inserted: a pending record of the file is none of them, and no
    /// record of the file is a re-issued id of one (a set of row ids, not of the ids they carry: one insert a row);
    /// and of those, the stored rows it matched by an institution id.
    var listedRows = RowIDSet()
    /// Whether this file stored rows with an institution id, and rows without one: a row of this file can be
    /// another record's cross-source match only when one of the two has an id and the other none.
    var storedRowsWithID = false, storedRowsWithoutID = false

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
        if deleted, let externalID, let owner = try store.retiredOwner(externalID: externalID), listedRows.containsMatched(owner) {
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
        assert(d.matchedByID == nil || d.matchedByID == d.listedRow, "a row matched by id is the listed row")
        if let id = d.listedRow { listedRows.insert(id, matchedByID: id == d.matchedByID) }
        if d.rule == .reissuedID { checkTombstones = true }
        if d.rule == .pendingBooked { postingReach = Self.pendingDays }
    }

    /// Notes a row the session inserted.
    mutating func recordInsert(_ inserted: Transaction, externalID: String?) {
        listedRows.insert(inserted.id)  // a twin later in the file is no re-issue of it
        if externalID == nil { storedRowsWithoutID = true } else { storedRowsWithID = true }
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

/// Row ids as digests, each with a flag: whether the row was matched by an institution id. One table for what
/// were two sets of a million ids each in a `--force` import of a million rows (16 MB less, and half a `Set<UUID>`'s
/// memory before that). Two of a file's rows share a digest (62 bits) with a probability of about n²/2^63 (one in
/// ten million for a million rows); the later row is then taken as listed (or matched) too: a record of the file
/// would not match it and would be stored beside it.
struct RowIDSet {
    /// The digests are UUIDs' bits folded, as good as hashes: `HashSet64` spreads them without hashing them again.
    /// Bit 1 is always set (no digest is 0 or 1) and bit 0 is the flag.
    private var digests = HashSet64()

    private static func digest(_ id: UUID) -> UInt64 {
        let folded = withUnsafeBytes(of: id.uuid) { bytes in
            bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
                ^ (bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) &* 0x9E37_79B9_7F4A_7C15)
        }
        return folded & ~3 | 2
    }

    /// Adds row `id`; a row once matched by id stays so.
    mutating func insert(_ id: UUID, matchedByID: Bool = false) {
        digests.insertFlagged(Self.digest(id) | (matchedByID ? 1 : 0))
    }
    func contains(_ id: UUID) -> Bool { digests.flagged(Self.digest(id)) != nil }
    /// Whether row `id` is in the set as matched by an institution id.
    func containsMatched(_ id: UUID) -> Bool { (digests.flagged(Self.digest(id)) ?? 0) & 1 == 1 }
}
