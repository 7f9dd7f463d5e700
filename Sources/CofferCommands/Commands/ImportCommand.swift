import ArgumentParser
import Coffer
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import statement files or folders (OFX/QFX, camt.05x XML, MT940/MT942, QIF, CSV).",
        discussion: """
            Each file commits whole or not at all; a bad file is reported and the others still import. A file \
            imported before (same SHA-256) is skipped unless --force, which must then change nothing.
            Quiet when output is not a terminal, so cron mails only failures and the warnings a person should look \
            at (a statement that does not reconcile, an OFX balance that does not follow from the previous \
            statement's, skipped rows, re-issued ids, a new currency account); --json \
            prints a summary per file. Exit 0 when every file is fine (also when nothing was new), 1 when some failed.
            A statement whose account could be several stored accounts (same institution, same last digits) fails \
            with the candidates listed; --account ID says which one.
            Cron: 17 6 * * *  coffer import ~/statements/inbox
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "Statement files, folders (searched recursively) or quoted glob patterns ('inbox/*.csv').") var paths: [String]
    @OptionGroup var configOptions: ConfigOptions
    @Option(help: ArgumentHelp("Read the CSV files with this profile: an id (see coffer config show) or a profile file's path "
                               + "(a draft); OFX and camt files among them are read as what they are."))
    var profile: String?
    @Flag(help: "Show the changes without writing them.") var dryRun = false
    @Flag(help: "Import files again even when imported before.") var force = false
    @Flag(help: "CSV: skip rows with a bad date or amount (each reported) instead of failing the file.") var skipBadRows = false
    @Option(help: ArgumentHelp("For statements that do not say which account they are for (no OFX BANKACCTFROM), "
                               + "and for those that could be more than one stored account (an ambiguous-account "
                               + "error lists them; the choice is remembered): an existing account's id, last digits "
                               + "or name (see coffer accounts).", valueName: "ID"))
    var account: [String] = []
    @Option(help: ArgumentHelp("For statements that do not say which account they are for: create (or reuse) an "
                               + "account of this name.", valueName: "NAME"))
    var newAccount: String?
    @Option(help: ArgumentHelp("The currency of statements that name none (an empty OFX CURDEF; QIF files, else USD) "
                               + "when their account is new; a stored account keeps its own.", valueName: "CODE"))
    var currency: String?
    @Option(help: ArgumentHelp("QIF: the order of day and month in dates that read both ways (01/02/2026): mdy (Quicken "
                               + "in the US) or dmy (day first). Without it the file's own dates decide, and a file "
                               + "whose every such date is ambiguous fails.", valueName: "ORDER"))
    var dateOrder: DateOrderOption?
    @Option(help: ArgumentHelp("MT940 and QIF: the single-byte encoding of text that is not UTF-8 (those formats cannot "
                               + "say; default windows-1252), e.g. cp1250 for a Polish or Czech bank, cp1251, "
                               + "ISO-8859-2. OFX, camt and CSV files declare their own.", valueName: "NAME"))
    var encoding: String?
    @Flag(help: "Print a JSON summary.") var json = false
    @Flag(name: .shortAndLong, help: "Print a line per file even when not on a terminal.") var verbose = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("name at least one statement file or folder") }
        let accounts = AccountSelector.split(account)
        if accounts.count > 1 {
            throw ValidationError("--account names the one account these statements are for; found \(accounts.count) "
                                  + "(\(accounts.joined(separator: ", "))): import each account's files with its own --account")
        }
        if !accounts.isEmpty, newAccount != nil { throw ValidationError("give --account or --new-account, not both") }
        if let newAccount, newAccount.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--new-account needs a name")
        }
        if let currency, currency.count != 3 || !currency.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("--currency expects an ISO 4217 code such as USD, found '\(currency)'")
        }
    }

    func run() async throws {
        var failed = false
        try await guarded {
            var files: [String] = []
            for path in paths {
                let found = try Importer.expand([path])
                files += found
                if found.isEmpty, !json, isTerminal || verbose { Self.sayNothingFound(in: path) }
            }
            let configuration = try configOptions.load()
            if let profile { try Self.checkProfile(profile, in: configuration) }
            if let encoding { _ = try ImportOptions.table(forEncoding: encoding) }  // before the store is opened
            let store = try storeOptions.open(.readWrite)
            let importer = Importer(store: store, configuration: configuration)
            var choice: ImportOptions.AccountChoice?
            if let account = AccountSelector.split(account).first { choice = .existing(try await AccountSelector.resolve(account, in: store).id) }
            if let newAccount { choice = .new(name: newAccount.trimmingCharacters(in: .whitespaces)) }
            let options = ImportOptions(dryRun: dryRun, force: force, profileID: profile, skipBadRows: skipBadRows,
                                        account: choice, currency: currency?.uppercased(), dateOrder: dateOrder?.order,
                                        textEncoding: encoding)
            var reports: [FileReport] = []
            for file in files {
                var progress: (@Sendable (Int) -> Void)?
                if isErrorTerminal && !json {
                    progress = { count in
                        FileHandle.standardError.write(Data("\r\u{1B}[2K\(file): \(count.formatted()) transactions read".utf8))
                    }
                }
                let report = try await importer.importFile(file, options: options, progress: progress)
                if progress != nil { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
                reports.append(report)
                if !report.succeeded {
                    failed = true
                    if !json { FileHandle.standardError.write(Data(("coffer: " + (report.error?.description ?? report.path) + "\n").utf8)) }
                }
                if !json, isTerminal || verbose || dryRun {
                    describe(report)
                } else if !json, !report.attention.isEmpty {
                    // Under cron: quiet, except for what a person should look at.
                    for line in report.attention { FileHandle.standardError.write(Data("coffer: warning: \(line)\n".utf8)) }
                }
            }
            // A receipt often arrives before the statement that pays it: link the orders this import's rows pay.
            if !dryRun, reports.contains(where: { $0.status == .imported && $0.inserted + $0.updated > 0 }) {
                let linked = try await store.linkOrders()
                if linked > 0, !json, isTerminal || verbose { printLine("\(linked) order(s) linked to the transaction that paid for them") }
            }
            if json {
                printLine(try JSON.document(Summary(files: reports)))
            } else if isTerminal || verbose, reports.count > 1 {
                let ok = reports.filter(\.succeeded)
                printLine("\(files.count) file(s): \(ok.map(\.inserted).reduce(0, +)) new, \(ok.map(\.updated).reduce(0, +)) updated, "
                          + "\(ok.map(\.deleted).reduce(0, +)) deleted, \(reports.count - ok.count) failed")
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// `0 statement files found in FOLDER`, and how many files were skipped (hidden, temporary or notes). Printed
    /// like the per-file lines: on a terminal or with --verbose (cron stays quiet about an empty inbox).
    static func sayNothingFound(in path: String) {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return }
        var skipped = 0
        if let walker = fm.enumerator(atPath: path) {
            while let relative = walker.nextObject() as? String {
                var sub: ObjCBool = false
                if fm.fileExists(atPath: (path as NSString).appendingPathComponent(relative), isDirectory: &sub), !sub.boolValue { skipped += 1 }
            }
        }
        printLine("0 statement files found in \(path)"
                  + (skipped > 0 ? " (\(skipped) hidden, temporary or note file(s) skipped: dotfiles, .part, .crdownload, .tmp, .txt, .md …)" : ""))
    }

    /// A `--profile` id must be one the configuration has (or a profile file's path): a misspelt one is an error
    /// even when the files it would apply to are OFX or camt, which it does not touch.
    static func checkProfile(_ profile: String, in configuration: CofferConfiguration) throws {
        if profile.hasSuffix(".yaml") || profile.hasSuffix(".yml") || profile.contains("/") { return }
        guard configuration.profiles.profile(id: profile) == nil else { return }
        let known = configuration.profiles.profiles.map(\.id).sorted().joined(separator: ", ")
        throw CofferError(.usage, "no CSV profile '\(profile)' (known: \(known.isEmpty ? "none" : known); or give a profile file's path)")
    }

    func describe(_ report: FileReport) {
        switch report.status {
        case .failed: return
        case .alreadyImported: printLine("\(report.path): already imported, skipped")
        case .imported, .dryRun:
            var line = "\(report.path): \(report.inserted) new, \(report.updated) updated, \(report.deleted) deleted, \(report.unchanged) unchanged"
            line += " (\(report.format ?? "?")\(report.profile.map { " " + $0 } ?? ""))"
            if report.status == .dryRun { line += " — dry run, nothing written" }
            printLine(line)
            for change in report.changes ?? [] {
                printLine("  \(change.op.padding(toLength: 6, withPad: " ", startingAt: 0)) \(change.date)  \(change.amount) \(change.currency)  \(change.description) [\(change.status)]")
            }
        }
        for warning in report.warnings { printLine("  warning: \(warning)") }
    }

    struct Summary: Encodable {
        let files: [FileReport]
        var inserted: Int { files.map(\.inserted).reduce(0, +) }
        var failed: Int { files.filter { !$0.succeeded }.count }

        enum CodingKeys: String, CodingKey { case files, inserted, updated, deleted, unchanged, failed }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(files, forKey: .files)
            try c.encode(inserted, forKey: .inserted)
            try c.encode(files.map(\.updated).reduce(0, +), forKey: .updated)
            try c.encode(files.map(\.deleted).reduce(0, +), forKey: .deleted)
            try c.encode(files.map(\.unchanged).reduce(0, +), forKey: .unchanged)
            try c.encode(failed, forKey: .failed)
        }
    }
}
