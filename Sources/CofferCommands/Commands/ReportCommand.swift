import ArgumentParser
import Coffer
import Foundation

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Spending, income, cash flow and balance over time, as tables or charts.",
        discussion: """
            Definitions (the README's "Reports" has them in full):
              spending  booked debits of types pointOfSale, billPayment, directDebit, standingOrder, check, fee, \
            atm, withdrawal and unknown, minus booked refunds (credits of type refund)
              income    booked credits of types directDeposit, deposit, interest, dividend and unknown
              cashflow  in: every booked credit but refunds; out: every booked debit minus the refunds; net: in - out
            Own transfers (between two of your accounts, or named by a rule in transfers.yaml) count in none. Pending \
            rows count only with --status (--status pending,booked). One column per currency, never summed across \
            currencies; totals are exact.
            Examples:
              coffer report spending --by month --from 2026-01-01
              coffer report spending --by category --text coffee
              coffer report spending --by merchant --top 10 --format svg -o merchants.svg
              coffer report cashflow --by month --format csv
              coffer report balance --account 5566 --by week --format svg -o balance.svg
            """,
        subcommands: [SpendingReport.self, IncomeReport.self, CashflowReport.self, BalanceReportCommand.self])
}

/// How a report is written.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv, svg
}

/// What every report prints and where.
struct ReportOutputOptions: ParsableArguments {
    @Option(help: "table (with bars), json, csv, or svg (a chart; needs -o).") var format: ReportFormat = .table
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if format == .svg, output == nil {
            throw ValidationError("--format svg writes a chart to a file: add -o FILE (such as -o spending.svg)")
        }
    }

    /// Writes `text` to the file, or prints it.
    func write(_ text: String) throws {
        guard let output else { return printLine(text) }
        do {
            try Data((text.hasSuffix("\n") ? text : text + "\n").utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CofferError(.io, "cannot write \(output): \(error.localizedDescription)")
        }
    }
}

/// The options and the work the three money reports share.
struct MoneyReportOptions: ParsableArguments {
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var filters: TransactionFilters
    @Option(help: ArgumentHelp("Group by day, week, month, category, merchant, mcc or account.", valueName: "grouping"))
    var by: MoneyReport.Grouping?
    @Option(help: "Only the N largest groups (the totals still count every transaction).") var top: Int?
    @OptionGroup var output: ReportOutputOptions

    func validate() throws {
        if let top, top < 1 { throw ValidationError("--top expects a number of groups, 1 or more") }
    }

    func run(_ kind: MoneyReport.Kind, defaultGrouping: MoneyReport.Grouping) async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            let configuration = try configOptions.load()
            let accounts = try await store.accounts(query: AccountQuery())
            let accountIDs = try await AccountSelector.resolveAll(filters.account, in: store)?.map(\.id)
            let query = TransactionQuery(predicate: try filters.predicate(accountIDs: accountIDs, defaultStatuses: [.booked]),
                                         searchText: filters.text)
            let transactions = try await store.transactions(query: query)
            // Own transfers are found among every account's rows of the period (the other side may be in an
            // account the filters leave out).
            let transfers = try await OwnTransfers.find(in: store, configuration: configuration,
                                                        from: filters.fromDay, through: filters.toDay)
            let grouping = by ?? defaultGrouping
            let present = transactions.map(\.localDay)
            var days: ClosedRange<Int>?
            if let first = filters.fromDay.map(CalendarDay.dayNumber) ?? present.min(),
               let last = filters.toDay.map(CalendarDay.dayNumber) ?? present.max(), first <= last {
                days = first...last
            }
            let report = MoneyReport(kind: kind, grouping: grouping, transactions: transactions, ownTransfers: transfers,
                                     categorizer: configuration.categorizer, accounts: accounts, top: top, days: days)
            let statuses = try filters.filter(accountIDs: nil).statuses ?? [.booked]
            switch output.format {
            case .table: try output.write(ReportText.table(report, colour: output.output == nil && Terminal.colour))
            case .csv: try output.write(ReportText.csv(report))
            case .json: try output.write(try ReportText.json(report, from: filters.from, to: filters.to, statuses: statuses))
            case .svg: try output.write(ReportChart.svg(report, from: filters.from, to: filters.to))
            }
        }
    }
}

extension MoneyReport.Grouping: ExpressibleByArgument {}

struct SpendingReport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spending", abstract: "Money spent, minus refunds, by category (default), period, merchant, MCC or account.")
    @OptionGroup var options: MoneyReportOptions
    func run() async throws { try await options.run(.spending, defaultGrouping: .category) }
}

struct IncomeReport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "income", abstract: "Money received, by category (default), period, merchant, MCC or account.")
    @OptionGroup var options: MoneyReportOptions
    func run() async throws { try await options.run(.income, defaultGrouping: .category) }
}

struct CashflowReport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cashflow", abstract: "Money in, out and net, by month (default) or another grouping.")
    @OptionGroup var options: MoneyReportOptions
    func run() async throws { try await options.run(.cashflow, defaultGrouping: .month) }
}

struct BalanceReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance", abstract: "An account's balance over time, from its statements and the transactions between.",
        discussion: """
            Each statement's balance holds on its day; between statements the booked transactions move it. Where a \
            statement's balance is not the previous one plus the transactions between, the report says by how much \
            (coffer reconcile finds the cause). By day for up to 92 days, by week up to a year, else by month, \
            unless --by says.
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("The account: an id, the last digits of its number, or part of its name.", valueName: "account"))
    var account: String
    @Option(help: "From this day (YYYY-MM-DD).") var from: String?
    @Option(help: "Through this day (YYYY-MM-DD).") var to: String?
    @Option(help: "day, week or month.") var by: MoneyReport.Grouping?
    @OptionGroup var output: ReportOutputOptions

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CalendarDay.parse(value) == nil { throw ValidationError("\(name) expects a day like 2026-03-14, not '\(value)'") }
        }
        if let by, !by.isTime { throw ValidationError("--by for a balance is day, week or month, not '\(by.rawValue)'") }
    }

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            let target = try await AccountSelector.resolve(account, in: store)
            let accountID = target.id
            let balances = try await store.accountBalances(query: AccountBalanceQuery(predicate: #Predicate { $0.accountID == accountID }))
            let transactions = try await store.transactions(query: TransactionQuery(
                predicate: allOf([#Predicate { $0.accountID == accountID }, TransactionQuery.predicate(forStatuses: [.booked])])))
            var days: ClosedRange<Int>?
            let start = from.flatMap(CalendarDay.parse).map(CalendarDay.dayNumber)
            let end = to.flatMap(CalendarDay.parse).map(CalendarDay.dayNumber)
            if start != nil || end != nil {
                // The open end: the first or last day the account has a balance or transaction.
                let known = transactions.map(BalanceReport.bookingDay) + balances.compactMap { ($0.booked ?? $0.available).map {
                    StatementPeriod.lastDay(through: $0.asOfDate) } }
                guard let first = start ?? known.min(), let last = end ?? known.max() else {
                    throw CofferError(.usage, "\(target.displayName) has no statement balance to start from")
                }
                guard first <= last else { throw CofferError(.usage, "--from \(from ?? "") is after --to \(to ?? "")") }
                days = first...last
            }
            let grouping = by ?? Self.defaultGrouping(days: days, transactions: transactions, balances: balances)
            let report = try BalanceReport(account: target, balances: balances, transactions: transactions, grouping: grouping, days: days)
            switch output.format {
            case .table: try output.write(ReportText.table(report, colour: output.output == nil && Terminal.colour))
            case .csv:
                try output.write(ReportText.csv(report))
                ReportText.warnDisagreements(report)
            case .json: try output.write(try ReportText.json(report))
            case .svg:
                try output.write(ReportChart.svg(report))
                ReportText.warnDisagreements(report)
            }
        }
    }

    /// Day for up to 92 days, week up to 366, else month.
    static func defaultGrouping(days: ClosedRange<Int>?, transactions: [Transaction], balances: [AccountBalance]) -> MoneyReport.Grouping {
        let span: Int
        if let days { span = days.count } else {
            let known = transactions.map(BalanceReport.bookingDay)
                + balances.compactMap { ($0.booked ?? $0.available).map { StatementPeriod.lastDay(through: $0.asOfDate) } }
            span = (known.max() ?? 0) - (known.min() ?? 0) + 1
        }
        return span <= 92 ? .day : span <= 366 ? .week : .month
    }
}

/// Whether standard output is a terminal that may be coloured: a TTY, and `NO_COLOR` unset or empty
/// (https://no-color.org).
enum Terminal {
    static var colour: Bool {
        isatty(STDOUT_FILENO) != 0 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
