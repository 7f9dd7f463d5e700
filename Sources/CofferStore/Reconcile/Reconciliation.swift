import CofferModel
import Foundation

/// What `coffer reconcile` finds for one account: the days its imported statements cover, the days between them no
/// statement covers, balances that do not follow from the transactions, and pending rows that stayed pending.
///
/// For example:
/// ```swift
/// for account in try await store.reconcile() where account.needsAttention {
///     for gap in account.gaps { print(gap.first, gap.last) }
/// }
/// ```
public struct AccountReconciliation: Sendable {
    /// A run of days statements cover, merged over overlapping and adjoining statements.
    public struct Covered: Sendable, Hashable {
        /// The first day covered.
        public var first: Date
        /// The last day covered.
        public var last: Date
        /// How many statements cover the run.
        public var statements: Int
    }

    /// Days between two covered runs that no statement covers.
    public struct Gap: Sendable, Hashable {
        /// The first day no statement covers.
        public var first: Date
        /// The last day no statement covers.
        public var last: Date
        /// How many days that is.
        public var days: Int
        /// Both statements around it state their periods, or it spans `Reconciliation.unstatedGapDays` days or more;
        /// otherwise a statement beside it states no period (a CSV export covers its first to its last row), and
        /// the days without rows may have had no transactions.
        public var needsAttention: Bool
    }

    /// The account reconciled.
    public var accountID: UUID
    /// The account's statements, in the order of their periods (a file imported again with `--force` once).
    public var statements: [StatementPeriod]
    /// The runs of days statements cover, oldest first.
    public var covered: [Covered]
    /// The days between covered runs, oldest first.
    public var gaps: [Gap]
    /// Balances that do not follow, in the order of their statements.
    public var mismatches: [BalanceMismatch]
    /// How many of its statements report a closing balance.
    public var balancesReported: Int
    /// How many OFX `LEDGERBAL`s were checked against the balance before them.
    public var sequenceChecks: Int
    /// What "older than 14 days" is measured from: the newest statement's as-of time, else (statements imported
    /// before they were recorded) the account's newest transaction date.
    public var reference: Date?
    /// Pending or authorized rows dated more than `Reconciliation.staleDays` days before `reference`, oldest first.
    public var stalePending: [Transaction]

    /// A person should look: a gap that needs attention, a balance that does not follow, a stale pending row.
    public var needsAttention: Bool {
        gaps.contains(where: \.needsAttention) || !mismatches.isEmpty || !stalePending.isEmpty
    }
}

/// The reconciliation policy: pure functions of the stored statements and transactions.
package enum Reconciliation {
    /// A pending or authorized row older than this many days (before the newest statement) needs a look.
    package static let staleDays = 14
    /// A gap beside a statement without a stated period needs a look from this many days on (a week without a row).
    package static let unstatedGapDays = 7

    /// The report for one account: `statements` its recorded statements, `daily` its booked transactions per
    /// currency, `open` its pending and authorized rows, `newestTransaction` its newest transaction date.
    package static func account(_ accountID: UUID, statements: [StatementPeriod], daily: [String: DailyBooked],
                               open: [Transaction], newestTransaction: Date?) -> AccountReconciliation {
        let unique = distinct(statements).sorted {
            ($0.start ?? $0.asOf, $0.end ?? $0.asOf, $0.id) < ($1.start ?? $1.asOf, $1.end ?? $1.asOf, $1.id)
        }
        let (covered, gaps) = coverage(unique)
        var mismatches: [BalanceMismatch] = []
        var checks = 0
        for statement in unique {
            if let own = BalanceChain.ownMismatch(statement) { mismatches.append(own) }
            guard BalanceChain.isChained(statement), let previous = BalanceChain.previous(of: statement, in: unique),
                  let days = BalanceChain.days(after: previous, through: statement),
                  let booked = daily[statement.currencyCode, default: DailyBooked([])].between(after: days.after, through: days.through)
            else { continue }
            checks += 1
            if let mismatch = BalanceChain.mismatch(statement, after: previous, booked: booked, gaps: gaps) {
                mismatches.append(mismatch)
            }
        }
        let reference = unique.map(\.asOf).max() ?? newestTransaction
        let stale = reference.map { reference in
            open.filter { daysOld($0, at: reference) > staleDays }
                .sorted { ($0.transactionDate, $0.id.uuidString) < ($1.transactionDate, $1.id.uuidString) }
        } ?? []
        return AccountReconciliation(accountID: accountID, statements: unique, covered: covered, gaps: gaps,
                                     mismatches: mismatches, balancesReported: unique.filter { $0.closing != nil }.count,
                                     sequenceChecks: checks, reference: reference,
                                     stalePending: stale)
    }

    /// How many days before `reference` a transaction is dated (UTC days).
    package static func daysOld(_ transaction: Transaction, at reference: Date) -> Int {
        CalendarDay.dayNumber(reference) - CalendarDay.dayNumber(transaction.transactionDate)
    }

    /// The statements without repeats: a file imported again (`--force`, or a copy under another name) records the
    /// same statement again; the first import of it stands for all.
    static func distinct(_ statements: [StatementPeriod]) -> [StatementPeriod] {
        var seen: Set<StatementPeriod> = []
        return statements.sorted { $0.id < $1.id }.filter { statement in
            var key = statement
            key.id = 0
            key.importID = 0
            key.path = ""
            key.location = ""
            key.closing?.location = nil
            key.balanceProblem = nil
            return seen.insert(key).inserted
        }
    }

    /// Merged covered days and the gaps between them.
    static func coverage(_ statements: [StatementPeriod]) -> ([AccountReconciliation.Covered], [AccountReconciliation.Gap]) {
        struct Run {
            var first: Int, last: Int, statements: Int
            /// Whether the statements that set each end state their periods.
            var firstStated: Bool, lastStated: Bool
        }
        var runs: [Run] = []
        let spans = statements.compactMap { s in s.days.map { ($0, s.periodStated) } }.sorted { $0.0.lowerBound < $1.0.lowerBound }
        for (days, stated) in spans {
            if var run = runs.last, days.lowerBound <= run.last + 1 {
                if days.lowerBound == run.first { run.firstStated = run.firstStated || stated }
                if days.upperBound > run.last {
                    run.last = days.upperBound
                    run.lastStated = stated
                } else if days.upperBound == run.last {
                    run.lastStated = run.lastStated || stated
                }
                run.statements += 1
                runs[runs.count - 1] = run
            } else {
                runs.append(Run(first: days.lowerBound, last: days.upperBound, statements: 1,
                                firstStated: stated, lastStated: stated))
            }
        }
        let covered = runs.map {
            AccountReconciliation.Covered(first: BalanceChain.date($0.first), last: BalanceChain.date($0.last), statements: $0.statements)
        }
        let gaps = zip(runs, runs.dropFirst()).map { before, after in
            let days = after.first - before.last - 1
            return AccountReconciliation.Gap(first: BalanceChain.date(before.last + 1), last: BalanceChain.date(after.first - 1),
                                             days: days,
                                             needsAttention: (before.lastStated && after.firstStated) || days >= unstatedGapDays)
        }
        return (covered, gaps)
    }
}
