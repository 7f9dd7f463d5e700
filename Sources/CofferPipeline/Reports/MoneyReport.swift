import CofferModel
import Foundation

/// Spending, income or cash flow of a set of transactions, grouped (by month, category, merchant, …), one total per
/// currency, never summed across currencies: what `coffer report spending|income|cashflow` prints.
///
/// For example:
/// ```swift
/// let report = MoneyReport(kind: .spending, grouping: .category, transactions: march,
///                          ownTransfers: transfers, categorizer: configuration.categorizer, accounts: accounts)
/// report.groups.first?.label                  // "groceries"
/// report.groups.first?.cells["USD"]?.value    // 182.40: spent minus refunded, exact
/// report.total["EUR"]?.count                  // how many transactions counted
/// ```
/// The definitions (README "Reports"; `role(of:)` decides per transaction):
/// - **spending**: debits of types pointOfSale, billPayment, directDebit, standingOrder, check, fee, atm,
///   withdrawal and unknown, minus refunds (credits of type refund);
/// - **income**: credits of types directDeposit, deposit, interest, dividend and unknown;
/// - **cash flow**: every transaction: money in is the credits other than refunds, money out the debits minus the
///   refunds, net the two's difference;
/// - in all three, own transfers (`OwnTransfers`) are left out. Which statuses count is the caller's filter (the
///   command counts booked rows unless `--status` says otherwise).
package struct MoneyReport: Sendable {
    /// Which question the report answers.
    package enum Kind: String, Sendable, CaseIterable {
        case spending, income, cashflow
    }

    /// What the transactions are grouped by.
    package enum Grouping: String, Sendable, CaseIterable {
        case day, week, month, category, merchant, mcc, account

        /// Whether the groups are periods of time (in order, gaps filled) rather than names (largest first).
        package var isTime: Bool { self == .day || self == .week || self == .month }
    }

    /// What a transaction is to a report.
    package enum Role: Sendable, Hashable {
        /// Money spent (a debit).
        case spent
        /// Money given back (a refund): it lowers spending.
        case refunded
        /// Money received.
        case received
    }

    /// One group's figures in one currency.
    package struct Cell: Sendable, Hashable {
        package var spent: Decimal = 0
        package var refunded: Decimal = 0
        package var received: Decimal = 0
        package var spentCount = 0
        package var refundedCount = 0
        package var receivedCount = 0

        package init() {}

        /// Money out: spent minus refunded (what spending reports).
        package var outflow: Decimal { spent - refunded }
        /// Money in: received (what income reports).
        package var inflow: Decimal { received }
        /// In minus out.
        package var net: Decimal { received - outflow }
        /// The transactions counted.
        package var count: Int { spentCount + refundedCount + receivedCount }

        /// The figure the report's kind shows: spending's outflow, income's inflow, cash flow's net.
        package func value(_ kind: Kind) -> Decimal {
            switch kind {
            case .spending: outflow
            case .income: inflow
            case .cashflow: net
            }
        }

        mutating func add(_ amount: Decimal, as role: Role) {
            switch role {
            case .spent: spent += amount; spentCount += 1
            case .refunded: refunded += amount; refundedCount += 1
            case .received: received += amount; receivedCount += 1
            }
        }
    }

    /// One group: a period, a category, a merchant, an MCC or an account.
    package struct Group: Sendable, Hashable {
        /// What identifies it: `2026-03`, `2026-03-09` (a week's Monday), a category, an MCC's four digits
        /// (`none`), an account's id, a merchant's name.
        package var key: String
        /// What people read: `2026-03`, `2026-W11`, `5814 Fast Food Restaurants`, an account's name.
        package var label: String
        /// A period's first day.
        package var start: Date?
        /// By currency code.
        package var cells: [String: Cell] = [:]
    }

    package var kind: Kind
    package var grouping: Grouping
    /// The groups: periods in order, others largest first (in `primaryCurrency`, then by label).
    package var groups: [Group]
    /// The currencies the groups have figures in, alphabetically: one column each.
    package var currencies: [String]
    /// The totals of every transaction counted, by currency (with `top`, also of the groups left out).
    package var total: [String: Cell]
    /// How many groups `top` left out.
    package var omittedGroups = 0

    /// The currency with the most transactions counted (alphabetically first among equals): groups are ranked by it.
    package var primaryCurrency: String? {
        currencies.max { a, b in
            let x = total[a]?.count ?? 0, y = total[b]?.count ?? 0
            return x != y ? x < y : a > b
        }
    }

    /// What a transaction is to a report of `kind`, or nil when the report leaves it out. Own transfers are left out
    /// by the caller (`ownTransfers`).
    package static func role(of transaction: Transaction, kind: Kind) -> Role? {
        let type = transaction.transactionType
        switch (kind, transaction.creditDebitIndicator) {
        case (.spending, .debit): return spendingTypes.contains(type) ? .spent : nil
        case (.spending, .credit): return type == .refund ? .refunded : nil
        case (.income, .credit): return incomeTypes.contains(type) ? .received : nil
        case (.income, .debit): return nil
        case (.cashflow, .debit): return .spent
        case (.cashflow, .credit): return type == .refund ? .refunded : .received
        }
    }

    /// The types whose debits are spending.
    package static let spendingTypes: Set<TransactionType> = [.pointOfSale, .billPayment, .directDebit, .standingOrder, .check,
                                                               .fee, .atm, .withdrawal, .unknown]
    /// The types whose credits are income.
    package static let incomeTypes: Set<TransactionType> = [.directDeposit, .deposit, .interest, .dividend, .unknown]

    /// Builds the report of `transactions` (already filtered: status, account, dates, …).
    ///
    /// - Parameters:
    ///   - ownTransfers: left out of every kind.
    ///   - categorizer: for `.category`.
    ///   - accounts: names for `.account`.
    ///   - top: keep the `top` largest groups (by the primary currency's figure); the totals keep everything.
    ///   - days: for periods, the bank's days (`CalendarDay.dayNumber`) to cover: every period from the first's to
    ///     the last's is listed, empty ones too; nil: from the first transaction's to the last's.
    package init(kind: Kind, grouping: Grouping, transactions: [Transaction], ownTransfers: OwnTransfers = OwnTransfers(),
                 categorizer: Categorizer = .empty, accounts: [Account] = [], top: Int? = nil, days: ClosedRange<Int>? = nil) {
        self.kind = kind
        self.grouping = grouping
        let accountsByID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var counted: [(Transaction, Role)] = []
        for transaction in transactions where !ownTransfers.contains(transaction.id) {
            if let role = Self.role(of: transaction, kind: kind) { counted.append((transaction, role)) }
        }
        let categories = grouping == .category
            ? categorizer.categories(of: counted.map(\.0), accounts: accounts) : [:]
        var groups: [String: Group] = [:]
        var total: [String: Cell] = [:]
        for (transaction, role) in counted {
            let (key, label, start) = Self.group(of: transaction, grouping, categories: categories, accounts: accountsByID)
            let currency = transaction.transactionAmount.currencyCode
            groups[key, default: Group(key: key, label: label, start: start)].cells[currency, default: Cell()]
                .add(transaction.transactionAmount.amount, as: role)
            total[currency, default: Cell()].add(transaction.transactionAmount.amount, as: role)
        }
        if grouping.isTime {
            let present = counted.map { $0.0.localDay }
            if let first = days?.lowerBound ?? present.min(), let last = days?.upperBound ?? present.max(), first <= last {
                var day = Self.periodStart(first, grouping)
                while day <= last {
                    let (key, label, start) = Self.period(day, grouping)
                    if groups[key] == nil { groups[key] = Group(key: key, label: label, start: start) }
                    day = Self.nextPeriod(day, grouping)
                }
            }
        }
        self.total = total
        self.currencies = total.keys.sorted()
        self.groups = []
        let primary = primaryCurrency
        let byValue = groups.values.sorted { a, b in
            let x = primary.flatMap { a.cells[$0]?.value(kind) } ?? 0, y = primary.flatMap { b.cells[$0]?.value(kind) } ?? 0
            if x != y { return x > y }
            let m = a.cells.values.reduce(0) { $0 + $1.count }, n = b.cells.values.reduce(0) { $0 + $1.count }
            if m != n { return m > n }
            return a.label != b.label ? a.label < b.label : a.key < b.key
        }
        if let top, top >= 0, top < byValue.count {
            let kept = Array(byValue.prefix(top))
            omittedGroups = byValue.count - kept.count
            self.groups = grouping.isTime ? kept.sorted { $0.key < $1.key } : kept
        } else {
            self.groups = grouping.isTime ? byValue.sorted { $0.key < $1.key } : byValue
        }
    }

    private static func group(of transaction: Transaction, _ grouping: Grouping, categories: [UUID: String],
                              accounts: [UUID: Account]) -> (String, String, Date?) {
        switch grouping {
        case .day, .week, .month:
            return period(transaction.localDay, grouping)
        case .category:
            let category = categories[transaction.id] ?? Categorizer.uncategorized
            return (category, category, nil)
        case .merchant:
            let name = transaction.merchantName.flatMap { $0.isEmpty ? nil : $0 } ?? transaction.transactionDescription
            let label = name.isEmpty ? "(no description)" : name
            return (label, label, nil)
        case .mcc:
            guard let code = transaction.merchantCategoryCode else { return ("none", "none", nil) }
            return (code.code, code.code + " " + code.description, nil)
        case .account:
            let name = accounts[transaction.accountID]?.displayName ?? transaction.accountID.uuidString
            return (transaction.accountID.uuidString, name, nil)
        }
    }

    /// The period a day is in: its key, label and first day.
    package static func period(_ day: Int, _ grouping: Grouping) -> (String, String, Date?) {
        let start = periodStart(day, grouping)
        let date = CalendarDay.date(day: start)
        switch grouping {
        case .month:
            let text = String(CalendarDay.string(date).prefix(7))
            return (text, text, date)
        case .week:
            let calendar = isoCalendar
            let week = calendar.component(.weekOfYear, from: date), year = calendar.component(.yearForWeekOfYear, from: date)
            return (CalendarDay.string(date), String(format: "%04d-W%02d", year, week), date)
        default:
            let text = CalendarDay.string(date)
            return (text, text, date)
        }
    }

    /// The first day of the period `day` is in (a week starts on Monday, as ISO 8601 weeks do).
    package static func periodStart(_ day: Int, _ grouping: Grouping) -> Int {
        switch grouping {
        case .month:
            let parts = CalendarDay.utc.dateComponents([.year, .month], from: CalendarDay.date(day: day))
            return CalendarDay.dayNumber(CalendarDay.date(year: parts.year!, month: parts.month!, day: 1)!)
        case .week:
            // 1970-01-01 was a Thursday: day 0 is weekday 3 counting from Monday as 0.
            let weekday = ((day % 7) + 7 + 3) % 7
            return day - weekday
        default:
            return day
        }
    }

    /// The first day of the period after the one starting on `start`.
    package static func nextPeriod(_ start: Int, _ grouping: Grouping) -> Int {
        switch grouping {
        case .month:
            let next = CalendarDay.utc.date(byAdding: .month, value: 1, to: CalendarDay.date(day: start))!
            return CalendarDay.dayNumber(next)
        case .week: return start + 7
        default: return start + 1
        }
    }

    /// The last day of the period starting on `start`.
    package static func periodEnd(_ start: Int, _ grouping: Grouping) -> Int { nextPeriod(start, grouping) - 1 }

    private static let isoCalendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
