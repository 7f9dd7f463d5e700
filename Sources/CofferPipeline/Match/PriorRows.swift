import CofferModel
import CofferStore
import Foundation

/// The rows an account held before this file's import began, as (local day, amount, direction) keys, read from the
/// store a block of days at a time as records need them.
///
/// Why: a re-issued id is looked for among the stored rows of the record's amount and direction on its days
/// (`Matcher.reissueMatch`), and a row this file stored never qualifies (it is listed). In an account that held
/// rows before the file, every record of the file asked SQLite, which walked every row of those days, this file's
/// own included, and decoded each one of the record's amount: a 20,000-transaction camt statement took 91 s to
/// import into an account holding a few rows of the same quarter, against 0.74 s into a new one, and it grew with
/// the square of the rows a day. The keys answer "no such row" without a query; a block is read once per file,
/// usually before this file adds rows to it. A row this file updates adds its new values (`note`); a key that
/// matches by chance (a hash collision, a row's values before this file changed them) only lets the query run,
/// which decides as before. `Matcher.crossSourceMatch` asks it too, where this file's own rows cannot qualify.
/// It keeps each key's row ids too (up to `maxIDs` rows), so the look-up reads those rows by id instead of walking
/// the days' rows: in a day of thousands of this file's rows of a few amounts, that walk was still quadratic.
final class PriorRows {
    /// Days a block holds: a record's look-up spans at most `Matcher.pendingDays` + 1 days, so one or two blocks.
    static let blockDays = 32
    let writer: StoreWriter
    let accountID: UUID
    /// The change log's last sequence number when the import began: rows stored before it have `created_seq` at most this.
    let storedThrough: Int64
    private var loaded = Set<Int>()
    private var keys = HashSet64()
    /// The rows under each key, while no more than `maxIDs` were read (a few MB); past that, `ids` says nil and the
    /// look-up walks the days in SQL.
    private var idsByKey: [UInt64: [UUID]]? = [:]
    private var idCount = 0
    static let maxIDs = 200_000

    init(writer: StoreWriter, accountID: UUID, storedThrough: Int64) {
        self.writer = writer
        self.accountID = accountID
        self.storedThrough = storedThrough
    }

    /// Whether the account held, before this file, a row of this amount and direction on one of the local days given.
    func mayHold(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) throws -> Bool {
        guard fromDay <= throughDay else { return false }
        let first = Self.block(of: fromDay), last = Self.block(of: throughDay)
        for block in first...last where !loaded.contains(block) {
            let start = block * Self.blockDays
            try writer.amountKeys(accountID: accountID, fromDay: start, throughDay: start + Self.blockDays - 1,
                                  storedThrough: storedThrough) { day, scaled, indicator, id in
                let key = Self.key(day: day, scaled: scaled, indicator: indicator)
                _ = keys.insert(key)
                remember(id, under: key)
            }
            loaded.insert(block)
        }
        let scaled = StoreWriter.scaled(amount)
        for day in fromDay...throughDay where keys.contains(Self.key(day: day, scaled: scaled, indicator: Int(indicator.rawValue))) {
            return true
        }
        return false
    }

    /// The ids of the rows from before the file under these keys (a superset: the caller's query holds each to its
    /// current values), or nil when they were too many to keep. Call `mayHold` first: it reads the blocks.
    func ids(fromDay: Int, throughDay: Int, amount: Decimal, indicator: CreditDebitIndicator) -> [UUID]? {
        guard let idsByKey else { return nil }
        let scaled = StoreWriter.scaled(amount)
        var found: [UUID] = []
        var seen = Set<UUID>()  // a row this file updated is under its old key and its new one
        for day in fromDay...throughDay {
            for id in idsByKey[Self.key(day: day, scaled: scaled, indicator: Int(indicator.rawValue))] ?? []
            where seen.insert(id).inserted {
                found.append(id)
            }
        }
        return found
    }

    /// Adds a row's values as they are now (a row this file updated): its block, once read, must answer for them
    /// too. (A block read later reads the row's values from the store.)
    func note(_ row: Transaction) {
        guard loaded.contains(Self.block(of: row.localDay)) else { return }
        let key = Self.key(day: row.localDay, scaled: StoreWriter.scaled(row.transactionAmount.amount),
                           indicator: Int(row.creditDebitIndicator.rawValue))
        _ = keys.insert(key)
        remember(row.id, under: key)
    }

    private func remember(_ id: UUID, under key: UInt64) {
        guard idsByKey != nil else { return }
        idCount += 1
        if idCount > Self.maxIDs { idsByKey = nil } else { idsByKey![key, default: []].append(id) }
    }

    /// The block of days `day` falls in (rounding down, before 1970 too).
    static func block(of day: Int) -> Int { day >= 0 ? day / blockDays : (day - blockDays + 1) / blockDays }

    /// A row's three values mixed into one well-spread 64-bit key (SplitMix64's finalizer).
    static func key(day: Int, scaled: Int64, indicator: Int) -> UInt64 {
        var x = UInt64(bitPattern: scaled) &* 0x9E37_79B9_7F4A_7C15
        x ^= UInt64(bitPattern: Int64(day)) &+ (UInt64(truncatingIfNeeded: indicator) << 56)
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
}
