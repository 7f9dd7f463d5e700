import ArgumentParser
import Coffer
import Foundation

/// `coffer reconcile`: per account, what the imported statements cover, the gaps between them, balances that do
/// not follow, and pending rows that stayed pending.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile", abstract: "Check each account's statements: gaps, balances, stale pending rows.",
        discussion: """
            Per account, one line per finding, "ok" or "ATTENTION" (a person should look): the days its imported \
            statements cover (overlapping and adjoining ones merged); gaps, days between them that no statement \
            covers (beside a CSV export, which states no period and covers its first to its last row, only a gap of \
            7 days or more needs attention); balances that do not follow from the transactions, with the difference \
            and the file (a camt statement whose opening balance plus booked entries is not its closing balance, a \
            CSV running balance that does not add up, an OFX LEDGERBAL that is not the previous balance plus the \
            transactions booked after that balance's day through its own); pending or authorized rows dated more \
            than 14 days before the account's newest statement (its as-of time, not today: the answer does not \
            change with the day it runs).
            Statements are recorded from this version on; coffer import --force FILE records an older import's. \
            Nothing is changed. Exit 0 when nothing needs attention, 1 when something does.
              coffer reconcile [--account ID|name|digits] [--format table|json]
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: ArgumentHelp("Only these accounts: an id, last digits of a number, or part of a name; a comma list, or "
                               + "repeat the option.", valueName: "account"))
    var account: [String] = []
    @Option(help: "table or json.") var format: Format = .table

    func run() async throws {
        var attention = false
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            var results: [AccountReconciliation] = []
            if let selected = try await AccountSelector.resolveAll(account, in: store) {
                for account in selected { results += try await store.reconcile(accountID: account.id) }
            } else {
                results = try await store.reconcile(accountID: nil)
            }
            let accounts = Dictionary(try await store.accounts(query: AccountQuery()).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let masked = try await store.maskedAccountNumbers()
            attention = results.contains(where: \.needsAttention)
            switch format {
            case .json:
                let document = ReconcileJSON(store: storeOptions.path, needsAttention: attention, staleDays: Reconciliation.staleDays,
                                             accounts: results.map { AccountJSON($0, account: accounts[$0.accountID], masked: masked[$0.accountID]) })
                printLine(try JSON.document(document))
            case .table:
                for (index, result) in results.enumerated() {
                    if index > 0 { printLine("") }
                    let account = accounts[result.accountID]
                    let name = account?.displayName ?? result.accountID.uuidString
                    let number = masked[result.accountID].map { name.contains($0) ? "" : " " + $0 } ?? ""
                    let currency = account.map { name.contains("(\($0.currencyCode))") ? "" : " (\($0.currencyCode))" } ?? ""
                    printLine("\(name)\(number)\(currency)")
                    for line in Self.lines(result) { printLine(line) }
                }
                let flagged = results.filter(\.needsAttention).count
                printLine((results.isEmpty ? "" : "\n") + (flagged == 0
                    ? "\(storeOptions.path): \(results.count) account(s), nothing needs attention"
                    : "\(storeOptions.path): \(flagged) of \(results.count) account(s) need attention"))
            }
        }
        if attention { throw ExitCode(1) }
    }

    /// The lines of one account: covered, gaps, balances, pending.
    static func lines(_ r: AccountReconciliation) -> [String] {
        let ok = "ok         ", look = "ATTENTION  "
        let day: (Date) -> String = CalendarDay.string
        var lines: [String] = []
        if r.statements.isEmpty {
            lines.append(ok + "covered: no statements recorded (imports before statements were recorded: "
                         + "coffer import --force FILE records them)")
        } else if r.covered.isEmpty {
            lines.append(ok + "covered: no days (\(r.statements.count) statement(s) without a period or rows)")
        } else {
            let runs = r.covered.map { "\(day($0.first)) to \(day($0.last))" }.joined(separator: ", ")
            lines.append(ok + "covered: \(runs) (\(r.statements.count) statement(s))")
        }
        if r.gaps.isEmpty, !r.statements.isEmpty { lines.append(ok + "gaps: none") }
        for gap in r.gaps {
            let note = gap.needsAttention ? "" : " (beside a statement that states no period: maybe no transactions)"
            lines.append((gap.needsAttention ? look : ok) + "gap: \(day(gap.first)) to \(day(gap.last)), "
                         + "\(gap.days) day(s) no statement covers\(note)")
        }
        if r.mismatches.isEmpty {
            let chained = r.sequenceChecks == 0 ? "" : " (\(r.sequenceChecks) LEDGERBAL(s) checked against the balance before)"
            lines.append(ok + (r.balancesReported == 0 ? "balances: none reported"
                                                       : "balances: \(r.balancesReported) reported, none off\(chained)"))
        }
        for mismatch in r.mismatches { lines.append(look + "balance: " + mismatch.description) }
        let reference = r.reference.map { " before \(day($0))" } ?? ""
        if r.stalePending.isEmpty {
            lines.append(ok + "pending: none older than \(Reconciliation.staleDays) days\(reference)")
        }
        for row in r.stalePending {
            let age = r.reference.map { Reconciliation.daysOld(row, at: $0) } ?? 0
            lines.append(look + "pending: \(day(row.transactionDate)) \(Text.signed(row.transactionAmount, row.creditDebitIndicator)) "
                         + "\(row.transactionAmount.currencyCode) \(row.transactionDescription) (\(row.status.name), "
                         + "\(age) days\(reference))")
        }
        return lines
    }
}

/// `coffer reconcile --format json`: amounts as exact decimal strings, signed (debits minus), dates as the CLI
/// prints them.
struct ReconcileJSON: Encodable {
    var store: String
    var needsAttention: Bool
    var staleDays: Int
    var accounts: [AccountJSON]
}

struct AccountJSON: Encodable {
    struct Statement: Encodable {
        var file: String
        var location: String
        var statementID: String?
        var from: Date?
        var through: Date?
        var periodStated: Bool
        var asOf: Date
        var opening: Balance?
        var closing: Balance?
        var transactions: Int
        var booked: Int
        var bookedTotal: String?
        var pending: Int
    }
    struct Balance: Encodable {
        var code: String
        var amount: String
        var asOf: Date
    }
    struct Covered: Encodable {
        var from: Date
        var through: Date
        var statements: Int
    }
    struct Gap: Encodable {
        var from: Date
        var through: Date
        var days: Int
        var needsAttention: Bool
    }
    struct Mismatch: Encodable {
        var check: String
        var file: String
        var location: String
        var code: String?
        var asOf: Date?
        var currencyCode: String
        var reported: String?
        var expected: String?
        var difference: String
        var previousFile: String?
        var previousBalance: String?
        var previousAsOf: Date?
        var bookedBetween: String?
        var bookedBetweenCount: Int?
        var firstDay: Date?
        var lastDay: Date?
        var message: String
    }
    struct Stale: Encodable {
        var daysOld: Int
        var transaction: Transaction
    }

    var id: UUID
    var displayName: String?
    var maskedNumber: String?
    var currencyCode: String?
    var needsAttention: Bool
    var reference: Date?
    var statements: [Statement]
    var covered: [Covered]
    var gaps: [Gap]
    var balancesReported: Int
    var sequenceChecks: Int
    var mismatches: [Mismatch]
    var stalePending: [Stale]

    init(_ r: AccountReconciliation, account: Account?, masked: String?) {
        func text(_ d: Decimal?) -> String? { d.map { ExactDecimal.text($0, minimumFractionDigits: 2) } }
        func balance(_ b: StatementBalance?) -> Balance? {
            b.map { Balance(code: $0.code, amount: text($0.signed)!, asOf: $0.asOf) }
        }
        id = r.accountID
        displayName = account?.displayName
        maskedNumber = masked
        currencyCode = account?.currencyCode
        needsAttention = r.needsAttention
        reference = r.reference
        statements = r.statements.map { s in
            Statement(file: s.path, location: s.location, statementID: s.statementID, from: s.start, through: s.end,
                      periodStated: s.periodStated, asOf: s.asOf, opening: balance(s.opening), closing: balance(s.closing),
                      transactions: s.rowCount, booked: s.bookedCount, bookedTotal: text(s.bookedTotal), pending: s.openCount)
        }
        covered = r.covered.map { Covered(from: $0.first, through: $0.last, statements: $0.statements) }
        gaps = r.gaps.map { Gap(from: $0.first, through: $0.last, days: $0.days, needsAttention: $0.needsAttention) }
        balancesReported = r.balancesReported
        sequenceChecks = r.sequenceChecks
        mismatches = r.mismatches.map { m in
            Mismatch(check: m.check.rawValue, file: m.statement.path, location: m.location, code: m.statement.closing?.code,
                     asOf: m.statement.closing?.asOf, currencyCode: m.statement.currencyCode, reported: text(m.reported),
                     expected: text(m.expected), difference: text(m.difference)!, previousFile: m.previous?.path,
                     previousBalance: text(m.previous?.closing?.signed), previousAsOf: m.previous?.closing?.asOf,
                     bookedBetween: text(m.bookedBetween), bookedBetweenCount: m.bookedBetweenCount,
                     firstDay: m.firstDay, lastDay: m.lastDay, message: m.description)
        }
        stalePending = r.stalePending.map { t in
            Stale(daysOld: r.reference.map { Reconciliation.daysOld(t, at: $0) } ?? 0,
                  transaction: t)
        }
    }
}
