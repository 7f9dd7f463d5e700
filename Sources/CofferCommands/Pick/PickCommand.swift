import ArgumentParser
import Coffer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// FinanceKit's TransactionPicker on a terminal: the person chooses transactions, the chosen ones are printed once,
/// and nothing is granted or remembered.
struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick", abstract: "Choose transactions on the terminal and print the chosen ones as JSON.",
        discussion: """
            Takes coffer transactions' filters and sorting (coffer pick --from 2026-03-01 --text cafe) and lists \
            what they match, newest first unless --sort says otherwise. Type to narrow the list (ignores case and \
            accents), arrows, Page Up/Down, Home and End to move, space or Tab to select or unselect, Backspace \
            and Ctrl-U to edit the filter, Enter to confirm (with nothing selected, the highlighted row is the \
            choice), Escape or Ctrl-C to cancel. The chosen transactions are printed as \
            `coffer transactions --format json` prints them (--format ndjson or csv for those), in the list's \
            order; nothing is stored and nothing is granted, as with FinanceKit's TransactionPicker. \
            Needs a terminal on stdin and stdout; colour only when NO_COLOR is unset. \
            Exit codes: 0 chosen and printed, 130 cancelled (nothing printed), 64 not a terminal or a bad filter.
            """)

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write the chosen transactions to this file instead of stdout (before the filters).", valueName: "file"))
    var output: String?

    @Argument(parsing: .captureForPassthrough,
              help: ArgumentHelp("coffer transactions' options: --store, --account, --from, --to, --status, --type, --mcc, "
                                 + "--text, --min, --max, --sort, --limit, --format.", valueName: "filters"))
    var filters: [String] = []

    func run() async throws {
        // The same filters as `coffer transactions`, parsed and checked by that command.
        let arguments = filters.contains { $0 == "--sort" || $0.hasPrefix("--sort=") } ? filters : filters + ["--sort", "date:desc"]
        let listing: TransactionsCommand
        do {
            listing = try TransactionsCommand.parse(arguments)
        } catch {
            throw fail(CofferError(.usage, TransactionsCommand.message(for: error)))
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw fail(CofferError(.usage, "pick needs a terminal on stdin and stdout (it is interactive); "
                                   + "use coffer transactions with the same filters in scripts"))
        }
        try await guarded {
            let store = try listing.storeOptions.open(.readOnly)
            let accounts = try await store.accounts(query: AccountQuery())
            let names = Dictionary(accounts.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
            let accountIDs = try await AccountSelector.resolveAll(listing.filters.account, in: store)?.map(\.id)
            let query = TransactionQuery(sortDescriptors: try listing.sortDescriptors(),
                                         predicate: try listing.filters.predicate(accountIDs: accountIDs),
                                         limit: listing.limit, offset: listing.offset, searchText: listing.filters.text)
            let transactions = try await store.transactions(query: query)
            let color = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            guard let chosen = try Self.pick(transactions, names: names, color: color) else {
                FileHandle.standardError.write(Data("coffer: nothing picked (cancelled)\n".utf8))
                throw ExitCode(130)
            }
            let byID = Dictionary(transactions.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let picked = chosen.compactMap { byID[$0] }
            let format: OutputFormat = listing.format == .table ? .json : listing.format
            if let output {
                var text = Data()
                try emit(picked, format: format, to: { text.append($0) }) { TransactionsCommand.csvTable(picked, names: names) }
                do {
                    try text.write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw CofferError(.usage, "cannot write \(output): \(error.localizedDescription)")
                }
                FileHandle.standardError.write(Data("coffer: \(picked.count) transaction\(picked.count == 1 ? "" : "s") written to \(output)\n".utf8))
            } else {
                try emit(picked, format: format) { TransactionsCommand.csvTable(picked, names: names) }
            }
        }
    }

    /// Runs the picker on the terminal; the chosen ids, or nil when cancelled.
    static func pick(_ transactions: [Transaction], names: [UUID: String], color: Bool) throws -> [UUID]? {
        var state = PickerState(transactions, accountNames: names)
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        var decoder = KeyDecoder()
        while true {
            let size = terminal.size
            terminal.draw(state.render(width: size.width, height: size.height, color: color))
            var bytes = terminal.read()
            if bytes.isEmpty { return nil }  // the terminal went away
            // An arrow key's bytes can arrive in two reads: wait a moment before taking a last Escape as the key.
            while KeyDecoder.endsInEscape(bytes), terminal.moreInput(within: 40) { bytes += terminal.read() }
            for key in decoder.keys(bytes) {
                switch state.handle(key, pageSize: size.height - 2) {
                case .picking: continue
                case .cancelled: return nil
                case .confirmed(let ids): return ids
                }
            }
        }
    }
}
