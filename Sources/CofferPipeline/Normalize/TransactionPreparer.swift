import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// A parsed transaction with everything that needs no store look-up worked out: its normalized `Transaction`
/// (in its stored account), its fingerprint and occurrence number, its institution id unless the file repeats
/// it, and its encoded amounts. Made on the import's parsing thread (see `ImportPipe`).
struct PreparedTransaction: Sendable {
    var raw: RawTransaction
    var transaction: Transaction
    var fingerprint: Fingerprint
    /// 1 for the first transaction of this fingerprint in this account in the file, 2 for the second…
    var occurrence: Int
    /// The occurrence as versions before 2026-11 numbered it (over the whole file, not per day).
    var legacyOccurrence = 1
    /// The institution's id; `nil` when an earlier transaction of the file already had it for this account.
    var externalID: String?
    var repeatedID: Bool
    var amounts: EncodedAmounts
}

/// What flows from the parsing thread to the writing thread: the parser's events, transactions prepared.
enum PreparedEvent: Sendable {
    case begin(RawStatementHeader)
    case transaction(PreparedTransaction)
    case balance(RawBalance)
    case end
    case warning(ParseWarning)
}

/// The account a statement's transactions belong to, as the writing side resolved it.
struct ResolvedAccount: Sendable {
    var id: UUID
    var currencyCode: String
    /// The account's display name and description: what a merchant rule's `account` may name it by.
    var names: [String] = []
    /// Whether rows or tombstones an earlier version stored may carry file-wide occurrence numbers (the account is
    /// marked by migration v21): when false, the preparer numbers the rows per day only (`TransactionPreparer`),
    /// keeping no file-wide set (11 MB at a million transactions).
    var mayHoldFileWideOccurrences = true
}

/// The normalize stage: raw transaction → normalized `Transaction`, fingerprint and occurrence, encoded amounts.
///
/// It keeps the only per-file memory that grows with the file: one 64-bit hash per institution id and per
/// fingerprint (about 11 MB each for a million transactions), to number identical transactions and to notice a
/// repeated id; a second fingerprint set for the file-wide numbers only for accounts migration v21 marked. At each
/// statement header it asks `resolveAccount` (the writing side, which owns the store) for the account, so the
/// transactions it prepares are final.
struct TransactionPreparer {
    let normalizer: DescriptionNormalizer
    /// How the format calls the institution's id, for the repeated-id warning ("FITID").
    let idName: String
    /// Prefixed to the institution's ids (`ofx:`, `camt:`, `csv:chase-checking:`): see `StatementFormat.idNamespace`.
    let idNamespace: String
    /// The account id before any statement header, and without a store.
    static let noAccount = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    private var account = ResolvedAccount(id: noAccount, currencyCode: "")
    /// Which merchant rules the current account meets (worked out once per statement); empty when no rule names an
    /// account.
    private var accountMatches: [Bool] = []
    private var salt: UInt64 = 0
    private var seenIDs = HashSet64()
    private var seenFingerprints = HashSet64()
    /// Occurrence counts of the fingerprints seen more than once, over the file (legacy) and per day.
    private var repeats: [UInt64: Int] = [:]
    private var seenDayFingerprints = HashSet64()
    /// Whether the current account's file-wide occurrences are counted (`ResolvedAccount.mayHoldFileWideOccurrences`).
    private var countFileWide = true
    private var dayRepeats: [UInt64: Int] = [:]
    /// Ids that grow in the order rows are read, so the primary-key index takes them at its end.
    private var ids = MonotonicUUIDs()
    /// One clock reading per 10,000 transactions is enough for the time-ordered ids' millisecond part.
    private var now = Date()
    private var count = 0

    init(normalizer: DescriptionNormalizer, idName: String = "id", idNamespace: String = "") {
        self.normalizer = normalizer
        self.idName = idName
        self.idNamespace = idNamespace
    }

    mutating func prepare(_ event: consuming StatementEvent, resolveAccount: (RawStatementHeader) throws -> ResolvedAccount,
                          emit: (consuming PreparedEvent) throws -> Void) throws {
        // The event is consumed, and a transaction's raw record moves on into the prepared transaction: borrowed, it
        // was copied (its strings retained) here and released by the parser.
        switch consume event {
        case .begin(let header):
            try emit(.begin(header))
            account = try resolveAccount(header)
            accountMatches = normalizer.rules.rules.contains { !$0.accounts.isEmpty }
                ? normalizer.rules.accountMatches(id: account.id, names: account.names) : []
            salt = withUnsafeBytes(of: account.id.uuid) { $0.load(as: UInt64.self) }
            countFileWide = account.mayHoldFileWideOccurrences
        case .transaction(let raw):
            count += 1
            if count % 10_000 == 0 { now = Date() }
            // Made in parts and numbered before the prepared transaction is put together, in its event: numbered
            // afterwards, as a variable (or a `consuming` parameter returned), it was copied into the event, its
            // strings retained and then released with the variable (callgrind).
            let (transaction, fingerprint, amounts) = try Self.normalize(raw, id: ids.next(at: now), account: account,
                                                                         normalizer: normalizer, accountMatches: accountMatches)
            let numbered = try number(fingerprint, day: transaction.localDay,
                                      externalID: raw.externalID.flatMap { $0.isEmpty ? nil : $0 }, at: raw.location, emit: emit)
            try emit(.transaction(PreparedTransaction(
                raw: raw, transaction: consume transaction, fingerprint: fingerprint, occurrence: numbered.occurrence,
                legacyOccurrence: numbered.legacyOccurrence, externalID: numbered.externalID,
                repeatedID: numbered.repeatedID, amounts: amounts)))
        case .balance(let raw): try emit(.balance(raw))
        case .end: try emit(.end)
        case .warning(let warning): try emit(.warning(warning))
        }
    }

    /// How a transaction is numbered among the file's records of its account.
    struct Numbering {
        /// 1 for the first record of its fingerprint on its local day, 2 for the second…
        var occurrence = 1
        /// The occurrence over the whole file, as versions before 2026-11 numbered it.
        var legacyOccurrence = 1
        /// The institution's id, namespaced; nil when an earlier record of the file had it.
        var externalID: String?
        var repeatedID = false
    }

    /// Numbers a record by its fingerprint, local day and institution id: its occurrence per day and over the
    /// file, and whether its id was seen before (then it is kept, matched by its content, with a warning).
    private mutating func number(_ fingerprint: Fingerprint, day localDay: Int, externalID: String?, at location: SourceLocation,
                                 emit: (consuming PreparedEvent) throws -> Void) throws -> Numbering {
        var numbering = Numbering(externalID: externalID)
        // The occurrence counts identical records of one local day (the 2nd coffee of the day is 2). Versions before
        // 2026-11 counted over the whole file (a salary of the same amount next month was 2 as well): that
        // number is kept beside it, so rows they stored are still found.
        let day = UInt64(bitPattern: Int64(localDay))
        let key = fingerprint.hash ^ salt
        let dayKey = key ^ (day &* 0x9E37_79B9_7F4A_7C15)
        if !seenDayFingerprints.insert(dayKey) {
            let occurrence = (dayRepeats[dayKey] ?? 1) + 1
            dayRepeats[dayKey] = occurrence
            numbering.occurrence = occurrence
        }
        if !countFileWide {
            numbering.legacyOccurrence = numbering.occurrence  // nothing stored under a file-wide number to find
        } else if !seenFingerprints.insert(key) {
            let occurrence = (repeats[key] ?? 1) + 1
            repeats[key] = occurrence
            numbering.legacyOccurrence = occurrence
        }
        if let id = externalID, !seenIDs.insert(Self.hash(id) ^ salt) {
            // Kept, and matched by its content instead of its id.
            numbering.externalID = nil
            numbering.repeatedID = true
            try emit(.warning(ParseWarning("\(idName) '\(id)' appears more than once for this account in this file; both are kept",
                                           location: location)))
        }
        if !idNamespace.isEmpty, let id = numbering.externalID {
            // Written into the string's storage: `idNamespace + ":" + id` was 860 instructions a transaction.
            numbering.externalID = UTF8Builder.make(capacity: idNamespace.utf8.count &+ 1 &+ id.utf8.count) { text in
                text.put(idNamespace)
                text.put(UInt8(ascii: ":"))
                text.put(id)
            }
        }
        return numbering
    }

    /// The normalized transaction of `raw`, its fingerprint and its encoded amounts.
    static func normalize(_ raw: RawTransaction, id: UUID, account: ResolvedAccount, normalizer: DescriptionNormalizer,
                          accountMatches: [Bool] = []) throws -> (Transaction, Fingerprint, EncodedAmounts) {
        guard let date = raw.transactionDate ?? raw.postedDate else {
            throw CofferError(.badInput, "the transaction has no date", location: raw.location)
        }
        let text = normalizer.normalize(raw, accountMatches: accountMatches)
        let currency = (raw.currencyCode ?? account.currencyCode).uppercased()
        let foreign: CurrencyAmount? = {
            guard let amount = raw.foreignAmount, let code = raw.foreignCurrencyCode, code.uppercased() != currency else { return nil }
            return CurrencyAmount(amount: amount.magnitude, currencyCode: code.uppercased())
        }()
        let transaction = Transaction(
            id: id, accountID: account.id,
            transactionAmount: CurrencyAmount(amount: raw.amount.magnitude, currencyCode: currency),
            foreignCurrencyAmount: foreign, foreignCurrencyExchangeRate: foreign == nil ? nil : raw.exchangeRate,
            creditDebitIndicator: raw.resolvedIndicator, transactionDescription: text.display,
            originalTransactionDescription: DescriptionNormalizer.originalDescription(of: raw),
            merchantCategoryCode: text.merchantCategoryCode, merchantName: text.merchantName,
            transactionType: text.transactionType, status: raw.status ?? .booked,
            transactionDate: date.date, postedDate: raw.transactionDate == nil ? nil : raw.postedDate?.date,
            timeZoneOffset: date.storedOffset)
        // The fingerprint and the amounts borrow the transaction, which then moves into the prepared one: passed
        // beside them to their initializers (which take arguments owned), it was copied three times (callgrind).
        let fingerprint = Fingerprint(transaction: transaction)
        let amounts = EncodedAmounts(transaction)
        return (consume transaction, fingerprint, amounts)
    }

    /// FNV-1a, stable across processes (unlike `Hasher`).
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return h
    }
}
