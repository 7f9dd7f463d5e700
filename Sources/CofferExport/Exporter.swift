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
        let plan = ExportPlan.make(accounts: accounts, transactions: transactions, balances: balances, options: options,
                                   names: names, classifier: classifier)
        let declare = plan.accountsUsed.keys.sorted()
        return ExportOutput(text: text(plan, options: options, accounts: accounts, header: true, declare: declare),
                            transactionCount: plan.written.count, assertionCount: plan.assertedKeys.count,
                            warnings: plan.warnings, changes: [], state: nil)
    }

    /// An incremental export: what `options` selects that `state` has not written yet, to append to the same
    /// journal, and the changes to transactions it wrote (reported, never rewritten). Pass nil the first time;
    /// save `ExportOutput.state` for the next. A state from another format, or a token the store refuses
    /// (another store, compacted history), throws.
    public func export(_ options: ExportOptions, resuming state: ExportState?) async throws -> ExportOutput {
        var state = state ?? ExportState(format: options.format)
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
            for t in changes.updated where state.exported.contains(t.id) { updated[t.id] = t }
            for t in changes.inserted where state.exported.contains(t.id) { updated[t.id] = t }
            for id in changes.deleted where state.exported.contains(id) {
                deleted.insert(id)
                updated[id] = nil
            }
        }
        let (accounts, transactions, balances) = try await rows()
        let previous = ExportPlan.Previous(exported: state.exported, asserted: state.asserted, opened: state.opened)
        let plan = ExportPlan.make(accounts: accounts, transactions: transactions, balances: balances, options: options,
                                   names: names, classifier: classifier, previous: previous)
        let declare = plan.accountsUsed.keys.filter { !state.declared.contains($0) }.sorted()
        let text = text(plan, options: options, accounts: accounts, header: state.isFresh, declare: declare)
        let changes = updated.values.sorted { $0.id.uuidString < $1.id.uuidString }.map {
            ExportedChange(kind: .updated, id: $0.id, transaction: $0)
        } + deleted.sorted { $0.uuidString < $1.uuidString }.map { ExportedChange(kind: .deleted, id: $0, transaction: nil) }
        state.token = token ?? state.token
        state.exported.formUnion(plan.written)
        state.exported.subtract(deleted)
        state.asserted.formUnion(plan.assertedKeys)
        state.opened.merge(plan.openedAccounts) { old, _ in old }
        state.declared.formUnion(declare)
        return ExportOutput(text: text, transactionCount: plan.written.count, assertionCount: plan.assertedKeys.count,
                            warnings: plan.warnings, changes: changes, state: state)
    }

    private func rows() async throws -> ([UUID: Account], [Transaction], [AccountBalance]) {
        let accounts = Dictionary(try await store.accounts(query: AccountQuery()).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let transactions = try await store.transactions(query: TransactionQuery())
        let balances = try await store.accountBalances(query: AccountBalanceQuery())
        return (accounts, transactions, balances)
    }

    private func text(_ plan: ExportPlan, options: ExportOptions, accounts: [UUID: Account], header: Bool, declare: [String]) -> String {
        switch options.format {
        case .hledger, .ledger:
            return LedgerFamilyWriter(format: options.format).write(plan, header: header, declare: declare)
        case .beancount:
            return BeancountWriter().write(plan, header: header, open: declare.map { ($0, plan.accountsUsed[$0] ?? nil) })
        case .csv:
            return CSVExportWriter().write(plan, header: header)
        case .ofx:
            return OFXExportWriter().write(plan, accounts: accounts)
        }
    }
}
