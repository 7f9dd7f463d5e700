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

    /// A stored row of this namespace that an incoming record with a new id repeats (same day, amount, direction
    /// and currency, texts that agree: the stored text may be another source's that lent it this namespace's id),
    /// which no record of this file has matched or inserted: the institution re-issued its id (docs/dedupe.md).
    /// A genuinely new row has no such twin and is inserted.
    func reissueMatch(_ incoming: Transaction, externalID: String, account: Account) throws -> StoredTransaction? {
        // Only a statement that states its period (OFX DTSTART/DTEND, camt FrToDt) says it lists every row of a
        // day; a CSV export's rows may be a part of one (its second coffee of a day is a new coffee).
        guard !idNamespace.isEmpty, let start = header?.periodStart?.date, let end = header?.periodEnd?.date,
              incoming.transactionDate >= start.addingTimeInterval(-86_400), incoming.transactionDate <= end.addingTimeInterval(86_400)
        else { return nil }
        let prefix = idNamespace + ":"
        let day = CalendarDay.startOfDay(incoming.transactionDate)
        return try writer.transactions(accountID: account.id, from: day, through: day.addingTimeInterval(86_400),
                                       amount: incoming.transactionAmount.amount, indicator: incoming.creditDebitIndicator)
            .first { c in
                guard let id = c.keys.externalID, id.hasPrefix(prefix), id != externalID, !idsMatched.contains(id),
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
        let day = CalendarDay.string(whole.transactionDate)
        for part in parts {
            guard let stored = try stored(byID: part.externalID, account: account)?.transaction,
                  stored.transactionAmount.amount == part.amount, stored.creditDebitIndicator == part.indicator,
                  CalendarDay.string(stored.transactionDate) == day else { return nil }
            found.append(stored)
        }
        return found
    }

    func pendingMatch(for booked: Transaction, account: Account) throws -> StoredTransaction? {
        let from = booked.transactionDate.addingTimeInterval(-10 * 86_400)
        let through = (booked.postedDate ?? booked.transactionDate).addingTimeInterval(86_399)
        let amount = booked.transactionAmount.amount
        let candidates = try writer.openTransactions(accountID: account.id, from: from, through: through).filter { c in
            let t = c.transaction
            guard !claimed.contains(t.id), t.creditDebitIndicator == booked.creditDebitIndicator,
                  t.transactionAmount.currencyCode == booked.transactionAmount.currencyCode else { return false }
            let pendingAmount = t.transactionAmount.amount
            return amount >= pendingAmount && amount <= pendingAmount * Decimal(string: "1.2")!
        }
        let scored = candidates.map { c -> (StoredTransaction, Double) in
            (c, TextSimilarity.score(c.transaction, booked))
        }.filter { $0.1 >= 0.5 || $0.0.transaction.transactionAmount.amount == amount && $0.1 >= 0.2 }
        return scored.max { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            return a.0.transaction.transactionDate < b.0.transaction.transactionDate
        }?.0
    }

    /// The same transaction seen through another source (docs/dedupe.md): same amount, direction and currency,
    /// dated within `crossSourceDays` of each other (sources disagree on the day: a posting date, a time in
    /// another zone), and texts that agree (`TextSimilarity.agreeing`). Another source means another id
    /// namespace, or one side without an id. The closest text wins, then the closest date.
    func crossSourceMatch(for incoming: Transaction, externalID: String?, account: Account) throws -> StoredTransaction? {
        let day = CalendarDay.startOfDay(incoming.transactionDate)
        let window = Double(Self.crossSourceDays) * 86_400
        let candidates = try writer.transactions(accountID: account.id, from: day.addingTimeInterval(-window),
                                                 through: day.addingTimeInterval(window + 86_400),
                                                 amount: incoming.transactionAmount.amount, indicator: incoming.creditDebitIndicator)
        let prefix = idNamespace + ":"
        let scored = candidates.compactMap { c -> (StoredTransaction, Double, TimeInterval)? in
            guard !claimed.contains(c.transaction.id),
                  c.transaction.transactionAmount.currencyCode == incoming.transactionAmount.currencyCode else { return nil }
            let other: Bool
            switch (externalID, c.keys.externalID) {
            case (nil, nil): other = false          // two records without ids: their fingerprints decide
            case (nil, _?), (_?, nil): other = true
            case (_?, let stored?): other = idNamespace.isEmpty || !stored.hasPrefix(prefix)
            }
            guard other else { return nil }
            let score = TextSimilarity.score(c.transaction, incoming)
            guard score >= TextSimilarity.agreeing else { return nil }
            return (c, score, abs(c.transaction.transactionDate.timeIntervalSince(incoming.transactionDate)))
        }
        return scored.max { a, b in
            if a.1 != b.1 { return a.1 < b.1 }
            return a.2 > b.2
        }?.0
    }

    /// How many days apart two sources may date one transaction.
    static let crossSourceDays = 3
    /// How long after a pending row a statement that lists no pending rows must end to say the row is gone.
    static let postingDays: Double = 10
}
