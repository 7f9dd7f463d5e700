import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// The match/dedupe stage for one statement file, run on the thread holding its write transaction. Transactions
/// arrive prepared (normalized, fingerprinted, numbered: see `TransactionPreparer`) from the parsing thread.
///
/// For every transaction, highest fidelity first:
/// 1. an institution correction (`CORRECTFITID`) replaces or deletes its target;
/// 2. the institution's id in this account: same → nothing, changed → update (same `id`);
/// 3. for records without the institution's id, the content fingerprint with its occurrence number (the 2nd
///    identical coffee of a day is occurrence 2); records that carry ids are matched by them alone;
/// 4. a booked record that matches a stored pending one (same account and direction, amount equal or up to 20%
///    more for tips, dated on or up to 10 days after it, similar text) updates the pending one in place; a pending
///    record that matches a stored booked one the same way (an older statement arriving later) only dates it earlier;
/// 5. a record from a different source (another id namespace, one side without an id, or two sources without ids)
///    with the same amount and direction, dated within 3 days of the stored one's date or posting day, with agreeing
///    text, is the same transaction: nothing new, and the id is kept on the stored one;
/// 6. otherwise, unless its keys were deleted before (tombstone), it is inserted; a pending record is not when a
///    newer statement already recorded would have retired it.
/// Once the file is read, stored pending transactions dated within a period one of its statements covers that
/// no statement of the file lists for that account are deleted, when that statement is newer than every listing.
final class ImportSession {
    let writer: StoreWriter
    let fileName: String
    var report: FileReport
    let collectChanges: Bool
    let progress: ((Int) -> Void)?
    var checkTombstones: Bool
    let fallback: StatementAccount.Fallback
    let accountRules: StatementAccount.Rules

    // Statement state
    var account: Account?
    var header: RawStatementHeader?
    var balances: [RawBalance] = []
    /// The current statement's rows, counted for its `statement_period` row.
    var tally = StatementTally(currency: "")
    var minDate: Date?
    var maxDate: Date?
    /// The first and last local day of the current statement's transactions.
    var minDay: Int?
    var maxDay: Int?
    /// Stored open (pending/authorized) transactions the current account's statements in this file list.
    var seenOpen: Set<UUID> = []
    /// Per account, the open transactions its statements in this file list, and the periods they cover: pending
    /// rows a period covers and no statement of the file lists are deleted once the whole file is read (two
    /// statements of one account in one file, a camt currency part on an older store, never retire each other's).
    var seenOpenByAccount: [UUID: Set<UUID>] = [:]
    var coverage: [Coverage] = []
    /// Open rows the current statement lists: noted with its as-of time when it ends.
    var seenThisStatement: Set<UUID> = []

    /// A period a statement of the file covers, in local days, and what it may say about pending rows in it
    /// (docs/dedupe.md).
    struct Coverage {
        var accountID: UUID
        var fromDay: Int
        var throughDay: Int
        /// When the statement was made; only rows no newer statement listed can be retired by it.
        var asOf: Date
        /// The format lists pending rows; else a row is retired only when the period ends 10 days after it.
        var listsPending: Bool
    }

    func markSeen(_ id: UUID) {
        seenOpen.insert(id)
        seenThisStatement.insert(id)
    }
    /// What the account held before this statement (see `StoreWriter.facts`).
    var facts = StoreWriter.AccountFacts(hasTransactions: false, hasExternalIDs: false,
                                                  hasRecordsWithoutExternalID: false, hasOpenTransactions: false)
    /// Stored transactions claimed by a fuzzy match in this file, so two records never claim one.
    var claimed: Set<UUID> = []
    /// The account holds ids of another source (or from before namespaces): cross-source matching may find them.
    var idsOutsideNamespace = false
    /// The latest local day the account held rows on when the statement began (nil: none). A row dated later than
    /// that (plus the cross-source window and the posting days a stored row may be found by) can be neither a re-issue of a stored row nor another source's record of
    /// one: the look-ups are skipped (the new days of an overlapping download: ~50% of its CPU otherwise).
    var latestStoredDay: Int?
    /// The account holds a row posted a day or more after its date (a pending row that booked): only then can a
    /// stored row be found by a posting day up to `pendingDays` after its date; else a day's look-up reaches one
    /// day back (a posting date's UTC day). At 500 rows a day, the 11-day reach cost an overlapping download 2.2x.
    var postingReach = 1 {
        didSet { if let id = account?.id { postingReachByAccount[id] = postingReach } }
    }
    private var postingReachByAccount: [UUID: Int] = [:]
    /// The account holds rows without ids that another source gave (cross-source matching may find them): asked
    /// once per statement, when a record without an id first needs it.
    var idlessOutsideNamespace: Bool?
    /// Namespaced ids this file matched to stored rows or inserted (never taken for a re-issued id).
    var idsMatched: Set<String> = []
    /// Rows of the current statement whose id the bank re-issued.
    var reissued = 0
    /// Stored rows this file matched by an institution id.
    var matchedRows: Set<UUID> = []
    /// Rows this file matched by id or content, or inserted: a pending record of the file is none of them.
    var listedRows: Set<UUID> = []
    /// Pending records of the current statement waiting for its as-of time (a CSV export's is its latest row's day,
    /// known once it is read) to know whether a newer statement already retired them.
    var deferredOpen: [(transaction: Transaction, keys: DedupeKeys, amounts: EncodedAmounts, externalID: String?)] = []
    var processed = 0

    /// The namespace of this file's institution ids (`ofx`, `camt`, `csv:<profile>`); ids arrive prefixed with it.
    let idNamespace: String

    init(writer: StoreWriter, fileName: String, report: FileReport, idNamespace: String = "",
         collectChanges: Bool, progress: ((Int) -> Void)?,
         fallback: StatementAccount.Fallback = StatementAccount.Fallback(),
         accountRules: StatementAccount.Rules = StatementAccount.Rules()) throws {
        self.fallback = fallback
        self.accountRules = accountRules
        self.idNamespace = idNamespace
        self.writer = writer
        self.fileName = fileName
        self.report = report
        self.collectChanges = collectChanges
        self.progress = progress
        self.checkTombstones = try writer.hasTombstones()
        writer.recordSource = idNamespace.isEmpty ? nil : idNamespace
        if collectChanges { self.report.changes = [] }
    }

    /// Handles one event; for a statement header, returns its account (resolved or created).
    func handle(_ event: PreparedEvent) throws -> ResolvedAccount? {
        switch event {
        case .begin(let header):
            let account = try begin(header)
            return ResolvedAccount(id: account.id, currencyCode: account.currencyCode,
                                   names: [account.displayName] + (account.accountDescription.map { [$0] } ?? []))
        case .transaction(let prepared): try transaction(prepared)
        case .balance(let raw):
            guard account != nil else { throw CofferError(.badInput, "a balance before any statement header", location: raw.location) }
            balances.append(raw)
        case .warning(let warning):
            report.warnings.append(warning.description)
            if warning.needsAttention { report.attention.append(warning.description) }
            if let difference = warning.balanceDifference, account != nil {
                tally.balanceProblem = (warning.description, difference)
            }
        case .end: try end()
        }
        return nil
    }

    func finish() throws {
        if account != nil { try end() }
        for window in coverage {
            let seen = seenOpenByAccount[window.accountID] ?? []
            for stored in try writer.openTransactions(accountID: window.accountID, fromDay: window.fromDay,
                                                      throughDay: window.throughDay)
            where !seen.contains(stored.transaction.id) {
                // Only a statement newer than every one that listed the row says it is gone, and only one that
                // lists pending rows, or whose period ends long enough after the row for it to have posted.
                if let listed = try writer.listingAsOf(transactionID: stored.transaction.id), listed >= window.asOf { continue }
                if !window.listsPending, window.throughDay - stored.transaction.localDay < Self.postingDays { continue }
                try writer.delete(stored)
                note("delete", stored.transaction)
                report.deleted += 1
            }
        }
        coverage = []
    }

    // MARK: Statements

    private func begin(_ header: RawStatementHeader) throws -> Account {
        if account != nil { try end() }
        let resolution = try StatementAccount.resolve(header.account, writer: writer, location: header.location,
                                                      fallback: fallback, rules: accountRules)
        let account = resolution.account
        if resolution.inserted { report.accountsAdded += 1 }
        if let warning = resolution.attention {
            report.warnings.append("\(header.location): \(warning)")
            report.attention.append("\(header.location): \(warning)")
        }
        if let notice = resolution.notice { report.warnings.append("\(header.location): \(notice)") }
        self.account = account
        self.header = header
        writer.statementAsOf = header.asOf.map { Int64(($0.date.timeIntervalSince1970 * 1000).rounded()) }
        facts = try writer.facts(accountID: account.id)
        latestStoredDay = facts.hasTransactions ? try writer.latestLocalDay(accountID: account.id) : nil
        // Asked once per account and file (a scan of its rows): a file of many daily statements asks once.
        if postingReachByAccount[account.id] == nil {
            postingReachByAccount[account.id] = try facts.hasTransactions && writer.hasRowsPostedLater(accountID: account.id)
                ? Self.pendingDays : 1
        }
        postingReach = postingReachByAccount[account.id]!
        idsOutsideNamespace = false
        if !idNamespace.isEmpty, facts.hasExternalIDs {
            idsOutsideNamespace = try writer.hasExternalIDs(accountID: account.id, outside: idNamespace + ":")
        }
        idlessOutsideNamespace = nil
        balances = []
        tally = StatementTally(currency: header.account.currencyCode?.uppercased() ?? account.currencyCode)
        minDate = nil
        maxDate = nil
        minDay = nil
        maxDay = nil
        seenOpen = seenOpenByAccount[account.id] ?? []
        return account
    }

    private func end() throws {
        guard let account else { return }
        let startDate = header?.periodStart?.date ?? minDate
        let endDate = header?.periodEnd?.date ?? maxDate
        // The period's days are the bank's own: a period that ends `20260331235959[-8:PST]` covers March 31.
        let start = header?.periodStart?.localDay ?? minDay
        let end = header?.periodEnd?.localDay ?? maxDay
        let asOf = header?.asOf?.date ?? maxDate ?? Date()
        for record in deferredOpen {
            try insertOpen(record.transaction, keys: record.keys, amounts: record.amounts, externalID: record.externalID,
                           asOf: asOf, account: account)
        }
        deferredOpen = []
        let covered: (from: Int, through: Int)? = if let start, let end, start <= end { (start, end) } else { nil }
        try recordStatement(account, start: startDate, end: endDate, asOf: asOf, coverage: covered)
        try flushBalances(account)
        // Pending transactions the statement's period covers but no statement of the file lists are gone: retired
        // in `finish`, once every statement of the file is read.
        if let covered {
            coverage.append(Coverage(accountID: account.id, fromDay: covered.from, throughDay: covered.through, asOf: asOf,
                                     listsPending: header?.listsPending ?? false))
        }
        for id in seenThisStatement { try writer.noteListing(transactionID: id, asOf: asOf) }
        seenThisStatement = []
        seenOpenByAccount[account.id] = seenOpen
        if reissued > 0, let header {
            let message = "\(header.location): \(reissued) transaction(s) came with new ids for rows already stored "
                + "(the institution re-issued its ids): matched by their content, not stored again"
            report.warnings.append(message)
            report.attention.append(message)
        }
        reissued = 0
        writer.statementAsOf = nil
        self.account = nil
        self.header = nil
    }
}
