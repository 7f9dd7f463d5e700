/// Coffer's own errors: what went wrong, where, and what was expected.
///
/// Errors are structs with static codes (so a new code breaks no caller). The message is a whole sentence a
/// person can act on; `location` names the statement file and the line, column or element.
///
/// For example:
/// ```swift
/// throw CofferError(.badInput, "expected a date like 2026-03-14, found '14/13/2026'",
///                   location: SourceLocation(file: "chase.csv", line: 12, column: 1))
/// // chase.csv:12:1: expected a date like 2026-03-14, found '14/13/2026'
/// ```
public struct CofferError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A statement file whose contents are not what its format promises.
        public static let badInput = Code("bad-input")
        /// No parser or profile recognises the file.
        public static let unknownFormat = Code("unknown-format")
        /// A configuration file (profile, rules) with a mistake in it.
        public static let badConfiguration = Code("bad-configuration")
        /// The store path is not a usable Coffer store.
        public static let notAStore = Code("not-a-store")
        /// The store was written by a newer Coffer.
        public static let storeTooNew = Code("store-too-new")
        /// The store cannot be written (read-only file or folder).
        public static let storeReadOnly = Code("store-read-only")
        /// Reading or writing a file failed.
        public static let io = Code("io")
        /// The institution reported an error inside the statement.
        public static let institutionError = Code("institution-error")
        /// Wrong use of the API or the command line.
        public static let usage = Code("usage")
        /// A statement's account could be more than one stored account; nothing was written (name one with
        /// `coffer import --account ID`).
        public static let ambiguousAccount = Code("ambiguous-account")
    }

    public let code: Code
    public let message: String
    public let location: SourceLocation?
    public let underlying: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, location: SourceLocation? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.underlying = underlying
    }

    /// `file:line:column: message`, one line.
    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }

    /// The same error placed in a file, keeping a line or element already known.
    public func located(inFile file: String) -> CofferError {
        let loc = location.map { SourceLocation(file: file, line: $0.line, column: $0.column, element: $0.element) }
            ?? SourceLocation(file: file)
        return CofferError(code, message, location: loc, underlying: underlying)
    }
}

/// A place in a statement file: the file, and a line and column or an element path.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible, Codable {
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// An XML or OFX element path such as `Document/BkToCstmrStmt/Stmt[1]/Ntry[3]/Amt`.
    public var element: String?

    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, element: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.element = element
    }

    public var description: String {
        var text = file ?? "<input>"
        if let line { text += ":\(line)" }
        if let column, line != nil { text += ":\(column)" }
        if let element { text += " (\(element))" }
        return text
    }
}
