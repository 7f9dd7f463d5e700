import CofferModel
import CofferStore
import Foundation

/// One side of a written transaction: the transaction, its journal account and the day it is booked.
struct ExportedSide: Sendable {
    var transaction: Transaction
    /// The journal account of its Coffer account (sanitized).
    var account: String
    /// Its booking day (days since 1970-01-01): the posting date's day when it has one, else its own day.
    var day: Int
    /// Its category (lowercase).
    var category: String
}

/// A statement balance written as an assertion.
struct JournalAssertion: Sendable {
    var accountID: UUID
    var account: String
    /// The balance's day: the statement's as-of day.
    var day: Int
    /// The balance, signed from the holder's side (a card's debt is negative).
    var amount: Decimal
    var currency: String
    /// What the written postings give through that day, and whether that is the balance.
    var actual: Decimal
    var holds: Bool { actual == amount }
}

/// What an export writes, in order.
enum JournalEntry: Sendable {
    /// The balance an account had before its first written posting, against the opening-balances account.
    case opening(account: String, counter: String, day: Int, amount: Decimal, currency: String)
    /// A transaction against its counter-account (a category, or the transfers account).
    case single(ExportedSide, counter: String, assertion: JournalAssertion?)
    /// An own transfer, once: both sides, dated the earlier one's day (`first`).
    case transfer(first: ExportedSide, second: ExportedSide, firstAssertion: JournalAssertion?, secondAssertion: JournalAssertion?)
    /// A statement balance on a day without a written posting of its account to carry it (or in beancount, always).
    case assertion(JournalAssertion)

    var day: Int {
        switch self {
        case .opening(_, _, let day, _, _): day
        case .single(let side, _, _): side.day
        case .transfer(let first, _, _, _): first.day
        case .assertion(let assertion): assertion.day
        }
    }
}

/// The entries of one export, planned from the store's rows: which transactions are written and how, the opening
/// balances that make the statements' balances hold, and the balance assertions, each checked against what the
/// tool will compute (an assertion that would fail is written as a comment, with a warning).
struct ExportPlan: Sendable {
    var entries: [JournalEntry] = []
    var warnings: [String] = []
    /// Journal accounts used by the entries, with the currency when it is one Coffer account's.
    var accountsUsed: [String: String?] = [:]
    /// The Coffer account of each journal account that is one.
    var accountIDs: [String: UUID] = [:]
    /// The earliest day of anything in the export's universe (beancount's `open` date).
    var firstDay: Int?
    /// Keys of the assertions planned (`ACCOUNT-ID@DAY`), and the accounts given an opening balance.
    var assertedKeys: Set<String> = []
    var openedAccounts: [UUID: Decimal] = [:]
    /// The ids written.
    var written: Set<UUID> = []

    /// What is already in the journal, for an incremental export.
    struct Previous: Sendable {
        var exported: Set<UUID> = []
        var asserted: Set<String> = []
        /// The opening balances written, by account.
        var opened: [UUID: Decimal] = [:]
    }

    /// Plans the export of `transactions` (every row of the store; filtered here by `options`) with the statements'
    /// `balances`.
    static func make(accounts: [UUID: Account], transactions: [Transaction], balances: [AccountBalance],
                     maskedNumbers: [UUID: String] = [:], options: ExportOptions, names: JournalAccountNames,
                     classifier: ExportClassifier, previous: Previous = Previous()) -> ExportPlan {
        var plan = ExportPlan()
        let format = options.format
        let journalNames = Self.journalNames(accounts: accounts, names: names, format: format)
        func selected(_ accountID: UUID) -> Bool { accounts[accountID] != nil && (options.accountIDs?.contains(accountID) ?? true) }

        // The universe: every row the journal holds once this export is appended (written before, or now).
        let universe = transactions.filter {
            selected($0.accountID) && options.writes($0.status) && options.covers(day: bookingDay($0))
        }.sorted { (bookingDay($0), $0.transactionDate, $0.id.uuidString) < (bookingDay($1), $1.transactionDate, $1.id.uuidString) }
        // Own transfers are found among every account's rows: half of one whose other account is not exported goes
        // to the transfers account.
        let candidates = transactions.filter { accounts[$0.accountID] != nil && options.writes($0.status) }
        let transfers = classifier.ownTransfers(candidates, Array(accounts.values), maskedNumbers)
        var partners: [UUID: UUID] = [:]
        for pair in transfers.pairs {
            partners[pair.debit] = pair.credit
            partners[pair.credit] = pair.debit
        }

        // The day each posting counts on in the tool: hledger keeps a transfer's second side on its own day (a
        // posting date); beancount and ledger put both sides on the transaction's day, the earlier one's.
        var effectiveDay: [UUID: Int] = [:]
        let byID = Dictionary(universe.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for t in universe {
            var day = bookingDay(t)
            if format != .hledger, let partner = partners[t.id].flatMap({ byID[$0] }) { day = min(day, bookingDay(partner)) }
            effectiveDay[t.id] = day
        }
        plan.firstDay = universe.map { effectiveDay[$0.id]! }.min()

        // Entries for the rows not yet written.
        var emitted = Set<UUID>()
        func side(_ t: Transaction) -> ExportedSide {
            ExportedSide(transaction: t, account: journalNames[t.accountID]!, day: bookingDay(t),
                         category: classifier.category(t, accounts[t.accountID]))
        }
        for t in universe where !previous.exported.contains(t.id) && !emitted.contains(t.id) {
            emitted.insert(t.id)
            if let partnerID = partners[t.id] {
                if let partner = byID[partnerID], !previous.exported.contains(partnerID), !emitted.contains(partnerID) {
                    emitted.insert(partnerID)
                    var first = side(t), second = side(partner)
                    first.category = "transfer"
                    second.category = "transfer"
                    plan.entries.append(.transfer(first: first, second: second, firstAssertion: nil, secondAssertion: nil))
                    continue
                }
                var alone = side(t)
                alone.category = "transfer"
                plan.entries.append(.single(alone, counter: JournalText.account(names.transfers, for: format), assertion: nil))
                continue
            }
            if transfers.contains(t.id) {
                // A transfer rule names it, and its other side is not stored: the transfers account.
                var alone = side(t)
                alone.category = "transfer"
                plan.entries.append(.single(alone, counter: JournalText.account(names.transfers, for: format), assertion: nil))
                continue
            }
            let own = side(t)
            let counter = names.name(ofCategory: own.category, indicator: t.creditDebitIndicator)
            plan.entries.append(.single(own, counter: JournalText.account(counter, for: format), assertion: nil))
        }
        plan.written = emitted

        // Balances: booked, of a selected account in its own currency, in the range; the latest of each day.
        var dayBalances: [UUID: [Int: Balance]] = [:]
        for balance in balances where selected(balance.accountID) {
            guard let booked = balance.booked, booked.amount.currencyCode == accounts[balance.accountID]?.currencyCode else { continue }
            let day = StatementPeriod.lastDay(through: booked.asOfDate)
            guard options.covers(day: day) else { continue }
            if let other = dayBalances[balance.accountID]?[day], other.asOfDate > booked.asOfDate { continue }
            dayBalances[balance.accountID, default: [:]][day] = booked
        }

        // Running sums as the tool computes them.
        var postings: [UUID: [(day: Int, amount: Decimal)]] = [:]
        for t in universe { postings[t.accountID, default: []].append((effectiveDay[t.id]!, t.signedAmount)) }
        func total(_ accountID: UUID, through day: Int) -> Decimal {
            (postings[accountID] ?? []).reduce(Decimal(0)) { $1.day <= day ? $0 + $1.amount : $0 }
        }

        var assertions: [JournalAssertion] = []
        for accountID in dayBalances.keys.sorted(by: { journalNames[$0]! < journalNames[$1]! }) {
            let days = dayBalances[accountID]!.sorted { $0.key < $1.key }
            let account = accounts[accountID]!
            let name = journalNames[accountID]!
            // The opening balance makes the latest statement balance hold, so the journal ends where the bank says
            // the account stands; an earlier balance the transactions do not reach is the one left unasserted.
            let firstDay = days[0].key
            let (lastDay, lastBalance) = days[days.count - 1]
            let opening = previous.opened[accountID] ?? (lastBalance.signedAmount - total(accountID, through: lastDay))
            if previous.opened[accountID] == nil {
                plan.openedAccounts[accountID] = opening
                if opening != 0 {
                    let day = min(firstDay, (postings[accountID] ?? []).map(\.day).min() ?? firstDay)
                    plan.entries.append(.opening(account: name, counter: JournalText.account(names.opening, for: format),
                                                 day: day, amount: opening, currency: account.currencyCode))
                    plan.firstDay = min(plan.firstDay ?? day, day)
                }
            }
            for (day, balance) in days {
                let key = "\(accountID.uuidString)@\(day)"
                guard !previous.asserted.contains(key) else { continue }
                plan.assertedKeys.insert(key)
                let assertion = JournalAssertion(accountID: accountID, account: name, day: day, amount: balance.signedAmount,
                                                 currency: account.currencyCode, actual: opening + total(accountID, through: day))
                if !assertion.holds {
                    plan.warnings.append("the balance of \(account.displayName) (\(name)) on \(CalendarDay.string(day: day)) is "
                        + "\(JournalText.amount(assertion.amount)) \(assertion.currency) as the statement says, but the transactions "
                        + "written give \(JournalText.amount(assertion.actual)) (difference "
                        + "\(JournalText.amount(assertion.amount - assertion.actual))): the assertion is written as a comment "
                        + "(`coffer reconcile` says why)")
                }
                assertions.append(assertion)
            }
        }
        plan.firstDay = [plan.firstDay, assertions.map(\.day).min()].compactMap { $0 }.min()

        // Order: by day; on a day, openings, then transactions, then assertions that no posting carries.
        func rank(_ entry: JournalEntry) -> Int {
            switch entry { case .opening: 0; case .single, .transfer: 1; case .assertion: 2 }
        }
        plan.entries = plan.entries.enumerated().sorted {
            ($0.element.day, rank($0.element), $0.offset) < ($1.element.day, rank($1.element), $1.offset)
        }.map(\.element)

        // hledger and ledger carry an assertion on the account's last posting of its day, when this export writes
        // one there (a posting dated on another day than its transaction, hledger's transfer side, does not carry
        // it); beancount's `balance` stands alone, dated the next day.
        for assertion in assertions {
            if format == .hledger || format == .ledger, plan.attach(assertion) { continue }
            plan.entries.append(.assertion(assertion))
        }
        plan.entries = plan.entries.enumerated().sorted {
            ($0.element.day, rank($0.element), $0.offset) < ($1.element.day, rank($1.element), $1.offset)
        }.map(\.element)

        for (id, name) in journalNames { plan.accountIDs[name] = id }
        for entry in plan.entries {
            switch entry {
            case .opening(let account, let counter, _, _, let currency):
                plan.accountsUsed[account] = currency
                plan.accountsUsed[counter] = plan.accountsUsed[counter] ?? .some(nil)
            case .single(let side, let counter, _):
                plan.accountsUsed[side.account] = side.transaction.transactionAmount.currencyCode
                plan.accountsUsed[counter] = plan.accountsUsed[counter] ?? .some(nil)
            case .transfer(let first, let second, _, _):
                plan.accountsUsed[first.account] = first.transaction.transactionAmount.currencyCode
                plan.accountsUsed[second.account] = second.transaction.transactionAmount.currencyCode
            case .assertion(let assertion):
                plan.accountsUsed[assertion.account] = assertion.currency
            }
        }
        return plan
    }

    /// Puts the assertion on the last posting of its account on its day, if this export writes one.
    private mutating func attach(_ assertion: JournalAssertion) -> Bool {
        for index in entries.indices.reversed() where entries[index].day == assertion.day {
            switch entries[index] {
            case .single(let side, let counter, nil) where side.transaction.accountID == assertion.accountID:
                entries[index] = .single(side, counter: counter, assertion: assertion)
                return true
            case .transfer(let first, let second, let a, let b):
                if first.transaction.accountID == assertion.accountID, a == nil {
                    entries[index] = .transfer(first: first, second: second, firstAssertion: assertion, secondAssertion: b)
                    return true
                }
                if second.transaction.accountID == assertion.accountID, b == nil, second.day == first.day {
                    entries[index] = .transfer(first: first, second: second, firstAssertion: a, secondAssertion: assertion)
                    return true
                }
            default:
                continue
            }
        }
        return false
    }

    /// The day a transaction is booked on: its posting date's (UTC) day, else its own day.
    static func bookingDay(_ t: Transaction) -> Int {
        t.postedDate.map(CalendarDay.dayNumber) ?? t.localDay
    }

    /// Each account's journal name, sanitized for the format; two accounts that would share a name are told apart
    /// by the start of their ids.
    static func journalNames(accounts: [UUID: Account], names: JournalAccountNames, format: ExportFormat) -> [UUID: String] {
        var result: [UUID: String] = [:]
        var byName: [String: [UUID]] = [:]
        for (id, account) in accounts {
            let name = JournalText.account(names.name(of: account), for: format)
            result[id] = name
            byName[name, default: []].append(id)
        }
        for (name, ids) in byName where ids.count > 1 {
            for id in ids where names.accounts[id] == nil {
                result[id] = name + (format == .beancount ? "-" : " ") + String(id.uuidString.prefix(4))
            }
        }
        return result
    }
}
