import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// The candidates the matcher's fuzzy rules choose from (docs/dedupe.md): the row an id in this file's namespace
/// (or, in a store from before namespaces, the bare id) names; the parts an earlier version stored for a batch now
/// kept whole; a re-issued id; the pending row a booked record books, and the booked row a pending record is an older
/// listing of; the same transaction from another source.
extension Matcher {
    /// The stored transaction with the institution's id `id` (as the file says it) in this file's namespace, or
    /// one stored before ids had namespaces under the bare id (`adopted`: the keys it takes, the namespaced id).
    func stored(byID id: String, in store: some MatchCandidates) throws
        -> (row: StoredTransaction, adopted: StoredTransaction?)? {
        let namespaced = namespace.isEmpty ? id : namespace + ":" + id
        if let hit = try store.row(externalID: namespaced) { return (hit, nil) }
        guard !namespace.isEmpty, var legacy = try store.row(externalID: id) else { return nil }
        legacy.keys.externalID = namespaced
        return (legacy, legacy)
    }

    /// A stored row of this namespace that an incoming record with a new id repeats (same day, or posted that day,
    /// amount, direction and currency, texts that agree: the stored text may be another source's that lent it this
    /// namespace's id),
    /// which no record of this file has matched or inserted: the institution re-issued its id (docs/dedupe.md).
    /// A genuinely new row has no such twin and is inserted.
    func reissueMatch(_ incoming: Transaction, externalID: String, in store: some MatchCandidates) throws -> StoredTransaction? {
        // Only a statement that states its period (OFX DTSTART/DTEND, camt FrToDt) says it lists every row of a
        // day; a CSV export's rows may be a part of one (its second coffee of a day is a new coffee).
        let day = incoming.localDay
        guard !namespace.isEmpty, let period, day >= period.lowerBound - 1, day <= period.upperBound + 1 else { return nil }
        let prefix = namespace + ":"
        // A row that was pending is dated by the day it was authorized and posted on the day this source gives (a
        // posting date keeps no offset: its UTC day may be a day off the local one).
        // Only a row stored before this file qualifies (this file's rows are listed).
        return try store.priorRows(fromDay: day - postingReach, throughDay: day, amount: incoming.transactionAmount.amount,
                                   indicator: incoming.creditDebitIndicator)
            .first { c in
                guard c.transaction.localDay == day
                        || c.transaction.postedDate.map({ abs(CalendarDay.dayNumber($0) - day) <= 1 }) == true,
                      let id = c.keys.externalID, id.hasPrefix(prefix), id != externalID, !listedRows.contains(c.transaction.id),
                      !claimed.contains(c.transaction.id) else { return false }
                return c.transaction.transactionAmount.currencyCode == incoming.transactionAmount.currencyCode
                    && TextSimilarity.score(c.transaction, incoming) >= TextSimilarity.agreeing
            }
    }

    /// The id as the file says it, without this file's namespace.
    func bare(_ namespaced: String) -> String {
        let prefix = namespace + ":"
        return !namespace.isEmpty && namespaced.hasPrefix(prefix) ? String(namespaced.dropFirst(prefix.count)) : namespaced
    }

    /// The parts an earlier version stored for a batch now kept whole, when every one is there as it stored it:
    /// same id, amount and direction, on the same day. Anything less is not that batch.
    func storedParts(_ parts: [RawFormerPart], of whole: Transaction, in store: some MatchCandidates) throws
        -> [(row: StoredTransaction, adopted: StoredTransaction?)]? {
        var found: [(row: StoredTransaction, adopted: StoredTransaction?)] = []
        let day = whole.localDay
        for part in parts {
            guard let hit = try stored(byID: part.externalID, in: store) else { return nil }
            let stored = hit.row.transaction
            guard stored.transactionAmount.amount == part.amount, stored.creditDebitIndicator == part.indicator,
                  stored.localDay == day else { return nil }
            found.append(hit)
        }
        return found
    }

    /// The stored pending row a booked record books: same direction and currency, the booked amount equal or up to
    /// 20% more (a tip), the pending row dated on or up to 10 days before it (or its posting day), texts that agree
    /// (0.5, or 0.2 when the amounts are equal); never a row this file lists otherwise. The closest text wins, then
    /// the latest row (`closestCounterpart`).
    func pendingMatch(for booked: Transaction, in store: some MatchCandidates) throws -> StoredTransaction? {
        // Local days: the pending row is dated on or up to 10 days before the booked one (or its posting day).
        let day = booked.localDay
        let through = max(day, booked.postedDate.map(CalendarDay.dayNumber) ?? day)
        let amount = booked.transactionAmount.amount
        let candidates = try store.openRows(fromDay: day - Self.pendingDays, throughDay: through).filter { c in
            let t = c.transaction
            // A row this file lists otherwise is not this one: one statement lists a transaction pending or booked.
            guard !claimed.contains(t.id), !listedRows.contains(t.id), t.creditDebitIndicator == booked.creditDebitIndicator,
                  t.transactionAmount.currencyCode == booked.transactionAmount.currencyCode else { return false }
            let pendingAmount = t.transactionAmount.amount
            return amount >= pendingAmount && amount <= pendingAmount * Self.tipFactor
        }
        return Self.closestCounterpart(candidates, to: booked, earliestWins: false)
    }

    /// The booked row an incoming pending record is an older listing of (docs/dedupe.md): `pendingMatch` seen from
    /// the other side, for a statement that lists a row pending arriving after one that lists it booked. Same
    /// direction and currency, the booked amount equal or up to 20% more (a tip), the booked row dated on or up to
    /// 10 days after the pending day (or booked then, and dated earlier since by another listing), texts that agree
    /// as `pendingMatch` asks; never a row this file lists otherwise. The closest text wins, then the earliest row.
    func bookedMatch(for pending: Transaction, in store: some MatchCandidates) throws -> StoredTransaction? {
        let day = pending.localDay
        let amount = pending.transactionAmount.amount
        let most = amount * Self.tipFactor
        let candidates = try store.bookedRows(fromDay: day - Self.pendingDays, throughDay: day + Self.pendingDays,
                                              amounts: amount...most, indicator: pending.creditDebitIndicator).filter { c in
            let t = c.transaction
            guard !claimed.contains(t.id), !listedRows.contains(t.id),
                  t.transactionAmount.currencyCode == pending.transactionAmount.currencyCode,
                  t.transactionAmount.amount >= amount, t.transactionAmount.amount <= most else { return false }
            let booked = max(t.localDay, t.postedDate.map(CalendarDay.dayNumber) ?? t.localDay)
            return day >= t.localDay - Self.pendingDays && day <= booked
        }
        return Self.closestCounterpart(candidates, to: pending, earliestWins: true)
    }

    /// How much more a booked amount may be than its pending one (a tip of up to 20%).
    static let tipFactor = Decimal(string: "1.2")!

    /// Of a pending or booked record's counterpart candidates, those whose text agrees with it (0.5, or 0.2 when the
    /// amounts are equal): the closest text, then the earliest row (`earliestWins`) or the latest.
    static func closestCounterpart(_ candidates: [StoredTransaction], to record: Transaction,
                                   earliestWins: Bool) -> StoredTransaction? {
        let amount = record.transactionAmount.amount
        let scored = candidates.map { c -> (StoredTransaction, Double) in
            (c, TextSimilarity.score(c.transaction, record))
        }.filter { $0.1 >= 0.5 || $0.0.transaction.transactionAmount.amount == amount && $0.1 >= 0.2 }
        return scored.max { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            return earliestWins ? b.0.transaction.isEarlier(than: a.0.transaction)
                : a.0.transaction.isEarlier(than: b.0.transaction)
        }?.0
    }

    /// The same transaction seen through another source (docs/dedupe.md): same amount, direction and currency,
    /// on local days within `crossSourceDays` of each other (sources disagree on the day: a posting date), and
    /// texts that agree (`TextSimilarity.agreeing`). A stored row that was pending is dated by the day it was
    /// authorized and keeps the day it booked as its posting date: either day may be the one another source gives.
    /// Another source means another id namespace, one side without an id, or two sources without ids (the row keeps
    /// its source). The closest text wins, then the closest day, then the closest instant.
    func crossSourceMatch(for incoming: Transaction, externalID: String?, in store: some MatchCandidates) throws
        -> StoredTransaction? {
        let day = incoming.localDay
        // A row's posting day is at most `pendingDays` after its date (a pending row that booked).
        let from = day - Self.crossSourceDays - postingReach, through = day + Self.crossSourceDays
        // Rows of this file qualify only with an id where this record has none, or the other way round; otherwise
        // only rows stored before it (`priorRows`: no query when none of the amount is near).
        let ownRowsMay = externalID == nil ? storedRowsWithID : storedRowsWithoutID
        let candidates = ownRowsMay
            ? try store.rows(fromDay: from, throughDay: through, amount: incoming.transactionAmount.amount,
                             indicator: incoming.creditDebitIndicator)
            : try store.priorRows(fromDay: from, throughDay: through, amount: incoming.transactionAmount.amount,
                                  indicator: incoming.creditDebitIndicator)
        let prefix = namespace + ":"
        return Self.bestAgreeing(candidates, with: incoming, claimed: claimed) { c in
            switch (externalID, c.keys.externalID) {
            case (nil, nil):
                // Two records without ids: their fingerprints decide, unless the stored one came from another
                // source (a camt.052 report's pending entry, a CSV export's row).
                return !namespace.isEmpty && c.source != nil && c.source != namespace
            case (nil, _?), (_?, nil): return true
            case (_?, let stored?): return namespace.isEmpty || !stored.hasPrefix(prefix)
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
}
