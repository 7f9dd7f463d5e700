extension CofferError {
    /// What kind of failure an error is: a stable name (`bad-input`, in JSON and logs), a stable number (the
    /// `NSError` code), and what a caller decides from it: whether trying again may succeed (`isTransient`),
    /// whether the store rather than the statement is at fault (`concernsStore`), and the exit code.
    ///
    /// For example:
    /// ```swift
    /// if error.code.isTransient { /* leave the file; try again later */ }
    /// ```
    /// The names and numbers never change once shipped (a test pins the table); a new code gets the next number.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, as JSON and logs show it: `bad-input`.
        public let name: String
        /// The stable number, `CustomNSError.errorCode` of errors with this code.
        public let errorCode: Int

        private init(_ name: String, _ errorCode: Int) {
            self.name = name
            self.errorCode = errorCode
        }

        public var description: String { name }

        /// A statement file whose contents are not what its format promises.
        public static let badInput = Code("bad-input", 1)
        /// No parser or profile recognises the file.
        public static let unknownFormat = Code("unknown-format", 2)
        /// A configuration file (profile, rules) with a mistake in it.
        public static let badConfiguration = Code("bad-configuration", 3)
        /// The store path is not a usable Coffer store (missing, another program's database, damaged).
        public static let notAStore = Code("not-a-store", 4)
        /// The store was written by a newer Coffer.
        public static let storeTooNew = Code("store-too-new", 5)
        /// The store cannot be written (read-only file or folder).
        public static let storeReadOnly = Code("store-read-only", 6)
        /// Reading or writing a file other than the store failed (permissions, a folder where a file was expected).
        public static let io = Code("io", 7)
        /// The institution reported an error inside the statement.
        public static let institutionError = Code("institution-error", 8)
        /// Wrong use of the API or the command line.
        public static let usage = Code("usage", 9)
        /// A statement's account could be more than one stored account; nothing was written (name one with
        /// `coffer import --account ID`).
        public static let ambiguousAccount = Code("ambiguous-account", 10)
        /// Something Coffer did not expect (a bug): `underlying` has the cause.
        public static let `internal` = Code("internal", 11)
        /// Another process or connection holds the store's write lock (SQLite's `BUSY`/`LOCKED`) past the wait:
        /// transient.
        public static let storeBusy = Code("store-busy", 12)
        /// The store's file could not be opened, read or written (disk full, an I/O error, a vanished folder):
        /// the store is at fault, not the statement, and waiting alone does not fix it.
        public static let storeIO = Code("store-io", 13)
        /// The statement file is not there (it was moved or deleted before or while it was read).
        public static let fileNotFound = Code("file-not-found", 14)
        /// The statement file changed while it was read (still being written) or is locked: transient.
        public static let fileChanging = Code("file-changing", 15)
        /// A client token the store never issued, or one whose client was revoked or removed
        /// (`FinanceStore(path:clientToken:)`): ask the store's owner for a new one (`coffer clients add`).
        public static let unknownClient = Code("unknown-client", 16)

        /// Every code, in number order.
        public static let all: [Code] = [
            .badInput, .unknownFormat, .badConfiguration, .notAStore, .storeTooNew, .storeReadOnly, .io,
            .institutionError, .usage, .ambiguousAccount, .internal, .storeBusy, .storeIO, .fileNotFound, .fileChanging,
            .unknownClient,
        ]

        /// The code of this name, if there is one (`CofferError`'s JSON decoding).
        public init?(name: String) {
            guard let code = Self.all.first(where: { $0.name == name }) else { return nil }
            self = code
        }

        /// Trying the same thing again a little later may succeed with nobody doing anything: another writer
        /// holds the store, or the file is still being written. The watch service leaves such a file in the
        /// inbox and imports it at a later scan.
        public var isTransient: Bool {
            switch self {
            case .storeBusy, .fileChanging: true
            default: false
            }
        }

        /// The store, not the statement, is at fault: the file is fine and must not be set aside as bad (the
        /// watch service leaves it in the inbox).
        public var concernsStore: Bool {
            switch self {
            case .notAStore, .storeTooNew, .storeReadOnly, .storeBusy, .storeIO: true
            default: false
            }
        }

        /// The command line's exit status for a command that fails with this code: 64 (`EX_USAGE`) for wrong
        /// use, else 1.
        public var exitCode: Int32 { self == .usage ? 64 : 1 }

        /// Why errors of this code happen, one sentence (`LocalizedError.failureReason`).
        public var failureReason: String {
            switch self {
            case .badInput: "The statement file's contents are not what its format promises."
            case .unknownFormat: "No parser or CSV profile recognises the file."
            case .badConfiguration: "A configuration file (a CSV profile or rules) has a mistake in it."
            case .notAStore: "The path is not a usable Coffer store."
            case .storeTooNew: "The store was written by a newer version of Coffer."
            case .storeReadOnly: "The store cannot be written."
            case .io: "A file could not be read or written."
            case .institutionError: "The institution reported an error inside the statement."
            case .usage: "The request is not valid."
            case .ambiguousAccount: "The statement's account could be more than one stored account."
            case .storeBusy: "Another process is writing to the store."
            case .storeIO: "The store's file could not be opened, read or written."
            case .fileNotFound: "The statement file is not there."
            case .fileChanging: "The statement file changed while it was being read."
            case .unknownClient: "The client token is not one this store issued, or its client was revoked."
            default: "Coffer met a situation it does not expect."
            }
        }

        /// What to do about errors of this code, where there is something general to say.
        public var recoverySuggestion: String? {
            switch self {
            case .unknownFormat: "Import it with --profile ID, or write a profile for it (coffer profile draft FILE)."
            case .storeTooNew: "Upgrade coffer."
            case .storeReadOnly: "Make the store file and its folder writable."
            case .ambiguousAccount: "Name the account with coffer import --account ID."
            case .storeBusy: "Try again when the other import has finished."
            case .storeIO: "Check the disk's free space and the store's folder, then try again."
            case .fileChanging: "Wait until the file is completely written, then import it again."
            case .unknownClient: "Ask the store's owner for a token (coffer clients add NAME)."
            case .internal: "Please report it with the file that caused it, if you can share it."
            default: nil
            }
        }
    }
}
