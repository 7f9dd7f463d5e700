import Coffer
import Foundation

/// Reports as a table with bars, CSV and JSON. Amounts are exact decimal text (at least two decimals), never summed
/// across currencies.
enum ReportText {
    static func amount(_ value: Decimal) -> String { ExactDecimal.text(value, minimumFractionDigits: 2) }

    /// The column a grouping is named by.
    static func heading(_ grouping: MoneyReport.Grouping) -> String {
        switch grouping {
        case .day: "DAY"
        case .week: "WEEK"
        case .month: "MONTH"
        case .category: "CATEGORY"
        case .merchant: "MERCHANT"
        case .mcc: "MCC"
        case .account: "ACCOUNT"
        }
    }

    // MARK: Money reports

    /// The column headers and cells of one group (or the total) per currency.
    static func cells(_ kind: MoneyReport.Kind, _ cell: MoneyReport.Cell) -> [String] {
        switch kind {
        case .spending: [amount(cell.outflow), String(cell.count)]
        case .income: [amount(cell.inflow), String(cell.count)]
        case .cashflow: [amount(cell.inflow), amount(cell.outflow), amount(cell.net), String(cell.count)]
        }
    }

    static func headers(_ kind: MoneyReport.Kind, _ currency: String) -> [String] {
        switch kind {
        case .spending, .income: [currency, "N"]
        case .cashflow: [currency + " IN", currency + " OUT", currency + " NET", "N"]
        }
    }

    static func table(_ report: MoneyReport, colour: Bool) -> String {
        guard !report.currencies.isEmpty else { return "(no \(report.kind == .cashflow ? "transactions" : report.kind.rawValue) in what was asked)" }
        var headers = [heading(report.grouping)]
        var right = Set<Int>()
        for currency in report.currencies {
            for header in Self.headers(report.kind, currency) {
                right.insert(headers.count)
                headers.append(header)
            }
        }
        let primary = report.primaryCurrency ?? report.currencies[0]
        let values = report.groups.map { $0.cells[primary]?.value(report.kind) ?? 0 }
        let largest = values.map(\.magnitude).max() ?? 0
        headers.append(primary)
        var rows: [[String]] = report.groups.enumerated().map { index, group in
            var row = [group.label]
            for currency in report.currencies { row += cells(report.kind, group.cells[currency] ?? MoneyReport.Cell()) }
            row.append(Bars.bar(values[index], largest: largest, width: 24, colour: colour, kind: report.kind))
            return row
        }
        var total = ["TOTAL"]
        for currency in report.currencies { total += cells(report.kind, report.total[currency] ?? MoneyReport.Cell()) }
        rows.append(total + [""])
        var text = Table(headers: headers, rows: rows, rightAligned: right).render()
        if report.omittedGroups > 0 {
            text += "\n(\(report.omittedGroups) smaller group(s) left out by --top; TOTAL counts them)"
        }
        return text
    }

    static func csv(_ report: MoneyReport) -> String {
        var headers = [heading(report.grouping)]
        if report.grouping.isTime { headers.append("START") }
        for currency in report.currencies {
            headers += report.kind == .cashflow ? [currency + " IN", currency + " OUT", currency + " NET", currency + " COUNT"]
                : [currency, currency + " COUNT"]
        }
        let rows = report.groups.map { group in
            var row = [group.label]
            if report.grouping.isTime { row.append(group.start.map(CalendarDay.string) ?? "") }
            for currency in report.currencies { row += cells(report.kind, group.cells[currency] ?? MoneyReport.Cell()) }
            return row
        }
        return Table(headers: headers, rows: rows).csv()
    }

    struct CellJSON: Encodable {
        var amount: String?
        var count: Int
        var spent: String?
        var refunded: String?
        var `in`: String?
        var out: String?
        var net: String?
    }

    struct GroupJSON: Encodable {
        var key: String
        var label: String
        var start: String?
        var totals: [String: CellJSON]
    }

    struct MoneyJSON: Encodable {
        var report: String
        var by: String
        var from: String?
        var to: String?
        var statuses: [String]
        var currencies: [String]
        var groups: [GroupJSON]
        var total: [String: CellJSON]
        var omittedGroups: Int
    }

    static func cellJSON(_ kind: MoneyReport.Kind, _ cell: MoneyReport.Cell) -> CellJSON {
        switch kind {
        case .spending:
            CellJSON(amount: amount(cell.outflow), count: cell.count, spent: amount(cell.spent), refunded: amount(cell.refunded))
        case .income:
            CellJSON(amount: amount(cell.inflow), count: cell.count)
        case .cashflow:
            CellJSON(count: cell.count, in: amount(cell.inflow), out: amount(cell.outflow), net: amount(cell.net))
        }
    }

    static func json(_ report: MoneyReport, from: String?, to: String?, statuses: [TransactionStatus]) throws -> String {
        func totals(_ cells: [String: MoneyReport.Cell]) -> [String: CellJSON] {
            Dictionary(uniqueKeysWithValues: report.currencies.map { ($0, cellJSON(report.kind, cells[$0] ?? MoneyReport.Cell())) })
        }
        let document = MoneyJSON(
            report: report.kind.rawValue, by: report.grouping.rawValue, from: from, to: to, statuses: statuses.map(\.name),
            currencies: report.currencies,
            groups: report.groups.map { GroupJSON(key: $0.key, label: $0.label, start: $0.start.map(CalendarDay.string), totals: totals($0.cells)) },
            total: totals(report.total), omittedGroups: report.omittedGroups)
        return try JSON.document(document)
    }

    // MARK: Balance

    static func table(_ report: BalanceReport, colour: Bool) -> String {
        let values = report.points.map(\.balance)
        let low = min(values.min() ?? 0, 0), high = max(values.max() ?? 0, 0)
        let rows = report.points.map { point in
            [point.label, amount(point.balance), point.statementBalance.map(amount) ?? "",
             Bars.range(point.balance, low: low, high: high, width: 30, colour: colour)]
        }
        var text = "\(report.account.displayName) (\(report.currency)), balance at the end of each \(report.grouping.rawValue)\n"
        text += Table(headers: [heading(report.grouping), "BALANCE", "STATEMENT", ""], rows: rows, rightAligned: [1, 2]).render()
        if report.disagreements.isEmpty {
            text += "\nThe statements' balances agree with the transactions between them."
        } else {
            for disagreement in report.disagreements { text += "\n" + describe(disagreement, currency: report.currency) }
        }
        return text
    }

    /// One sentence: what the statement says, what the transactions give, by how much they differ.
    static func describe(_ d: BalanceReport.Disagreement, currency: String) -> String {
        "\(CalendarDay.string(d.day)): the statement says \(amount(d.reported)) \(currency); \(amount(d.previous)) on "
            + "\(CalendarDay.string(d.previousDay)) plus \(d.countBetween) booked transaction(s) (\(amount(d.transactionsBetween))) "
            + "give \(amount(d.expected)): they disagree by \(amount(d.difference)) \(currency) (coffer reconcile says more)"
    }

    static func warnDisagreements(_ report: BalanceReport) {
        for disagreement in report.disagreements {
            FileHandle.standardError.write(Data("coffer: warning: \(describe(disagreement, currency: report.currency))\n".utf8))
        }
    }

    static func csv(_ report: BalanceReport) -> String {
        Table(headers: [heading(report.grouping), "DATE", "BALANCE", "CURRENCY", "STATEMENT"], rows: report.points.map {
            [$0.label, CalendarDay.string($0.day), amount($0.balance), report.currency, $0.statementBalance.map(amount) ?? ""]
        }).csv()
    }

    struct PointJSON: Encodable {
        var period: String
        var date: String
        var balance: String
        var statementBalance: String?
    }

    struct DisagreementJSON: Encodable {
        var date: String
        var reported: String
        var previousDate: String
        var previous: String
        var transactionsBetween: String
        var countBetween: Int
        var expected: String
        var difference: String
    }

    struct BalanceJSON: Encodable {
        var report = "balance"
        var accountID: String
        var account: String
        var currency: String
        var by: String
        var points: [PointJSON]
        var disagreements: [DisagreementJSON]
    }

    static func json(_ report: BalanceReport) throws -> String {
        try JSON.document(BalanceJSON(
            accountID: report.account.id.uuidString, account: report.account.displayName, currency: report.currency,
            by: report.grouping.rawValue,
            points: report.points.map { PointJSON(period: $0.label, date: CalendarDay.string($0.day), balance: amount($0.balance),
                                                  statementBalance: $0.statementBalance.map(amount)) },
            disagreements: report.disagreements.map {
                DisagreementJSON(date: CalendarDay.string($0.day), reported: amount($0.reported), previousDate: CalendarDay.string($0.previousDay),
                                 previous: amount($0.previous), transactionsBetween: amount($0.transactionsBetween),
                                 countBetween: $0.countBetween, expected: amount($0.expected), difference: amount($0.difference))
            }))
    }
}

/// Bars of block characters for a table's last column; coloured (ANSI) only when asked.
enum Bars {
    /// A bar as long as `value` is against `largest`, in eighths of a character; a negative value is drawn in
    /// shade (`▒`) rather than solid.
    static func bar(_ value: Decimal, largest: Decimal, width: Int, colour: Bool, kind: MoneyReport.Kind) -> String {
        guard largest > 0, value != 0 else { return "" }
        let eighths = max(1, Int(truncating: NSDecimalNumber(decimal: value.magnitude / largest * Decimal(width * 8))))
        var text = value < 0 ? String(repeating: "▒", count: max(1, eighths / 8))
            : String(repeating: "█", count: eighths / 8) + (eighths % 8 == 0 ? "" : partial[eighths % 8])
        if colour {
            let code = value < 0 ? "31" : kind == .spending ? "33" : "32"
            text = "\u{1B}[\(code)m" + text + "\u{1B}[0m"
        }
        return text
    }

    /// A bar from `low` to `value` on a scale from `low` to `high` (a balance: the scale starts at zero or the
    /// lowest balance).
    static func range(_ value: Decimal, low: Decimal, high: Decimal, width: Int, colour: Bool) -> String {
        guard high > low else { return "" }
        let eighths = max(1, Int(truncating: NSDecimalNumber(decimal: (value - low) / (high - low) * Decimal(width * 8))))
        var text = String(repeating: "█", count: eighths / 8) + (eighths % 8 == 0 ? "" : partial[eighths % 8])
        if colour { text = "\u{1B}[\(value < 0 ? "31" : "36")m" + text + "\u{1B}[0m" }
        return text
    }

    private static let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
}
