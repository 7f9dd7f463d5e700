import ArgumentParser
import Coffer
import Foundation

/// `coffer export`: the store as an hledger, beancount or ledger journal, or as CSV or OFX.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write transactions and statement balances for hledger, beancount or ledger (or CSV, OFX).",
        discussion: """
            Each transaction once, with its Coffer id (beancount metadata coffer-id, an hledger/ledger coffer-id tag, \
            the OFX FITID), status, type, original text, merchant, MCC and category; booked rows only unless \
            --include-pending (flagged !). A transfer between two of your own accounts is one transaction between \
            them. Statement balances are balance assertions (beancount: a balance directive the day after the as-of \
            day; hledger and ledger: = AMOUNT on the account's last posting of that day, else a zero posting of its \
            own), with an opening balance per account that makes the first hold; one the transactions do not reach \
            is written as a comment, with a warning. Journal account names: export.yaml in the configuration folder.
            --from/--to select by the day written, the booking day (the posting date when there is one).
            Incremental, for cron: --state FILE keeps the history token and what was written; each run writes only \
            what is new (with -o, appended to the file) and lists on stderr the transactions written before that \
            changed or were deleted since, by id. Coffer never rewrites a journal.
            Examples:
              coffer export --format beancount -o books.beancount
              coffer export --format hledger --state ~/.local/state/coffer/hledger.state -o ~/books/coffer.journal
              coffer export --format csv --account 1234 --from 2026-01-01 --to 2026-03-31
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var configOptions: ConfigOptions
    @Option(help: "hledger, beancount, ledger, csv or ofx.") var format: ExportFormat
    @Option(help: ArgumentHelp("Only these accounts: an id, the last digits of a number, or part of a name; a comma list, or "
                               + "repeat the option.", valueName: "account"))
    var account: [String] = []
    @Option(help: "On or after this booking day (YYYY-MM-DD).") var from: String?
    @Option(help: "On or before this booking day (YYYY-MM-DD).") var to: String?
    @Flag(help: "Write pending and authorized transactions too (flagged !).") var includePending = false
    @Option(help: ArgumentHelp("Incremental: read and update this state file, and write only what is new since.",
                               valueName: "file"))
    var state: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of stdout (with --state: append to it; "
                                                    + "without: a new file only).", valueName: "file"))
    var output: String?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CalendarDay.parse(value) == nil { throw ValidationError("\(name) expects a day like 2026-03-14, not '\(value)'") }
        }
        if let output, state == nil, FileManager.default.fileExists(atPath: output) {
            throw ValidationError("\(output) exists: coffer never rewrites a journal (use --state to append what is new, "
                                  + "or write to a new file)")
        }
        if format == .ofx, state != nil, let output, FileManager.default.fileExists(atPath: output) {
            throw ValidationError("an OFX file is one document: write each incremental OFX export to a new file, not \(output)")
        }
    }

    func run() async throws {
        try await guarded {
            let configuration = try configOptions.load()
            let names = try JournalAccountNames.standard(directories: configOptions.directories)
            let store = try storeOptions.open(.readOnly)
            var options = ExportOptions(format: format, fromDay: from.flatMap(CalendarDay.parse),
                                        throughDay: to.flatMap(CalendarDay.parse), includePending: includePending)
            if let selected = try await AccountSelector.resolveAll(account, in: store) {
                options.accountIDs = Set(selected.map(\.id))
            }
            let exporter = Exporter(store: store, configuration: configuration, names: names)
            let result: ExportOutput
            if let state {
                result = try await exporter.export(options, resuming: try Self.readState(state))
            } else {
                result = try await exporter.export(options)
            }
            try write(result.text)
            if let state, let next = result.state { try Self.writeState(next, to: state) }
            for warning in result.warnings { FileHandle.standardError.write(Data("coffer: warning: \(warning)\n".utf8)) }
            for change in result.changes { FileHandle.standardError.write(Data("coffer: export: \(Self.describe(change))\n".utf8)) }
        }
    }

    /// `ID updated since it was exported: 2026-03-14 -4.50 USD Blue Bottle` / `ID deleted since it was exported`.
    static func describe(_ change: ExportedChange) -> String {
        guard let t = change.transaction else { return "\(change.id.uuidString) deleted since it was exported" }
        let amount = ExactDecimal.text(t.signedAmount, minimumFractionDigits: 2)
        return "\(change.id.uuidString) updated since it was exported: \(CalendarDay.string(day: t.localDay)) \(amount) "
            + "\(t.transactionAmount.currencyCode) \(t.status.name) \(t.transactionDescription)"
    }

    private func write(_ text: String) throws {
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let fm = FileManager.default
        if !fm.fileExists(atPath: output) {
            guard fm.createFile(atPath: output, contents: Data(text.utf8)) else {
                throw CofferError(.io, "cannot create the file", location: SourceLocation(file: output))
            }
            return
        }
        guard let handle = FileHandle(forWritingAtPath: output) else {
            throw CofferError(.io, "cannot open the file to append to it", location: SourceLocation(file: output))
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw CofferError(.io, "cannot append to the file: \(error.localizedDescription)", location: SourceLocation(file: output),
                              underlying: error)
        }
    }

    static func readState(_ path: String) throws -> ExportState? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(ExportState.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CofferError(.badInput, "not an export state file written by coffer export --state (\(error))",
                              location: SourceLocation(file: path))
        }
    }

    /// Written beside, then renamed over: a crash leaves the old state or the new one.
    static func writeState(_ state: ExportState, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let temporary = path + ".tmp"
        do {
            try encoder.encode(state).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw CofferError(.io, "cannot move \(temporary) over the state file: \(String(cString: strerror(errno)))",
                                  location: SourceLocation(file: path))
            }
        } catch {
            throw CofferError(.io, "cannot write the export state: \(error.localizedDescription)", location: SourceLocation(file: path),
                              underlying: error)
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
