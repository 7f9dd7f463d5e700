import CofferFormats
import CofferModel
import CofferStore
import Foundation
import Testing
@testable import CofferPipeline

/// The matcher driven directly (docs/dedupe.md): stored candidates in memory and an incoming record in, the decision
/// and the rule that decided out. No store, no file: each rule of the policy on its own.
@Suite struct MatcherTests {
    /// Stored rows of one account, answering as `StoreCandidates` does from SQLite.
    final class Memory: MatchCandidates {
        var rows: [StoredTransaction] = []
        var deletedIDs: Set<String> = []
        var deletedFingerprints: Set<String> = []
        var retired: [String: UUID] = [:]
        var valuesAsOf: [UUID: Int64] = [:]

        init(_ rows: [StoredTransaction] = []) { self.rows = rows }

        func idMatch(_ externalID: String, comparedWith incoming: Transaction, amounts: EncodedAmounts) throws
            -> (id: UUID, unchanged: Bool)? {
            guard let row = rows.first(where: { $0.keys.externalID == externalID }) else { return nil }
            var same = incoming
            same.id = row.transaction.id
            same.accountID = row.transaction.accountID
            return (row.transaction.id, same == row.transaction)
        }
        func row(id: UUID) throws -> StoredTransaction? { rows.first { $0.transaction.id == id } }
        func row(externalID: String) throws -> StoredTransaction? { rows.first { $0.keys.externalID == externalID } }
        func row(fingerprint: String, occurrence: Int) throws -> StoredTransaction? {
            rows.first { $0.keys.externalID == nil && $0.keys.fingerprint == fingerprint && $0.keys.occurrence == occurrence }
        }
        func rows(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
            rows.filter { r in
                let t = r.transaction
                let posted = t.postedDate.map(CalendarDay.dayNumber)
                return t.transactionAmount.amount == amount && t.creditDebitIndicator == indicator
                    && ((fromDay...throughDay).contains(t.localDay) || posted.map { (fromDay...throughDay).contains($0) } == true)
            }
        }
        func openRows(fromDay: Int, throughDay: Int) throws -> [StoredTransaction] {
            rows.filter { $0.transaction.isOpen && (fromDay...throughDay).contains($0.transaction.localDay) }
        }
        func bookedRows(fromDay: Int, throughDay: Int, amounts: ClosedRange<Decimal>,
                        indicator: CreditDebitIndicator) throws -> [StoredTransaction] {
            rows.filter { r in
                !r.transaction.isOpen && amounts.contains(r.transaction.transactionAmount.amount)
                    && r.transaction.creditDebitIndicator == indicator && (fromDay...throughDay).contains(r.transaction.localDay)
            }
        }
        func isDeleted(externalID: String, asOf: Int64?) throws -> Bool { deletedIDs.contains(externalID) }
        func isDeleted(fingerprint: String, occurrence: Int, asOf: Int64?) throws -> Bool {
            deletedFingerprints.contains("\(fingerprint)#\(occurrence)")
        }
        func retiredOwner(externalID: String) throws -> UUID? { retired[externalID] }
        func valuesAsOf(_ id: UUID) throws -> Int64? { valuesAsOf[id] }
        /// When each source last listed rows (no periods here: a source's newest statement covers every day).
        var sourceAsOf: [String: Int64] = [:]
        func textAsOf(_ row: StoredTransaction) throws -> Int64? {
            [valuesAsOf[row.transaction.id], row.source.flatMap { sourceAsOf[$0] }].compactMap { $0 }.max()
        }
        func hasIdlessRows(outside namespace: String) throws -> Bool {
            rows.contains { $0.keys.externalID == nil && $0.source != namespace }
        }
    }

    static let account = UUID()
    static let may14 = CalendarDay.parse("2026-05-14")!

    static func transaction(_ text: String, _ amount: Decimal, day: Int = 0, status: TransactionStatus = .booked,
                            indicator: CreditDebitIndicator = .debit, currency: String = "USD") -> Transaction {
        Transaction(id: UUID(), accountID: account, transactionAmount: CurrencyAmount(amount: amount, currencyCode: currency),
                    creditDebitIndicator: indicator, transactionDescription: text, originalTransactionDescription: text,
                    status: status, transactionDate: may14.addingTimeInterval(Double(day) * 86_400))
    }

    /// A stored row; `id` is its institution id as stored (namespaced), nil for a record without one.
    static func stored(_ t: Transaction, id: String? = nil, occurrence: Int = 1, source: String? = nil) -> StoredTransaction {
        StoredTransaction(transaction: t, keys: DedupeKeys(externalID: id, fingerprint: id == nil ? Fingerprint(transaction: t).key : nil,
                                                           occurrence: id == nil ? occurrence : nil), source: source)
    }

    /// An incoming record as the preparer hands it over; `id` is namespaced, `bare` as the file says it.
    static func record(_ t: Transaction, id: String? = nil, bare: String? = nil, occurrence: Int = 1) -> PreparedTransaction {
        PreparedTransaction(raw: RawTransaction(location: SourceLocation(file: "test"), externalID: bare ?? id.map { String($0.split(separator: ":").last!) },
                                                amount: t.transactionAmount.amount),
                            transaction: t, fingerprint: Fingerprint(transaction: t), occurrence: occurrence,
                            legacyOccurrence: occurrence, externalID: id, repeatedID: false, amounts: EncodedAmounts(t))
    }

    static func matcher(_ namespace: String = "ofx", holding memory: Memory, period: ClosedRange<Int>? = nil) -> Matcher {
        var m = Matcher(namespace: namespace, checkTombstones: !memory.deletedIDs.isEmpty || !memory.deletedFingerprints.isEmpty)
        m.facts = StoreWriter.AccountFacts(
            hasTransactions: !memory.rows.isEmpty, hasExternalIDs: memory.rows.contains { $0.keys.externalID != nil },
            hasRecordsWithoutExternalID: memory.rows.contains { $0.keys.externalID == nil },
            hasOpenTransactions: memory.rows.contains { $0.transaction.isOpen })
        m.idsOutsideNamespace = memory.rows.contains { $0.keys.externalID.map { !$0.hasPrefix(namespace + ":") } ?? false }
        m.latestStoredDay = memory.rows.map(\.transaction.localDay).max()
        m.period = period
        return m
    }

    // MARK: One rule each

    @Test func anEmptyAccountInsertsAndAPendingRecordWaitsForItsStatement() throws {
        let memory = Memory()
        let m = Self.matcher(holding: memory)
        let d = try m.decide(Self.record(Self.transaction("Coffee", 3.5), id: "ofx:1"), in: memory)
        #expect(d.rule == .new)
        guard case .insert = d.outcome else { Issue.record("\(d.outcome)"); return }
        let p = try m.decide(Self.record(Self.transaction("Coffee", 3.5, status: .pending), id: "ofx:2"), in: memory)
        #expect(p.rule == .newPending)
        guard case .insertPending = p.outcome else { Issue.record("\(p.outcome)"); return }
    }

    @Test func theSameIdWithTheSameValuesIsListedAndWithOtherValuesUpdated() throws {
        let row = Self.transaction("Coffee", 3.5)
        let memory = Memory([Self.stored(row, id: "ofx:1")])
        let m = Self.matcher(holding: memory)
        var again = Self.transaction("Coffee", 3.5)
        again.id = UUID()
        let same = try m.decide(Self.record(again, id: "ofx:1"), in: memory)
        #expect(same.rule == .institutionID && same.listed?.id == row.id && same.listed?.sameSource == true)
        guard case .unchanged = same.outcome else { Issue.record("\(same.outcome)"); return }

        let changed = try m.decide(Self.record(Self.transaction("Coffee and cake", 7.5), id: "ofx:1"), in: memory)
        #expect(changed.rule == .institutionID)
        guard case .update(let t, let keys, true) = changed.outcome else { Issue.record("\(changed.outcome)"); return }
        #expect(t.id == row.id && t.transactionAmount.amount == 7.5 && keys.externalID == "ofx:1")
    }

    /// An OFX FITID equal to a camt reference means nothing: ids decide within their namespace only.
    @Test func anIdOfAnotherNamespaceIsNoMatch() throws {
        let memory = Memory([Self.stored(Self.transaction("Rent", 900), id: "camt:REF7", source: "camt")])
        let m = Self.matcher("ofx", holding: memory)
        let d = try m.decide(Self.record(Self.transaction("Parking garage", 900), id: "ofx:REF7"), in: memory)
        #expect(d.rule == .new)
    }

    @Test func aBareIdFromBeforeNamespacesIsAdopted() throws {
        let row = Self.transaction("Coffee", 3.5)
        let memory = Memory([Self.stored(row, id: "1")])
        let m = Self.matcher(holding: memory)
        let d = try m.decide(Self.record(Self.transaction("Coffee", 3.5), id: "ofx:1", bare: "1"), in: memory)
        #expect(d.rule == .institutionID)
        #expect(d.rekeys.map(\.keys.externalID) == ["ofx:1"] && d.rekeys.map(\.id) == [row.id])
    }

    /// Same-day twins: the second identical coffee is occurrence 2 and stays a second row.
    @Test func twinsWithoutIdsAreTwoByTheirOccurrence() throws {
        let first = Self.transaction("Vending machine", 1.49)
        let memory = Memory([Self.stored(first, occurrence: 1)])
        let m = Self.matcher("csv:bank", holding: memory)
        let one = try m.decide(Self.record(Self.transaction("Vending machine", 1.49), occurrence: 1), in: memory)
        #expect(one.rule == .fingerprint && one.listed?.id == first.id)
        let two = try m.decide(Self.record(Self.transaction("Vending machine", 1.49), occurrence: 2), in: memory)
        #expect(two.rule == .new)
    }

    @Test func deletedKeysAreNotStoredAgain() throws {
        let memory = Memory()
        memory.deletedIDs = ["ofx:9"]
        let m = Self.matcher(holding: memory)
        let d = try m.decide(Self.record(Self.transaction("Coffee", 3.5), id: "ofx:9"), in: memory)
        #expect(d.rule == .deletedBefore)
        guard case .unchanged = d.outcome else { Issue.record("\(d.outcome)"); return }
    }

    /// A new id whose content repeats a stored row of the same namespace, in a period the statement covers.
    @Test func aReissuedIdIsTheStoredRowWithinTheStatementsPeriod() throws {
        let row = Self.transaction("GROCERY OUTLET", 52.1)
        let memory = Memory([Self.stored(row, id: "ofx:A1")])
        let day = row.localDay
        var m = Self.matcher(holding: memory, period: (day - 5)...(day + 5))
        let d = try m.decide(Self.record(Self.transaction("GROCERY OUTLET", 52.1), id: "ofx:B1"), in: memory)
        #expect(d.rule == .reissuedID && d.retired?.keys.externalID == "ofx:A1" && d.rekeys.first?.keys.externalID == "ofx:B1")
        // Without a stated period (a CSV export may be a part of a day) it is a new row.
        m.period = nil
        #expect(try m.decide(Self.record(Self.transaction("GROCERY OUTLET", 52.1), id: "ofx:B1"), in: memory).rule == .new)
        // Once the file matched the old id itself, the new one is another row.
        m.period = (day - 5)...(day + 5)
        m.record({ var x = MatchDecision(.institutionID); x.listedRow = row.id; return x }())
        #expect(try m.decide(Self.record(Self.transaction("GROCERY OUTLET", 52.1), id: "ofx:B1"), in: memory).rule == .new)
    }

    /// A booked record books the stored pending row in place (a tip up to 20%), keeping its id and its earlier date.
    @Test func aBookedRecordBooksThePendingRow() throws {
        let pending = Self.transaction("SQ *BLUE BOTTLE", 10, status: .pending)
        let memory = Memory([Self.stored(pending, id: "camt:P1", source: "camt")])
        let m = Self.matcher("camt", holding: memory)
        let d = try m.decide(Self.record(Self.transaction("SQ *BLUE BOTTLE COFFEE", 12, day: 2), id: "camt:B1"), in: memory)
        #expect(d.rule == .pendingBooked && d.retired?.id == pending.id && d.seenOpen == [pending.id])
        guard case .update(let t, _, true) = d.outcome else { Issue.record("\(d.outcome)"); return }
        #expect(t.id == pending.id && t.transactionAmount.amount == 12 && t.status == .booked)
        #expect(t.localDay == pending.localDay && t.postedDate.map(CalendarDay.dayNumber) == pending.localDay + 2)
        // 21% more is another transaction.
        #expect(try m.decide(Self.record(Self.transaction("SQ *BLUE BOTTLE COFFEE", 12.1, day: 2), id: "camt:B1"),
                             in: memory).rule == .new)
    }

    /// A pending listing of a row stored booked (an older statement arriving later) only dates it earlier.
    @Test func anOlderPendingListingOnlyDatesTheBookedRowEarlier() throws {
        let booked = Self.transaction("SQ *BLUE BOTTLE COFFEE", 12, day: 2)
        let memory = Memory([Self.stored(booked, id: "camt:B1", source: "camt")])
        let m = Self.matcher("camt", holding: memory)
        let d = try m.decide(Self.record(Self.transaction("SQ *BLUE BOTTLE", 10, status: .pending), id: "camt:P1"), in: memory)
        #expect(d.rule == .olderPendingListing)
        guard case .update(let t, _, false) = d.outcome else { Issue.record("\(d.outcome)"); return }
        #expect(t.transactionAmount.amount == 12 && t.status == .booked && t.localDay == booked.localDay - 2)
    }

    /// Another source's record: same amount and direction within 3 days and agreeing text is the same transaction;
    /// another merchant with the same amount that day, or 4 days away, is another.
    @Test func anotherSourceMatchesByTextWithinThreeDays() throws {
        let coffee = Self.transaction("BLUE BOTTLE COFFEE #12", 5.75)
        let memory = Memory([Self.stored(coffee, id: "ofx:77", source: "ofx")])
        let m = Self.matcher("csv:bank", holding: memory)
        let same = try m.decide(Self.record(Self.transaction("Blue Bottle Coffee", 5.75, day: 2)), in: memory)
        #expect(same.rule == .otherSource && same.claimed == coffee.id && same.listed?.sameSource == false)
        let parking = try m.decide(Self.record(Self.transaction("LAKESIDE PARKING", 5.75)), in: memory)
        #expect(parking.rule == .new)
        let late = try m.decide(Self.record(Self.transaction("Blue Bottle Coffee", 5.75, day: 4)), in: memory)
        #expect(late.rule == .new)
        // An earlier date from the other source moves the row's date, and nothing else.
        let earlier = try m.decide(Self.record(Self.transaction("Blue Bottle Coffee", 5.75, day: -1)), in: memory)
        guard case .update(let t, _, false) = earlier.outcome else { Issue.record("\(earlier.outcome)"); return }
        #expect(t.localDay == coffee.localDay - 1 && t.transactionDescription == coffee.transactionDescription)
    }

    /// A row's values come from the newest statement that lists it: an older one only dates it earlier.
    @Test func anOlderStatementChangesNothingButTheDate() throws {
        let row = Self.transaction("Coffee", 3.5, day: 1)
        let memory = Memory([Self.stored(row, id: "ofx:1")])
        memory.valuesAsOf[row.id] = 2_000
        var m = Self.matcher(holding: memory)
        m.statementAsOf = 1_000
        let older = try m.decide(Self.record(Self.transaction("COFFEE (old text)", 3.75, day: 1), id: "ofx:1"), in: memory)
        #expect(older.rule == .institutionID && older.listed?.id == row.id)
        guard case .unchanged = older.outcome else { Issue.record("\(older.outcome)"); return }
        let olderEarlier = try m.decide(Self.record(Self.transaction("COFFEE (old text)", 3.75), id: "ofx:1"), in: memory)
        guard case .update(let t, _, false) = olderEarlier.outcome else { Issue.record("\(olderEarlier.outcome)"); return }
        #expect(t.transactionAmount.amount == 3.5 && t.localDay == row.localDay - 1)
        m.statementAsOf = 3_000
        let newer = try m.decide(Self.record(Self.transaction("COFFEE (new text)", 3.75, day: 1), id: "ofx:1"), in: memory)
        guard case .update(let n, _, true) = newer.outcome else { Issue.record("\(newer.outcome)"); return }
        #expect(n.transactionAmount.amount == 3.75)
    }

    @Test func aRetiringStatementMustBeNewerAndLongEnough() {
        let row = Self.transaction("Hold", 20, status: .pending)
        let day = row.localDay
        let now = Date(timeIntervalSince1970: 2_000)
        #expect(Matcher.retires(row, listedAsOf: nil, asOf: now, throughDay: day + 1, listsPending: true))
        #expect(!Matcher.retires(row, listedAsOf: nil, asOf: now, throughDay: day + 9, listsPending: false))
        #expect(Matcher.retires(row, listedAsOf: nil, asOf: now, throughDay: day + 10, listsPending: false))
        #expect(!Matcher.retires(row, listedAsOf: now, asOf: now, throughDay: day + 30, listsPending: true))
    }

    // MARK: A property of the cross-source rule

    /// Hundreds of generated candidate sets: a record without an id is matched to another source's row only when
    /// the amount, direction and currency are equal, the days at most 3 apart, the text agrees and no earlier record
    /// claimed the row; and then to the one with the closest text. A failure prints the seed.
    @Test func crossSourceMatchesOnlyWhatTheRuleAdmits() throws {
        let texts = ["BLUE BOTTLE COFFEE", "Blue Bottle Coffee SF", "LAKESIDE PARKING #4001", "REWE Markt GmbH", "REWE 0815",
                     "Amazon Marketplace", "CHECK 1042", "Shell Oil 5551"]
        let cases = Int(ProcessInfo.processInfo.environment["COFFER_PROPERTY_CASES"] ?? "") ?? 400
        for seed in 1...UInt64(cases) {
            var random = OrderInvarianceTests.SplitMix(state: seed)
            let memory = Memory()
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let t = Self.transaction(texts.randomElement(using: &random)!, [5.75, 5.76, 12].randomElement(using: &random)!,
                                         day: Int.random(in: -5...5, using: &random),
                                         indicator: Bool.random(using: &random) ? .debit : .credit,
                                         currency: Int.random(in: 0..<8, using: &random) == 0 ? "EUR" : "USD")
                memory.rows.append(Self.stored(t, id: "ofx:\(memory.rows.count)", source: "ofx"))
            }
            var m = Self.matcher("csv:bank", holding: memory)
            if Bool.random(using: &random), let some = memory.rows.randomElement(using: &random) {
                m.claimed.insert(some.transaction.id)
            }
            let incoming = Self.transaction(texts.randomElement(using: &random)!, 5.75)
            let d = try m.decide(Self.record(incoming), in: memory)
            let admissible = memory.rows.filter { r in
                let t = r.transaction
                return t.transactionAmount.amount == 5.75 && t.creditDebitIndicator == .debit
                    && t.transactionAmount.currencyCode == "USD" && abs(t.localDay - incoming.localDay) <= 3
                    && !m.claimed.contains(t.id) && TextSimilarity.score(t, incoming) >= TextSimilarity.agreeing
            }
            if admissible.isEmpty {
                #expect(d.rule == .new, "seed \(seed): matched \(String(describing: d.claimed)) though nothing is admissible")
            } else {
                #expect(d.rule == .otherSource, "seed \(seed): \(d.rule) though \(admissible.count) row(s) are admissible")
                let best = admissible.map { TextSimilarity.score($0.transaction, incoming) }.max()!
                let chosen = try #require(memory.rows.first { $0.transaction.id == d.claimed }, "seed \(seed)")
                #expect(TextSimilarity.score(chosen.transaction, incoming) == best, "seed \(seed): not the closest text")
            }
        }
    }
}
