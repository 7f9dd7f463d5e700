/// Coffer's own errors: what went wrong, where, and what was expected.
///
/// Errors are structs with static codes (so a new code breaks no caller). The message is a whole sentence a
/// person can act on; `location` names the statement file and the line, column or element; `underlying` keeps
/// the cause (a SQLite or file-system error). Decisions (retry, exit codes, the watch service's folders) read
/// `code` and its properties (`CofferError.Code`), never the message.
///
/// For example:
/// ```swift
/// throw CofferError(.badInput, "expected a date like 2026-03-14, found '14/13/2026'",
///                   location: SourceLocation(file: "chase.csv", line: 12, column: 1))
/// // chase.csv:12:1: expected a date like 2026-03-14, found '14/13/2026'
/// ```
public struct CofferError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; decisions read it (see `Code`).
    public let code: Code
    /// A whole sentence saying what went wrong and what was expected, without the location.
    public let message: String
    /// The statement or configuration file and the line, column or element, when known.
    public let location: SourceLocation?
    /// The error this one classifies or wraps, if any (GRDB's `DatabaseError`, a POSIX or Foundation error).
    public let underlying: (any Error & Sendable)?

    /// An error of `code` saying `message`, at `location`, caused by `underlying`.
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
    /// The file, as given to the import.
    public var file: String?
    /// The line, counting from 1.
    public var line: Int?
    /// The column on that line, counting from 1.
    public var column: Int?
    /// An XML or OFX element path such as `Document/BkToCstmrStmt/Stmt[1]/Ntry[3]/Amt`.
    public var element: String?

    /// A place; give what is known.
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
