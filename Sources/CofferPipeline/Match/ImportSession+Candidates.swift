import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// Finding the stored row an incoming record is, for `ImportSession`, from the highest fidelity down
/// (docs/dedupe.md): its id in this file's namespace or, for stores from before namespaces, the bare id; the parts
/// an earlier version stored for a batch now kept whole; its fingerprint under the per-file occurrence numbering
/// of earlier versions; a re-issued id; the pending row it books; the same transaction from another source.
extension ImportSession {
    /// The stored transaction with the institution's id `id` (as the file says it) in this file's namespace, or
    /// one stored before ids had namespaces under the bare id.
    func stored(byID id: String, account: Account) throws -> StoredTransaction? {
        let namespaced = idNamespace.isEmpty ? id : idNamespace + ":" + id
        if let hit = try writer.transaction(accountID: account.id, externalID: namespaced) { return hit }
        guard !idNamespace.isEmpty, let legacy = try writer.transaction(accountID: account.id, externalID: id) else { return nil }
        try adopt(legacy, as: namespaced)
        return try writer.transaction(accountID: account.id, externalID: namespaced)
    }

    /// A row a version before 2026-11 stored under its file-wide occurrence number (see `TransactionPreparer`),
    /// when no row holds this record's own.
    func legacyOccurrenceMatch(_ prepared: PreparedTransaction, account: Account) throws -> StoredTransaction? {
        guard prepared.legacyOccurrence != prepared.occurrence else { return nil }
        return try writer.transaction(accountID: account.id, fingerprint: prepared.fingerprint.key,
                                      occurrence: prepared.legacyOccurrence)
    }

    /// A row a version before 10-local-day stored under its UTC day's fingerprint (a time whose own day is another),
    /// when no row holds this record's own key.
    func legacyKeyMatch(_ prepared: PreparedTransaction, account: Account) throws -> StoredTransaction? {
        guard let legacy = prepared.fingerprint.legacyKey else { return nil }
        return try writer.transaction(accountID: account.id, fingerprint: legacy, occurrence: prepared.occurrence)
    }

    /// A stored row of this namespace that an incoming record with a new id repeats (same day, or posted that day,
    /// amount, direction and currency, texts that agree: the stored text may be another source's that lent it this
    /// namespace's id),
    /// which no record of this file has matched or inserted: the institution re-issued its id (docs/dedupe.md).
    /// A genuinely new row has no such twin and is inserted.
    func reissueMatch(_ incoming: Transaction, externalID: String, account: Account) throws -> StoredTransaction? {
        // Only a statement that states its period (OFX DTSTART/DTEND, camt FrToDt) says it lists every row of a
        // day; a CSV export's rows may be a part of one (its second coffee of a day is a new coffee).
        let day = incoming.localDay
        guard !idNamespace.isEmpty, let start = header?.periodStart?.localDay, let end = header?.periodEnd?.localDay,
              day >= start - 1, day <= end + 1
        else { return nil }
        let prefix = idNamespace + ":"
        // A row that was pending is dated by the day it was authorized and posted on the day this source gives (a
        // posting date keeps no offset: its UTC day may be a day off the local one).
        return try writer.transactions(accountID: account.id, fromDay: day - postingReach, throughDay: day,
                                       amount: incoming.transactionAmount.amount, indicator: incoming.creditDebitIndicator)
            .first { c in
                guard c.transaction.localDay == day
                        || c.transaction.postedDate.map({ abs(CalendarDay.dayNumber($0) - day) <= 1 }) == true,
                      let id = c.keys.externalID, id.hasPrefix(prefix), id != externalID, !idsMatched.contains(id),
                      !claimed.contains(c.transaction.id) else { return false }
                return c.transaction.transactionAmount.currencyCode == incoming.transactionAmount.currencyCode
                    && TextSimilarity.score(c.transaction, incoming) >= TextSimilarity.agreeing
            }
    }

    /// The id as the file says it, without this file's namespace.
    func bare(_ namespaced: String) -> String {
        let prefix = idNamespace + ":"
        return !idNamespace.isEmpty && namespaced.hasPrefix(prefix) ? String(namespaced.dropFirst(prefix.count)) : namespaced
    }

    /// The id match of an incoming record: its namespaced id, else (stores from before namespaces) its bare id,
    /// which is then given the namespace.
    func idMatch(_ externalID: String, raw: RawTransaction, incoming: Transaction, prepared: PreparedTransaction,
                         account: Account) throws -> (id: UUID, unchanged: Bool)? {
        if let match = try writer.externalIDMatch(accountID: account.id, externalID: externalID, comparedWith: incoming,
                                                  amounts: prepared.amounts) { return match }
        guard !idNamespace.isEmpty, let bare = raw.externalID, !bare.isEmpty,
              let legacy = try writer.transaction(accountID: account.id, externalID: bare) else { return nil }
        try adopt(legacy, as: externalID)
        return try writer.externalIDMatch(accountID: account.id, externalID: externalID, comparedWith: incoming,
                                          amounts: prepared.amounts)
    }

    /// Gives a row stored under a bare id (before namespaces) its namespaced id; its content keys stay.
    func adopt(_ legacy: StoredTransaction, as namespaced: String) throws {
        try writer.setKeys(DedupeKeys(externalID: namespaced, fingerprint: legacy.keys.fingerprint,
                                      occurrence: legacy.keys.occurrence), forTransaction: legacy.transaction.id)
    }

    /// The parts an earlier version stored for a batch now kept whole, when every one is there as it stored it:
    /// same id, amount and direction, on the same day. Anything less is not that batch.
    func storedParts(_ parts: [RawFormerPart], of whole: Transaction, account: Account) throws -> [Transaction]? {
        var found: [Transaction] = []
        let day = whole.localDay
        for part in parts {
            guard let stored = try stored(byID: part.externalID, account: account)?.transaction,
                  stored.transactionAmount.amount == part.amount, stored.creditDebitIndicator == part.indicator,
                  stored.localDay == day else { return nil }
            found.append(stored)
        }
        return found
    }

    func pendingMatch(for booked: Transaction, account: Account) throws -> StoredTransaction? {
        // Local days: the pending row is dated on or up to 10 days before the booked one (or its posting day).
        let day = booked.localDay
        let through = max(day, booked.postedDate.map(CalendarDay.dayNumber) ?? day)
        let amount = booked.transactionAmount.amount
        let candidates = try writer.openTransactions(accountID: account.id, fromDay: day - Self.pendingDays,
                                                     throughDay: through).filter { c in
            let t = c.transaction
            // A row this file lists otherwise is not this one: one statement lists a transaction pending or booked.
            guard !claimed.contains(t.id), !listedRows.contains(t.id), t.creditDebitIndicator == booked.creditDebitIndicator,
                  t.transactionAmount.currencyCode == booked.transactionAmount.currencyCode else { return false }
            let pendingAmount = t.transactionAmount.amount
            return amount >= pendingAmount && amount <= pendingAmount * Decimal(string: "1.2")!
        }
        let scored = candidates.map { c -> (StoredTransaction, Double) in
            (c, TextSimilarity.score(c.transaction, booked))
        }.filter { $0.1 >= 0.5 || $0.0.transaction.transactionAmount.amount == amount && $0.1 >= 0.2 }
        return scored.max { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            return a.0.transaction.isEarlier(than: b.0.transaction)
        }?.0
    }

    /// The booked row an incoming pending record is an older listing of (docs/dedupe.md): `pendingMatch` seen from
    /// the other side, for a statement that lists a row pending arriving after one that lists it booked. Same
    /// direction and currency, the booked amount equal or up to 20% more (a tip), the booked row dated on or up to
    /// 10 days after the pending day (or booked then, and dated earlier since by another listing), texts that agree
    /// as `pendingMatch` asks; never a row this file lists otherwise. The closest text wins, then the earliest row.
    func bookedMatch(for pending: Transaction, account: Account) throws -> StoredTransaction? {
        let day = pending.localDay
        let amount = pending.transactionAmount.amount
        let most = amount * Decimal(string: "1.2")!
        let candidates = try writer.bookedTransactions(accountID: account.id, fromDay: day - Self.pendingDays,
                                                       throughDay: day + Self.pendingDays, amounts: amount...most,
                                                       indicator: pending.creditDebitIndicator).filter { c in
            let t = c.transaction
            guard !claimed.contains(t.id), !listedRows.contains(t.id),
                  t.transactionAmount.currencyCode == pending.transactionAmount.currencyCode,
                  t.transactionAmount.amount >= amount, t.transactionAmount.amount <= most else { return false }
            let booked = max(t.localDay, t.postedDate.map(CalendarDay.dayNumber) ?? t.localDay)
            return day >= t.localDay - Self.pendingDays && day <= booked
        }
        let scored = candidates.map { c -> (StoredTransaction, Double) in
            (c, TextSimilarity.score(c.transaction, pending))
        }.filter { $0.1 >= 0.5 || $0.0.transaction.transactionAmount.amount == amount && $0.1 >= 0.2 }
        return scored.max { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            return b.0.transaction.isEarlier(than: a.0.transaction)
        }?.0
    }

    /// The same transaction seen through another source (docs/dedupe.md): same amount, direction and currency,
    /// on local days within `crossSourceDays` of each other (sources disagree on the day: a posting date), and
    /// texts that agree (`TextSimilarity.agreeing`). A stored row that was pending is dated by the day it was
    /// authorized and keeps the day it booked as its posting date: either day may be the one another source gives.
    /// Another source means another id namespace, one side without an id, or two sources without ids (the row keeps
    /// its source). The closest text wins, then the closest day, then the closest instant.
    func crossSourceMatch(for incoming: Transaction, externalID: String?, account: Account) throws -> StoredTransaction? {
        let day = incoming.localDay
        // A row's posting day is at most `pendingDays` after its date (a pending row that booked).
        let candidates = try writer.transactions(accountID: account.id, fromDay: day - Self.crossSourceDays - postingReach,
                                                 throughDay: day + Self.crossSourceDays,
                                                 amount: incoming.transactionAmount.amount, indicator: incoming.creditDebitIndicator)
        let prefix = idNamespace + ":"
        return Self.bestAgreeing(candidates, with: incoming, claimed: claimed) { c in
            switch (externalID, c.keys.externalID) {
            case (nil, nil):
                // Two records without ids: their fingerprints decide, unless the stored one came from another
                // source (a camt.052 report's pending entry, a CSV export's row).
                return !idNamespace.isEmpty && c.source != nil && c.source != idNamespace
            case (nil, _?), (_?, nil): return true
            case (_?, let stored?): return idNamespace.isEmpty || !stored.hasPrefix(prefix)
            }
        }
    }

    /// Of the stored candidates (same amount and direction) that `isOtherSource` admits, unclaimed, in the
    /// record's currency, dated (or posted) within `crossSourceDays` of it and with agreeing text: the closest
    /// text, then the closest day, then the closest instant. The import's cross-source rule, and the one
    /// `coffer accounts link` matches two accounts' rows with.
    static func bestAgreeing(_ candidates: [StoredTransaction], with incoming: Transaction, claimed: Set<UUID>,
                             isOtherSource: (StoredTransaction) -> Bool) -> StoredTransaction? {
        let day = incoming.localDay
        let scored = candidates.compactMap { c -> (StoredTransaction, Double, Int, TimeInterval)? in
            let distance = min(abs(c.transaction.localDay - day),
                               c.transaction.postedDate.map { abs(CalendarDay.dayNumber($0) - day) } ?? Int.max)
            guard distance <= crossSourceDays, !claimed.contains(c.transaction.id),
                  c.transaction.transactionAmount.currencyCode == incoming.transactionAmount.currencyCode,
                  isOtherSource(c) else { return nil }
            let score = TextSimilarity.score(c.transaction, incoming)
            guard score >= TextSimilarity.agreeing else { return nil }
            return (c, score, distance, abs(c.transaction.transactionDate.timeIntervalSince(incoming.transactionDate)))
        }
        return scored.max { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            if a.2 != b.2 { return a.2 > b.2 }
            return a.3 > b.3
        }?.0
    }

    /// How many days apart two sources may date one transaction.
    static let crossSourceDays = 3
    /// How many days after a pending row its booked record may be dated.
    static let pendingDays = 10
    /// How long after a pending row a statement that lists no pending rows must end to say the row is gone.
    static let postingDays = 10
}

extension Transaction {
    /// Earlier as the earliest-date rule compares dates (docs/dedupe.md): by local day, then by instant, then a
    /// date-only value (or one stored before offsets were kept) before a time, then the smaller offset; a total
    /// order, so the date kept does not depend on which listing came first.
    func isEarlier(than other: Transaction) -> Bool {
        let (day, otherDay) = (localDay, other.localDay)
        if day != otherDay { return day < otherDay }
        if transactionDate != other.transactionDate { return transactionDate < other.transactionDate }
        return (timeZoneOffset ?? Int.min) < (other.timeZoneOffset ?? Int.min)
    }

    /// Takes the other's date: its instant and the offset it was given in.
    mutating func takeDate(of other: Transaction) {
        transactionDate = other.transactionDate
        timeZoneOffset = other.timeZoneOffset
    }
}
