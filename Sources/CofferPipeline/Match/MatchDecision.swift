import CofferModel
import CofferStore
import Foundation

/// What the matcher decided for one incoming record (docs/dedupe.md), and the rule that decided it. The session
/// applies it in order: retire `retired`'s keys, set each of `rekeys`, then the outcome.
struct MatchDecision {
    /// The rule of docs/dedupe.md that decided, highest fidelity first.
    enum Rule: String, CaseIterable {
        /// An institution correction (`CORRECTFITID`) replaces or deletes its target.
        case correction
        /// The institution's id in this file's namespace (or, in a store from before namespaces, the bare id).
        case institutionID
        /// A batch an earlier version stored as its parts.
        case storedParts
        /// The content fingerprint and occurrence number (records without ids).
        case fingerprint
        /// The row an earlier version stored with the amount before a fee was netted.
        case formerAmount
        /// Its keys were deleted before (a tombstone): not stored again.
        case deletedBefore
        /// The institution re-issued its id for a row already stored.
        case reissuedID
        /// An older pending listing of a row stored booked: it may only date the row earlier.
        case olderPendingListing
        /// A booked record of a stored pending row: the row books, keeping its id.
        case pendingBooked
        /// The same transaction seen through another source (same day ±3, amount, direction; agreeing text).
        case otherSource
        /// A new pending record: inserted unless a newer statement already retired it.
        case newPending
        /// Nothing stored is this record.
        case new
    }

    enum Outcome {
        case insert(Transaction, DedupeKeys)
        /// A pending record, inserted once the statement's as-of time shows no newer statement retired it.
        case insertPending(Transaction, DedupeKeys)
        /// `valuesFromStatement` false: only the date moved (the row keeps values of a newer statement).
        case update(Transaction, DedupeKeys, valuesFromStatement: Bool)
        case delete(StoredTransaction)
        case unchanged
    }

    /// A stored row the statement lists as it is: undo keeps it while this import stands.
    struct Listing: Equatable {
        var id: UUID
        var date: Date
        var offset: Int?
        var sameSource: Bool
    }

    var rule: Rule
    var outcome: Outcome
    /// Keys retired for a row (the old id of a re-issue, the pending keys of a row that booked): a record carrying
    /// them is recognised, not stored again.
    var retired: (id: UUID, keys: DedupeKeys)?
    /// Keys a row takes without changing its values (an id another source lends it, a namespaced id).
    var rekeys: [(id: UUID, keys: DedupeKeys)] = []
    var listed: Listing?
    /// The parts of a batch listed as they are (rule `storedParts`).
    var listedParts: [Listing] = []
    /// Open (pending/authorized) stored rows the statement lists: no later statement of the file retires them.
    var seenOpen: [UUID] = []
    /// A stored row matched by content, so no other record of the file claims it.
    var claimed: UUID?
    /// A stored row this record is (by id or content): a pending record of the file is none of these.
    var listedRow: UUID?
    /// The stored row matched by its institution id; it is `listedRow` too.
    var matchedByID: UUID?
    /// A row whose text this listing repeats, newer: the text is this source's now (`StoreWriter.restampValues`).
    var restamp: UUID?
    /// Another source's text this listing may give the row, decided once the statement's as-of time is known
    /// (a CSV export's is its latest row's day): the row and the listing.
    var deferredText: (id: UUID, listing: Transaction)?

    init(_ rule: Rule, _ outcome: Outcome = .unchanged) {
        self.rule = rule
        self.outcome = outcome
    }
}
