import CofferModel
import CofferPipeline
import CofferStore
import Foundation

/// Writes the store's transactions and statement balances for plain-text accounting — hledger, beancount, ledger —
/// or as CSV or OFX.
///
/// For example:
/// ```swift
/// let exporter = Exporter(store: store, configuration: try .standard(), names: try .standard())
/// let whole = try await exporter.export(ExportOptions(format: .beancount))
/// try whole.text.write(toFile: "books.beancount", atomically: true, encoding: .utf8)
///
/// // For cron: only what is new since the saved state, to append.
/// let next = try await exporter.export(ExportOptions(format: .hledger), resuming: savedState)
/// savedState = next.state
/// ```
/// Each transaction is written once with its stable id (beancount metadata `coffer-id`, an hledger/ledger
/// `coffer-id` tag, the OFX FITID), status, type, the institution's own text, merchant, MCC and category; booked
/// rows only unless `includePending`. A transfer between two of the person's own accounts is one transaction
/// between the two. Statement balances become balance assertions, with an opening balance per account that makes
/// the first one hold; an assertion the transactions do not reach (a statement not imported) is a comment and a
/// warning. Amounts are exact.
public struct Exporter: Sendable {
    let store: FinanceStore
    let names: JournalAccountNames
    let classifier: ExportClassifier

    /// An exporter of `store`, with the categories and own-transfer rules of `configuration` and the journal names
    /// of `names`.
    public init(store: FinanceStore, configuration: CofferConfiguration, names: JournalAccountNames = JournalAccountNames()) {
        self.init(store: store, names: names, classifier: ExportClassifier(configuration: configuration))
    }

    package init(store: FinanceStore, names: JournalAccountNames, classifier: ExportClassifier) {
        self.store = store
        self.names = names
        self.classifier = classifier
    }

    /// The whole export: every transaction and statement balance `options` selects.
    public func export(_ options: ExportOptions) async throws -> ExportOutput {
        let (accounts, transactions, balances) = try await rows()
        return Self.render(accounts: accounts, transactions: transactions, balances: balances,
                           maskedNumbers: try await store.maskedAccountNumbers(), options: options, names: names,
                           classifier: classifier, resuming: nil)
    }

    /// An incremental export: what `options` selects that `state` has not written yet, to append to the same
    /// journal, and the changes to transactions it wrote (reported, never rewritten). Pass nil the first time;
    /// save `ExportOutput.state` for the next. A state from another format, or a token the store refuses
    /// (another store, compacted history), throws.
    public func export(_ options: ExportOptions, resuming state: ExportState?) async throws -> ExportOutput {
        let state = state ?? ExportState(format: options.format)
        guard state.format == options.format else {
            throw CofferError(.usage, "the export state is for \(state.format.rawValue), not \(options.format.rawValue): "
                              + "use one state file per journal")
        }
        // The token first, then the rows: a change committed in between is written now and reported once more
        // next time, never missed.
        var updated: [UUID: Transaction] = [:]
        var deleted = Set<UUID>()
        var token = state.token
        for try await changes in store.allTransactionHistory(since: state.token, isMonitoring: false) {
            token = changes.newToken
            guard state.token != nil else { continue }
            for t in changes.updated + changes.inserted where state.exported.contains(t.id) { updated[t.id] = t }
            for id in changes.deleted where state.exported.contains(id) {
                deleted.insert(id)
                updated[id] = nil
            }
        }
        let (accounts, transactions, balances) = try await rows()
        var output = Self.render(accounts: accounts, transactions: transactions, balances: balances,
                                 maskedNumbers: try await store.maskedAccountNumbers(), options: options,
                                 names: names, classifier: classifier, resuming: state)
        output.changes = updated.values.sorted { $0.id.uuidString < $1.id.uuidString }.map {
            ExportedChange(kind: .updated, id: $0.id, transaction: $0)
        } + deleted.sorted { $0.uuidString < $1.uuidString }.map { ExportedChange(kind: .deleted, id: $0, transaction: nil) }
        output.state?.token = token ?? state.token
        output.state?.exported.subtract(deleted)
        return output
    }

    /// The export of these rows, without a store: a whole export (`state` nil) or what `state` has not written.
    package static func render(accounts: [UUID: Account], transactions: [Transaction], balances: [AccountBalance],
                               maskedNumbers: [UUID: String] = [:], options: ExportOptions, names: JournalAccountNames, classifier: ExportClassifier,
                               resuming state: ExportState?) -> ExportOutput {
        let previous = state.map { ExportPlan.Previous(exported: $0.exported, asserted: $0.asserted, opened: $0.opened) }
        let plan = ExportPlan.make(accounts: accounts, transactions: transactions, balances: balances,
                                   maskedNumbers: maskedNumbers, options: options,
                                   names: names, classifier: classifier, previous: previous ?? ExportPlan.Previous())
        let declare = plan.accountsUsed.keys.filter { !(state?.declared.contains($0) ?? false) }.sorted()
        let text: String
        let header = !(state?.started ?? false)
        switch options.format {
        case .hledger, .ledger: text = LedgerFamilyWriter(format: options.format).write(plan, header: header, declare: declare)
        case .beancount: text = BeancountWriter().write(plan, header: header, open: declare.map { ($0, plan.accountsUsed[$0] ?? nil) })
        case .csv: text = CSVExportWriter().write(plan, header: header)
        case .ofx: text = OFXExportWriter().write(plan, accounts: accounts)
        }
        var next = state
        next?.exported.formUnion(plan.written)
        next?.asserted.formUnion(plan.assertedKeys)
        next?.opened.merge(plan.openedAccounts) { old, _ in old }
        next?.declared.formUnion(declare)
        next?.started = true
        return ExportOutput(text: text, transactionCount: plan.written.count, assertionCount: plan.assertedKeys.count,
                            warnings: plan.warnings, changes: [], state: next)
    }

    private func rows() async throws -> ([UUID: Account], [Transaction], [AccountBalance]) {
        let accounts = Dictionary(try await store.accounts(query: AccountQuery()).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let transactions = try await store.transactions(query: TransactionQuery())
        let balances = try await store.accountBalances(query: AccountBalanceQuery())
        return (accounts, transactions, balances)
    }
}
