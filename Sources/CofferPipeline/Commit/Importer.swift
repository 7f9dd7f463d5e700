import CofferFormats
import CofferModel
import CofferStore
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization

/// Options of one `coffer import` run.
public struct ImportOptions: Sendable {
    /// Run every stage, report the changes, commit nothing.
    public var dryRun = false
    /// Import a byte-identical file again (it must then change nothing).
    public var force = false
    /// Read CSV files with this profile instead of identifying one.
    public var profileID: String?
    /// Collect the list of changes in each report (on for dry runs).
    public var listChanges = false
    /// CSV: report rows with a bad date or amount as warnings and import the rest, instead of failing the file.
    public var skipBadRows = false
    /// The account of statements that do not say which account they are for (an OFX statement without
    /// `BANKACCTFROM`/`CCACCTFROM`), and of statements whose account could be several stored accounts (it must
    /// be one of them; its identity is then remembered). Other statements that name their account are not
    /// affected.
    public var account: AccountChoice?
    /// The currency of statements that name none (an empty OFX `CURDEF`, any QIF file) and whose account is not
    /// stored yet.
    public var currency: String?
    /// The order of day and month in QIF dates that read both ways (`01/02/2026`); nil lets each file's own dates
    /// decide, and a file whose every such date is ambiguous fails saying so.
    public var dateOrder: DateOrder?
    /// The single-byte encoding of MT940 and QIF files, which cannot declare theirs (`cp1250` for a Polish or Czech
    /// bank, `cp1251`, `ISO-8859-2`; any single-byte encoding iconv knows): their text that is not valid UTF-8 is
    /// read in it. Nil reads such text as Windows-1252. Formats that declare an encoding (OFX, camt) and CSV files
    /// (their profile's `encoding`) do not use it. An encoding iconv does not know, or one that is not a single-byte
    /// extension of ASCII, fails each import with a usage error.
    public var textEncoding: String?

    /// The order of day and month in a date like `01/02/2026`.
    public enum DateOrder: String, Sendable, CaseIterable {
        /// Day first: 1 February 2026 (Europe, Quicken and Money outside the US).
        case dayMonthYear = "dmy"
        /// Month first: 2 January 2026 (Quicken in the US).
        case monthDayYear = "mdy"

        package var qif: QIFDateOrder { self == .dayMonthYear ? .dmy : .mdy }
    }

    /// Where a statement without an account goes.
    public enum AccountChoice: Sendable, Equatable {
        /// A stored account, by id.
        case existing(UUID)
        /// A new account of this name (or the stored account the same name made before).
        case new(name: String)
    }

    /// Options; the defaults import for real, identifying each file's format.
    public init(dryRun: Bool = false, force: Bool = false, profileID: String? = nil, listChanges: Bool = false,
                skipBadRows: Bool = false, account: AccountChoice? = nil, currency: String? = nil,
                dateOrder: DateOrder? = nil, textEncoding: String? = nil) {
        self.dryRun = dryRun
        self.force = force
        self.profileID = profileID
        self.listChanges = listChanges
        self.skipBadRows = skipBadRows
        self.account = account
        self.currency = currency
        self.dateOrder = dateOrder
        self.textEncoding = textEncoding
    }

    /// `textEncoding` as the table the MT940 and QIF readers use; a usage error when no single-byte encoding
    /// iconv knows has that name.
    package func textEncodingTable() throws -> SingleByteTable? {
        try textEncoding.map { try Self.table(forEncoding: $0) }
    }

    /// The table of a single-byte encoding a person named (`--encoding`), or a usage error saying why not.
    package static func table(forEncoding label: String) throws -> SingleByteTable {
        do {
            return try SingleByteTable(label: label)
        } catch .unknown {
            throw CofferError(.usage, "--encoding: iconv knows no encoding named '\(label)' (try cp1250, cp1251, ISO-8859-2, KOI8-R)")
        } catch .notASCIISuperset {
            throw CofferError(.usage, "--encoding: '\(label)' is not a single-byte encoding that extends ASCII; MT940 and QIF "
                              + "files in it cannot be read as lines (convert the file to UTF-8 first)")
        }
    }
}

/// The pipeline: statement files in, history changes committed.
///
/// For example:
/// ```swift
/// let importer = Importer(store: store, configuration: try .load(directory: "config"))
/// let report = try await importer.importFile("feeds/ofx/bank-ofx1-sgml.ofx")
/// print(report.status, report.inserted)
/// ```
/// Each file is one SQLite write transaction covering its changes, their change-log rows and its import-ledger
/// entry: a file commits whole or not at all. A failure is reported, never thrown, so one bad file never stops
/// the others; the report's `error` is a `CofferError` whose code says whose fault it is and whether to retry.
/// From async code use the `async` form: it runs the import on a thread of its own (never on the cooperative
/// pool) and stops without writing anything when its task is cancelled.
public struct Importer: Sendable {
    /// The store files are imported into.
    public let store: FinanceStore
    /// The profiles, rules and institutions imports use.
    public let configuration: CofferConfiguration
    package let identifier: FormatIdentifier
    let logger: Logger

    /// An importer for a store with a configuration (`CofferConfiguration.standard()` for Coffer's layers).
    public init(store: FinanceStore, configuration: CofferConfiguration, logger: Logger = Logger(label: "coffer.import")) {
        self.store = store
        self.configuration = configuration
        self.identifier = FormatIdentifier(profiles: configuration.profiles)
        self.logger = logger
    }

    /// Imports one file on the calling thread, which it holds until the file is committed; `progress` hears the
    /// number of transactions read so far, every 10,000.
    public func importFile(_ path: String, options: ImportOptions = ImportOptions(), progress: ((Int) -> Void)? = nil) -> FileReport {
        importFile(path, options: options, progress: progress, isCancelled: nil).report
    }

    /// Imports one file on a thread of its own, off Swift's cooperative pool; `progress` hears the number of
    /// transactions read so far, every 10,000 (on the import's thread).
    ///
    /// For example:
    /// ```swift
    /// let task = Task { try await importer.importFile(path) }
    /// task.cancel()  // before the commit: nothing of the file is written, the task throws CancellationError
    /// ```
    /// Cancelling the task stops the import before its commit (it checks between records and once more just
    /// before committing) and throws `CancellationError`; the store is then exactly as before. Once the commit
    /// has begun, cancelling changes nothing and the report comes back. Every other failure is in the report.
    public func importFile(_ path: String, options: ImportOptions = ImportOptions(),
                           progress: (@Sendable (Int) -> Void)? = nil) async throws -> FileReport {
        try Task.checkCancellation()
        let cancelled = CancelFlag()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<(report: FileReport, cancelled: Bool), Never>) in
                let thread = Thread {
                    continuation.resume(returning: importFile(path, options: options, progress: progress,
                                                              isCancelled: { cancelled.isSet }))
                }
                thread.name = "coffer-import"
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
        if outcome.cancelled { throw CancellationError() }
        return outcome.report
    }

    /// The import itself, on the calling thread. `isCancelled` is asked between records and before the commit;
    /// when it says yes the write transaction rolls back and `cancelled` is true.
    func importFile(_ path: String, options: ImportOptions, progress: ((Int) -> Void)?,
                    isCancelled: (() -> Bool)?) -> (report: FileReport, cancelled: Bool) {
        let started = Date()
        var report = FileReport(path: path, status: .failed)
        let stamp = FileStamp(path: path)
        var digest: FileDigest?
        var hashedFirst: String?  // the digest when it was computed before the import (a failure keeps it)
        do {
            let input = StatementInput.file(path)
            let format = try identifier.identify(input, profileID: options.profileID, skipBadRows: options.skipBadRows,
                                                 dateOrder: options.dateOrder?.qif, textEncoding: try options.textEncodingTable())
            report.format = format.name
            report.profile = format.profile
            let file = stamp?.ledgerFile
            let normalizer = configuration.normalizer
            report = try store.write(dryRun: options.dryRun) { writer -> FileReport in
                var report = report
                // Whether the file was imported before (not asked with `--force`): the same path with the same size
                // and stat stamp is the file an import read; otherwise its SHA-256 decides, which is needed now only
                // when an import of a file of its size is on record. Every other digest is computed beside the
                // import, on a thread of its own, and recorded at its end (serial, it was 6% of a first import).
                if !options.force {
                    if let file, let earlier = try writer.imports(path: path, file: file).first {
                        report.sha256 = earlier.sha256
                        return Self.alreadyImported(report, earlier)
                    }
                    if try file.map({ try writer.mayHaveImported(size: $0.size) }) ?? true {
                        let sha = try Self.sha256(of: input)
                        hashedFirst = sha
                        report.sha256 = sha
                        if let earlier = try writer.imports(sha256: sha).first { return Self.alreadyImported(report, earlier) }
                    }
                }
                if report.sha256 == nil { digest = FileDigest(input) }
                let sha = report.sha256
                try writer.beginImport(sha256: sha ?? "", path: path, format: format.name, profile: format.profile, file: file)
                let session = try ImportSession(writer: writer, fileName: path, report: report, idNamespace: format.idNamespace,
                                                collectChanges: options.dryRun || options.listChanges, progress: progress,
                                                fallback: StatementAccount.Fallback(account: options.account,
                                                                                    currency: options.currency),
                                                accountRules: StatementAccount.Rules(institutions: configuration.institutions,
                                                                                     aliases: configuration.accountAliases))
                let preparer = TransactionPreparer(normalizer: normalizer, idName: format.idName, idNamespace: format.idNamespace)
                try ImportPipe.run(parser: format.parser, input: input, preparer: preparer, prepareApart: format.parsesApart) { event in
                    if let isCancelled, isCancelled() { throw CancellationError() }
                    return try session.handle(consume event)
                }
                try session.finish()
                let computed = try digest?.value()
                try writer.finishImport(unchanged: session.report.unchanged, warnings: session.report.warnings,
                                        sha256: computed)
                // The last moment to stop: after this the transaction commits.
                if let isCancelled, isCancelled() { throw CancellationError() }
                var done = session.report
                if let computed { done.sha256 = computed }
                done.status = options.dryRun ? .dryRun : .imported
                return done
            }
            logger.info("imported", metadata: [
                "file": "\(path)", "status": "\(report.status.rawValue)", "format": "\(report.format ?? "")",
                "inserted": "\(report.inserted)", "updated": "\(report.updated)", "deleted": "\(report.deleted)",
                "unchanged": "\(report.unchanged)",
            ])
        } catch is CancellationError where isCancelled != nil {
            logger.info("import cancelled; nothing written", metadata: ["file": "\(path)"])
            report.seconds = Date().timeIntervalSince(started)
            return (report, true)
        } catch {
            report.status = .failed
            // The digest of a failed file, as it was before digests moved into the import (when it can be read).
            if report.sha256 == nil {
                report.sha256 = hashedFirst ?? (try? digest?.value()) ?? (try? Self.sha256(of: .file(path)))
            }
            report.inserted = 0
            report.updated = 0
            report.deleted = 0
            report.unchanged = 0
            report.changes = nil
            let failure = ImportFailure.classify(error, path: path, storePath: store.path, before: stamp)
            report.error = failure
            logger.error("import failed", metadata: ["file": "\(path)", "code": "\(failure.code)", "error": "\(failure.description)"])
        }
        report.seconds = Date().timeIntervalSince(started)
        return (report, false)
    }

    /// The statement files named by `paths`: files as given, folders searched recursively (hidden files and
    /// folders skipped), and glob patterns (`'inbox/*.ofx'`, quoted so the shell leaves them) expanded; in a
    /// stable order.
    public static func expand(_ paths: [String]) throws -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        var expanded: [String] = []
        for path in paths {
            if path.contains(where: { "*?[".contains($0) }), !fm.fileExists(atPath: path) {
                let matches = glob(path)
                guard !matches.isEmpty else { throw CofferError(.usage, "\(path): no file matches the pattern") }
                expanded.append(contentsOf: matches)
            } else {
                expanded.append(path)
            }
        }
        for path in expanded {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CofferError(.usage, "\(path): no such file or folder")
            }
            guard isDirectory.boolValue else {
                out.append(path)
                continue
            }
            guard let walker = fm.enumerator(atPath: path) else { continue }
            var found: [String] = []
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                let full = (path as NSString).appendingPathComponent(relative)
                var sub: ObjCBool = false
                if fm.fileExists(atPath: full, isDirectory: &sub), !sub.boolValue,
                   isStatementCandidate(name) || isLineStatement(full, name: name) {
                    found.append(full)
                }
            }
            out.append(contentsOf: found.sorted())
        }
        return out
    }

    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }

    /// Golden files, notes and partial downloads are not statements.
    static func isStatementCandidate(_ name: String) -> Bool {
        let lower = name.lowercased()
        // Notes and golden files beside statements, and the names browsers and editors give files being written.
        for suffix in [".expected.json", ".expected", ".events", ".md", ".txt", ".crdownload", ".part", ".partial", ".download",
                       ".tmp", ".swp"] where lower.hasSuffix(suffix) {
            return false
        }
        return !lower.hasPrefix("~$")
    }

    /// A `.txt` file that is an MT940 or QIF statement (banks save both under that name), not a note.
    static func isLineStatement(_ path: String, name: String) -> Bool {
        let lower = name.lowercased()
        guard lower.hasSuffix(".txt"), !lower.hasSuffix(".error.txt"),
              var prefix = try? StatementInput.file(path).prefix(16 * 1024) else { return false }
        if let form = UTF16Text.form(of: prefix) { prefix = UTF16Text.utf8Prefix(of: prefix, form) }  // saved as "Unicode" text
        return MT940Parser.sniff(prefix) || QIFParser.sniff(prefix)
    }

    /// The report of a file an earlier live import read.
    private static func alreadyImported(_ report: FileReport, _ earlier: ImportRecord) -> FileReport {
        var report = report
        report.status = .alreadyImported
        report.warnings.append("already imported on \(ISO8601DateFormatter().string(from: earlier.importedAt)) from \(earlier.path); --force imports it again")
        return report
    }

    /// The file's SHA-256, read in chunks.
    static func sha256(of input: StatementInput) throws -> String {
        var hasher = SHA256()
        let reader = try input.makeReader()
        while let chunk = try reader.next() { hasher.update(data: chunk) }
        return hasher.finalize().lowercaseHex
    }
}

/// A file's SHA-256 computed on a thread of its own, from when it is made; `value()` waits for it. Dropped
/// unasked (the import was cancelled), the thread still reads the file to its end and its result is discarded.
private final class FileDigest: @unchecked Sendable {  // `result` is written before `done` signals, read after
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<String, any Error> = .success("")

    init(_ input: StatementInput) {
        let thread = Thread { [self] in
            result = Result { try Importer.sha256(of: input) }
            done.signal()
        }
        thread.name = "coffer-digest"
        thread.start()
    }

    func value() throws -> String {
        done.wait()
        done.signal()  // a second ask does not block
        return try result.get()
    }
}

/// Set once when an async import's task is cancelled; read by the import's thread between records.
private final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
