import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// Applying the matcher's decisions: the writes each one asks for, the rows it lists for undo, and the report.
extension ImportSession {
    func transaction(_ prepared: PreparedTransaction) throws {
        // The account's id, not the account: binding `account` copied it (its strings retained) each transaction.
        guard let accountID = account?.id, let candidates else {
            throw CofferError(.badInput, "a transaction before any statement header", location: prepared.raw.location)
        }
        let incoming = prepared.transaction
        processed += 1
        if processed % 10_000 == 0 { progress?(processed) }
        minDate = min(minDate ?? incoming.transactionDate, incoming.transactionDate)
        maxDate = max(maxDate ?? incoming.transactionDate, incoming.transactionDate)
        if prepared.raw.correction?.action != .delete { tally.note(incoming, scaled: prepared.amounts.scaled) }
        let day = incoming.localDay
        minDay = min(minDay ?? day, day)
        maxDay = max(maxDay ?? day, day)
        let decision = try Self.decide(&matcher, prepared, in: candidates)
        try apply(decision, amounts: prepared.amounts, externalID: prepared.externalID, accountID: accountID)
    }

    /// `matcher.decide`, reached as `inout`: called on the stored property, the matcher was copied for each
    /// transaction (its sets and dictionaries retained, then released: callgrind).
    @inline(__always)
    private static func decide(_ matcher: inout Matcher, _ prepared: PreparedTransaction,
                               in candidates: StoreCandidates) throws -> MatchDecision {
        try matcher.decide(prepared, in: candidates)
    }

    /// Carries out one decision, in the order `MatchDecision` documents.
    func apply(_ d: consuming MatchDecision, amounts: EncodedAmounts, externalID: String?, accountID: UUID) throws {
        if let retired = d.retired { try writer.retireKeys(retired.keys, ofTransaction: retired.id, accountID: accountID) }
        for rekey in d.rekeys { try writer.setKeys(rekey.keys, forTransaction: rekey.id) }
        for id in d.seenOpen { markSeen(id) }
        if let listed = d.listed { try writer.noteListed(listed.id, date: listed.date, offset: listed.offset, sameSource: listed.sameSource) }
        for part in d.listedParts { try writer.noteListed(part.id, date: part.date, offset: part.offset, sameSource: part.sameSource) }
        if d.rule == .reissuedID { reissued += 1 }
        if let id = d.restamp { try writer.restampValues(ofTransaction: id) }
        if let text = d.deferredText {
            let unchanged = if case .unchanged = d.outcome { true } else { false }
            deferredTexts.append((text.id, text.listing, unchanged))
        }
        matcher.record(d)
        // The outcome is moved out, and its transaction on into the row: bound from `d` in place, each insert
        // copied the transaction (every string retained, then released: callgrind).
        var outcome = MatchDecision.Outcome.unchanged
        swap(&outcome, &d.outcome)
        switch consume outcome {
        case .insert(let t, let keys):
            try insert(t, keys: keys, amounts: amounts, externalID: externalID)
        case .insertPending(let t, let keys):
            guard let asOf = header?.asOf?.date else {
                deferredOpen.append((t, keys, amounts, externalID))
                return
            }
            try insertOpen(t, keys: keys, amounts: amounts, externalID: externalID, asOf: asOf, accountID: accountID)
        case .update(let t, let keys, let valuesFromStatement):
            try writer.update(t, keys: keys, valuesFromStatement: valuesFromStatement)
            priorRows[accountID]?.note(t)  // a row from before the file, now of these values
            note("update", t)
            report.updated += 1
        case .delete(let stored):
            try writer.delete(stored)
            note("delete", stored.transaction)
            report.deleted += 1
        case .unchanged:
            report.unchanged += 1
        }
    }

    /// Gives rows the text of this statement's listings where the matcher left it open for want of its as-of time
    /// (`MatchDecision.deferredText`), now that it is known: as `Matcher.textRule` decides.
    func resolveDeferredTexts(asOf: Date) throws {
        guard !deferredTexts.isEmpty, let candidates else { return }
        let ms = StoreWriter.millis(asOf)
        matcher.statementAsOf = ms
        writer.statementAsOf = ms
        for deferred in deferredTexts {
            guard let row = try writer.transaction(id: deferred.id) else { continue }
            switch try matcher.textRule(deferred.listing, row: row, in: candidates) {
            case .take:
                var updated = row.transaction
                updated.takeText(of: deferred.listing)
                try writer.update(updated, keys: row.keys, valuesFromStatement: true)
                note("update", updated)
                report.updated += 1
                if deferred.wasUnchanged { report.unchanged -= 1 }
            case .restamp: try writer.restampValues(ofTransaction: row.transaction.id)
            case .keep, .deferred: break
            }
        }
        deferredTexts = []
    }

    func insert(_ incoming: consuming Transaction, keys: DedupeKeys, amounts: EncodedAmounts, externalID: String?) throws {
        matcher.recordInsert(incoming, externalID: externalID)
        if incoming.isOpen { markSeen(incoming.id) }
        note("insert", incoming)
        report.inserted += 1
        // Last, so the transaction moves into the row (a failure here fails the whole file's transaction).
        try writer.insert(consume incoming, keys: keys, amounts: amounts)
    }

    /// Inserts a new pending record of a statement as of `asOf`, unless a newer statement already recorded retired
    /// it (docs/dedupe.md: nothing older resurrects a deleted pending row, whichever arrived first).
    func insertOpen(_ incoming: Transaction, keys: DedupeKeys, amounts: EncodedAmounts, externalID: String?,
                    asOf: Date, accountID: UUID) throws {
        if try writer.retiredByNewerStatement(accountID: accountID, day: incoming.localDay, asOf: asOf,
                                              postingDays: Matcher.postingDays) {
            report.unchanged += 1
            return
        }
        try insert(incoming, keys: keys, amounts: amounts, externalID: externalID)
    }

    func note(_ op: String, _ t: Transaction) {
        guard collectChanges, (report.changes?.count ?? 0) < 1_000 else { return }
        report.changes?.append(FileReport.Change(
            op: op, date: CalendarDay.string(day: t.localDay),
            amount: (t.creditDebitIndicator == .debit ? "-" : "") + t.transactionAmount.amountText,
            currency: t.transactionAmount.currencyCode, description: t.transactionDescription, status: t.status.name))
    }
}
