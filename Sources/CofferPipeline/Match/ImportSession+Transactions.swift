import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// The match/dedupe decisions for one incoming transaction, in the order `ImportSession` documents: a
/// correction, the institution's id, the content fingerprint, a re-issued id, a pending or booked counterpart,
/// another source's record, else an insert; and how a matched row is reconciled with what the statement says.
extension ImportSession {
    func transaction(_ prepared: PreparedTransaction) throws {
        let raw = prepared.raw
        guard let account else {
            throw CofferError(.badInput, "a transaction before any statement header", location: raw.location)
        }
        var incoming = prepared.transaction
        let fingerprint = prepared.fingerprint
        let occurrence = prepared.occurrence
        let externalID = prepared.externalID
        let repeatedID = prepared.repeatedID
        processed += 1
        if processed % 10_000 == 0 { progress?(processed) }
        minDate = min(minDate ?? incoming.transactionDate, incoming.transactionDate)
        maxDate = max(maxDate ?? incoming.transactionDate, incoming.transactionDate)
        if raw.correction?.action != .delete { tally.note(incoming, scaled: prepared.amounts.scaled) }
        let day = incoming.localDay
        minDay = min(minDay ?? day, day)
        maxDay = max(maxDay ?? day, day)

        let keys = DedupeKeys(externalID: externalID, fingerprint: fingerprint.key, occurrence: occurrence)

        if let correction = raw.correction {
            try correct(correction, incoming: &incoming, keys: keys, account: account)
            return
        }
        // Records of an account that held nothing before this statement can only match each other, and their
        // (fingerprint, occurrence) keys are unique within the file: skip the look-ups (the common bulk case).
        let fresh = !facts.hasTransactions && !repeatedID
        if !fresh {
            if let externalID, let match = try idMatch(externalID, raw: raw, incoming: incoming, prepared: prepared,
                                                       account: account) {
                idsMatched.insert(externalID)
                matchedRows.insert(match.id)
                listedRows.insert(match.id)
                if match.unchanged {
                    if incoming.status == .pending || incoming.status == .authorized { markSeen(match.id) }
                    writer.noteListed(match.id, date: incoming.transactionDate, offset: incoming.timeZoneOffset, sameSource: true)
                    report.unchanged += 1
                } else if let stored = try writer.transaction(id: match.id) {
                    try reconcile(stored, with: incoming, keys: keys)
                }
                return
            }
            if !raw.formerParts.isEmpty, let parts = try storedParts(raw.formerParts, of: incoming, account: account) {
                // A batch an earlier version stored as its parts: it is there already.
                for part in parts {
                    if part.status == .pending || part.status == .authorized { markSeen(part.id) }
                    writer.noteListed(part.id, date: part.transactionDate, offset: part.timeZoneOffset, sameSource: true)
                }
                report.unchanged += 1
                return
            }
            if let stored = try writer.transaction(accountID: account.id, fingerprint: fingerprint.key, occurrence: occurrence)
                ?? legacyOccurrenceMatch(prepared, account: account)
                ?? legacyKeyMatch(prepared, account: account) {
                try reconcile(stored, with: incoming, keys: DedupeKeys(externalID: externalID ?? stored.keys.externalID,
                                                                        fingerprint: keys.fingerprint, occurrence: keys.occurrence))
                return
            }
            if let former = raw.formerAmount, externalID == nil {
                // An earlier version stored this row with another amount (before the fee was netted): that row,
                // corrected.
                var old = incoming
                old.transactionAmount = CurrencyAmount(amount: former.amount.magnitude, currencyCode: incoming.transactionAmount.currencyCode)
                old.creditDebitIndicator = former.indicator ?? (former.amount < 0 ? .debit : .credit)
                if let stored = try writer.transaction(accountID: account.id, fingerprint: Fingerprint(transaction: old).key,
                                                       occurrence: occurrence) {
                    try reconcile(stored, with: incoming, keys: keys)
                    return
                }
            }
        }
        if checkTombstones {
            var deleted = try (externalID.map { id in
                try writer.isDeleted(accountID: account.id, externalID: id)
                    || (raw.externalID.map { try writer.isDeleted(accountID: account.id, externalID: $0) } ?? false)
            } ?? false)
            if deleted, let externalID, let owner = try writer.retiredOwner(accountID: account.id, externalID: externalID),
               matchedRows.contains(owner) {
                // The id was retired for a re-issued one, and this file lists both: two transactions after all.
                deleted = false
            } else if !deleted {
                deleted = try writer.isDeleted(accountID: account.id, fingerprint: fingerprint.key, occurrence: occurrence)
                if !deleted, let legacy = fingerprint.legacyKey {
                    deleted = try writer.isDeleted(accountID: account.id, fingerprint: legacy, occurrence: occurrence)
                }
            }
            if deleted {
                // A retired id whose row lives on (booked from pending, or re-keyed by a re-issue): this file lists
                // that row (undo keeps it while this import stands).
                if let externalID, let owner = try writer.retiredOwner(accountID: account.id, externalID: externalID),
                   try writer.transaction(id: owner) != nil {
                    writer.noteListed(owner, date: incoming.transactionDate, offset: incoming.timeZoneOffset, sameSource: true)
                }
                report.unchanged += 1
                return
            }
        }
        // (A repeated id is compared with this file's own rows too: no skipping for it.)
        // A stored row is found by its posting day too, which may be up to `postingDays` after its date.
        let reach = Self.crossSourceDays + Self.postingDays
        let beyondStored = !repeatedID && (latestStoredDay.map { incoming.localDay > $0 + reach } ?? true)
        if let externalID, !fresh, !beyondStored,
           let stored = try reissueMatch(incoming, externalID: externalID, account: account) {
            // The bank re-issued its id for a row already stored: the new id is the row's now, the old one retired
            // (so the older download is still recognised), and the statement says so once.
            try writer.retireKeys(DedupeKeys(externalID: stored.keys.externalID), ofTransaction: stored.transaction.id,
                                  accountID: account.id)
            try writer.setKeys(DedupeKeys(externalID: externalID, fingerprint: stored.keys.fingerprint,
                                          occurrence: stored.keys.occurrence), forTransaction: stored.transaction.id)
            checkTombstones = true
            claimed.insert(stored.transaction.id)
            idsMatched.insert(externalID)
            if stored.transaction.status == .pending || stored.transaction.status == .authorized { markSeen(stored.transaction.id) }
            reissued += 1
            writer.noteListed(stored.transaction.id, date: incoming.transactionDate, offset: incoming.timeZoneOffset, sameSource: true)
            report.unchanged += 1
            return
        }
        if !fresh, incoming.status == .pending || incoming.status == .authorized,
           let booked = try bookedMatch(for: incoming, account: account) {
            // An older listing of a row stored booked: its values stay the booked ones; it may date the row earlier.
            claimed.insert(booked.transaction.id)
            listedRows.insert(booked.transaction.id)
            try dateOnly(booked, by: incoming, listing: incoming, keepPostingDay: true)
            return
        }
        if incoming.status == .booked, facts.hasOpenTransactions, let pending = try pendingMatch(for: incoming, account: account) {
            incoming.id = pending.transaction.id
            if incoming.postedDate == nil { incoming.postedDate = incoming.transactionDate }
            // Keep when it took place as the pending record said it; the booked record gives the posting date.
            if pending.transaction.isEarlier(than: incoming) { incoming.takeDate(of: pending.transaction) }
            try writer.retireKeys(pending.keys, ofTransaction: pending.transaction.id, accountID: account.id)
            try writer.update(incoming, keys: keys)
            postingReach = Self.pendingDays
            claimed.insert(pending.transaction.id)
            markSeen(pending.transaction.id)
            note("update", incoming)
            report.updated += 1
            return
        }
        // Another source of the same account words records differently; only worth a look when the account
        // holds records of the other kind (with an institution id vs without), or for a repeated id.
        let otherKind = externalID == nil ? try facts.hasExternalIDs || repeatedID || idlessOfAnotherSource(account)
            : facts.hasRecordsWithoutExternalID || idsOutsideNamespace
        if otherKind, !beyondStored, let other = try crossSourceMatch(for: incoming, externalID: externalID, account: account) {
            if other.keys.externalID == nil, externalID != nil {
                try writer.setKeys(DedupeKeys(externalID: externalID, fingerprint: other.keys.fingerprint, occurrence: other.keys.occurrence),
                                   forTransaction: other.transaction.id)
            }
            claimed.insert(other.transaction.id)
            if other.transaction.status == .pending || other.transaction.status == .authorized { markSeen(other.transaction.id) }
            if incoming.isEarlier(than: other.transaction) {
                // The day it happened is the earliest day any source gives it (docs/dedupe.md).
                var earlier = other.transaction
                earlier.takeDate(of: incoming)
                if earlier.postedDate == nil { earlier.postedDate = other.transaction.transactionDate }
                try writer.update(earlier, keys: DedupeKeys(externalID: other.keys.externalID ?? externalID,
                                                            fingerprint: other.keys.fingerprint, occurrence: other.keys.occurrence),
                                  valuesFromStatement: false)
                note("update", earlier)
                report.updated += 1
                return
            }
            writer.noteListed(other.transaction.id, date: incoming.transactionDate, offset: incoming.timeZoneOffset, sameSource: false)
            report.unchanged += 1
            return
        }
        if incoming.status == .pending || incoming.status == .authorized {
            guard let asOf = header?.asOf?.date else {
                deferredOpen.append((incoming, keys, prepared.amounts, externalID))
                return
            }
            try insertOpen(incoming, keys: keys, amounts: prepared.amounts, externalID: externalID, asOf: asOf, account: account)
            return
        }
        try insert(incoming, keys: keys, amounts: prepared.amounts, externalID: externalID)
    }

    func insert(_ incoming: Transaction, keys: DedupeKeys, amounts: EncodedAmounts, externalID: String?) throws {
        try writer.insert(incoming, keys: keys, amounts: amounts)
        listedRows.insert(incoming.id)
        if let externalID { idsMatched.insert(externalID) }  // a twin later in the file is no re-issue of it
        if postingReach < Self.pendingDays, let posted = incoming.postedDate,
           posted.timeIntervalSince(incoming.transactionDate) >= 86_400 {
            postingReach = Self.pendingDays  // as `hasRowsPostedLater` would now say, for this file's later statements
        }
        if incoming.status == .pending || incoming.status == .authorized {
            markSeen(incoming.id)
            facts.hasOpenTransactions = true
        }
        note("insert", incoming)
        report.inserted += 1
    }

    /// Whether the account holds rows without ids that another source gave (a camt.052 report's pending entries
    /// beside a CSV export): records without ids of two sources are matched across sources like any others.
    func idlessOfAnotherSource(_ account: Account) throws -> Bool {
        if let known = idlessOutsideNamespace { return known }
        let found = try !idNamespace.isEmpty && facts.hasRecordsWithoutExternalID
            && writer.hasRecordsWithoutExternalID(accountID: account.id, outside: idNamespace)
        idlessOutsideNamespace = found
        return found
    }

    /// Inserts a new pending record of a statement as of `asOf`, unless a newer statement already recorded retired
    /// it (docs/dedupe.md: nothing older resurrects a deleted pending row, whichever arrived first).
    func insertOpen(_ incoming: Transaction, keys: DedupeKeys, amounts: EncodedAmounts, externalID: String?,
                            asOf: Date, account: Account) throws {
        if try writer.retiredByNewerStatement(accountID: account.id, day: incoming.localDay, asOf: asOf,
                                              postingDays: Self.postingDays) {
            report.unchanged += 1
            return
        }
        try insert(incoming, keys: keys, amounts: amounts, externalID: externalID)
    }

    /// Same transaction, maybe evolved: update when any value differs.
    func reconcile(_ stored: StoredTransaction, with incoming: Transaction, keys: DedupeKeys) throws {
        listedRows.insert(stored.transaction.id)
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
        if stored.transaction.status == .pending || stored.transaction.status == .authorized { markSeen(stored.transaction.id) }
        if updated == stored.transaction {
            if (stored.keys.externalID == nil && keys.externalID != nil)
                || (stored.keys.externalID == keys.externalID && stored.keys.occurrence != keys.occurrence) {
                try writer.setKeys(keys, forTransaction: updated.id)
            }
            writer.noteListed(updated.id, date: incoming.transactionDate, offset: incoming.timeZoneOffset, sameSource: true)
            report.unchanged += 1
            return
        }
        if let asOf = writer.statementAsOf, let valuesAsOf = try writer.valuesAsOf(transactionID: stored.transaction.id),
           asOf < valuesAsOf {
            // An older statement than the one whose values the row carries (docs/dedupe.md): its amount, status and
            // text are history; it may only say the transaction happened earlier.
            try dateOnly(stored, by: updated, listing: incoming, keepPostingDay: false)
            return
        }
        try writer.update(updated, keys: keys)
        note("update", updated)
        report.updated += 1
    }

    /// A listing whose values are history (an older statement, a pending listing of a booked row): the row keeps
    /// them, and may only be dated earlier, by `dated` (the listing's date as the rule orders them); `listing` is
    /// what the statement said, noted for undo. With `keepPostingDay`, a row without a posting date keeps the day it
    /// had as one.
    func dateOnly(_ stored: StoredTransaction, by dated: Transaction, listing: Transaction, keepPostingDay: Bool) throws {
        guard dated.isEarlier(than: stored.transaction) else {
            writer.noteListed(stored.transaction.id, date: listing.transactionDate, offset: listing.timeZoneOffset,
                              sameSource: false)
            report.unchanged += 1
            return
        }
        var earlier = stored.transaction
        earlier.takeDate(of: dated)
        if keepPostingDay, earlier.postedDate == nil { earlier.postedDate = stored.transaction.transactionDate }
        try writer.update(earlier, keys: stored.keys, valuesFromStatement: false)
        note("update", earlier)
        report.updated += 1
    }

    func correct(_ correction: RawCorrection, incoming: inout Transaction, keys: DedupeKeys, account: Account) throws {
        guard let target = try stored(byID: correction.targetID, account: account) else {
            if correction.action == .replace, try keys.externalID.map({ try stored(byID: bare($0), account: account) }) ?? nil == nil {
                try writer.insert(incoming, keys: keys)
                note("insert", incoming)
                report.inserted += 1
            } else {
                report.unchanged += 1
            }
            return
        }
        switch correction.action {
        case .delete:
            try writer.delete(target)
            note("delete", target.transaction)
            report.deleted += 1
        case .replace:
            incoming.id = target.transaction.id
            try writer.update(incoming, keys: keys)
            note("update", incoming)
            report.updated += 1
        }
    }

    func note(_ op: String, _ t: Transaction) {
        guard collectChanges, (report.changes?.count ?? 0) < 1_000 else { return }
        report.changes?.append(FileReport.Change(
            op: op, date: CalendarDay.string(day: t.localDay),
            amount: (t.creditDebitIndicator == .debit ? "-" : "") + t.transactionAmount.amountText,
            currency: t.transactionAmount.currencyCode, description: t.transactionDescription, status: t.status.name))
    }
}
