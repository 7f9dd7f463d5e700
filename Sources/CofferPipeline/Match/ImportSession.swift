import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// The match/dedupe stage for one statement file, run on the thread holding its write transaction. Transactions
/// arrive prepared (normalized, fingerprinted, numbered: see `TransactionPreparer`) from the parsing thread.
/// The session keeps the statement lifecycle (resolving each statement's account, its period, balances and as-of
/// time) and the report; `Matcher` decides what each record is (docs/dedupe.md) and the session applies it.
/// Once the file is read, stored pending transactions dated within a period one of its statements covers that
/// no statement of the file lists for that account are deleted, when that statement is newer than every listing.
final class ImportSession {
    let writer: StoreWriter
    let fileName: String
    var report: FileReport
    let collectChanges: Bool
    let progress: ((Int) -> Void)?
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
    /// The match policy, and what this file has matched so far.
    var matcher: Matcher
    /// The current account's stored rows, as the matcher asks for them.
    var candidates: StoreCandidates?
    /// Per account, the posting reach the matcher found (see `Matcher.postingReach`): asked once per file.
    private var postingReachByAccount: [UUID: Int] = [:]
    /// Each account's rows from before this file (`PriorRows`), kept across the file's statements.
    var priorRows: [UUID: PriorRows] = [:]
    /// The change log's last sequence number when this file's import began.
    let storedThrough: Int64
    /// Rows of the current statement whose id the bank re-issued.
    var reissued = 0
    /// Listings of the current statement whose text a row may take, decided at its end (`resolveDeferredTexts`).
    var deferredTexts: [(id: UUID, listing: Transaction, wasUnchanged: Bool)] = []
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
        self.matcher = Matcher(namespace: idNamespace, checkTombstones: try writer.hasTombstones())
        self.storedThrough = try writer.lastSequence()
        writer.recordSource = idNamespace.isEmpty ? nil : idNamespace
        if collectChanges { self.report.changes = [] }
    }

    /// Handles one event; for a statement header, returns its account (resolved or created).
    func handle(_ event: consuming PreparedEvent) throws -> ResolvedAccount? {
        switch consume event {
        case .begin(let header):
            let account = try begin(header)
            return ResolvedAccount(id: account.id, currencyCode: account.currencyCode,
                                   names: [account.displayName] + (account.accountDescription.map { [$0] } ?? []),
                                   mayHoldFileWideOccurrences: try writer.mayHoldFileWideOccurrences(accountID: account.id))
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
                guard Matcher.retires(stored.transaction, listedAsOf: try writer.listingAsOf(transactionID: stored.transaction.id),
                                      asOf: window.asOf, throughDay: window.throughDay, listsPending: window.listsPending)
                else { continue }
                try writer.delete(stored, retiredAsOf: window.asOf)
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
        writer.statementAsOf = header.asOf.map { StoreWriter.millis($0.date) }
        matcher.statementAsOf = writer.statementAsOf
        let facts = try writer.facts(accountID: account.id)
        matcher.facts = facts
        matcher.latestStoredDay = facts.hasTransactions ? try writer.latestLocalDay(accountID: account.id) : nil
        // Asked once per account and file (a scan of its rows): a file of many daily statements asks once.
        if postingReachByAccount[account.id] == nil {
            postingReachByAccount[account.id] = try facts.hasTransactions && writer.hasRowsPostedLater(accountID: account.id)
                ? Matcher.pendingDays : 1
        }
        matcher.postingReach = postingReachByAccount[account.id]!
        matcher.idsOutsideNamespace = try !idNamespace.isEmpty && facts.hasExternalIDs
            && writer.hasExternalIDs(accountID: account.id, outside: idNamespace + ":")
        if let start = header.periodStart?.localDay, let end = header.periodEnd?.localDay, start <= end {
            matcher.period = start...end
        } else {
            matcher.period = nil
        }
        if priorRows[account.id] == nil {
            priorRows[account.id] = PriorRows(writer: writer, accountID: account.id, storedThrough: storedThrough)
        }
        candidates = StoreCandidates(writer: writer, accountID: account.id, prior: priorRows[account.id])
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
                           asOf: asOf, accountID: account.id)
        }
        deferredOpen = []
        try resolveDeferredTexts(asOf: asOf)
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
        postingReachByAccount[account.id] = matcher.postingReach
        writer.statementAsOf = nil
        matcher.statementAsOf = nil
        candidates = nil
        self.account = nil
        self.header = nil
    }
}
