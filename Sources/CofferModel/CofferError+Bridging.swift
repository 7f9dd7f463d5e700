import Foundation

/// Keys of `CofferError.errorUserInfo` besides Foundation's own.
extension CofferError {
    /// The code's stable name (`bad-input`).
    public static let codeNameKey = "CofferErrorCode"
    /// Where: `file:line:column (element)`, as `SourceLocation.description` writes it.
    public static let locationKey = "CofferSourceLocation"
    /// The line, when known (an `Int`).
    public static let lineKey = "CofferSourceLine"
    /// The column, when known (an `Int`).
    public static let columnKey = "CofferSourceColumn"
    /// The XML or OFX element path, when known.
    public static let elementKey = "CofferSourceElement"
}

/// `CofferError` as Foundation sees it: `localizedDescription` is the one-line `file:line:column: message`.
extension CofferError: LocalizedError {
    public var errorDescription: String? { description }
    public var failureReason: String? { code.failureReason }
    public var recoverySuggestion: String? { code.recoverySuggestion }
}

/// Bridges to `NSError` in the domain `Coffer.CofferError`, with the code's stable number.
///
/// For example:
/// ```swift
/// let ns = CofferError(.badInput, "expected a date", location: SourceLocation(file: "a.csv", line: 3)) as NSError
/// // ns.domain == "Coffer.CofferError", ns.code == 1, ns.localizedDescription == "a.csv:3: expected a date"
/// ```
extension CofferError: CustomNSError {
    public static var errorDomain: String { "Coffer.CofferError" }
    public var errorCode: Int { code.errorCode }

    /// The description, failure reason and recovery suggestion under Foundation's keys (Linux's Foundation reads
    /// only these), the code's name, the location (also as `NSFilePathErrorKey`), and the cause as
    /// `NSUnderlyingErrorKey`.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: description,
            NSLocalizedFailureReasonErrorKey: code.failureReason,
            Self.codeNameKey: code.name,
        ]
        if let suggestion = code.recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = suggestion }
        if let location {
            info[Self.locationKey] = location.description
            if let file = location.file { info[NSFilePathErrorKey] = file }
            if let line = location.line { info[Self.lineKey] = line }
            if let column = location.column { info[Self.columnKey] = column }
            if let element = location.element { info[Self.elementKey] = element }
        }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return info
    }
}

/// The JSON form (`coffer import --json`'s `error`): `code`, `message`, `file`, `line`, `column`, `element` and the
/// one-line `description`. The cause is not encoded; a decoded error has none.
extension CofferError: Codable {
    enum CodingKeys: String, CodingKey { case code, message, file, line, column, element, description }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .code)
        guard let code = Code(name: name) else {
            throw DecodingError.dataCorruptedError(forKey: .code, in: c, debugDescription: "unknown error code '\(name)'")
        }
        let location = SourceLocation(file: try c.decodeIfPresent(String.self, forKey: .file),
                                      line: try c.decodeIfPresent(Int.self, forKey: .line),
                                      column: try c.decodeIfPresent(Int.self, forKey: .column),
                                      element: try c.decodeIfPresent(String.self, forKey: .element))
        self.init(code, try c.decode(String.self, forKey: .message), location: location == SourceLocation() ? nil : location)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code.name, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(location?.file, forKey: .file)
        try c.encodeIfPresent(location?.line, forKey: .line)
        try c.encodeIfPresent(location?.column, forKey: .column)
        try c.encodeIfPresent(location?.element, forKey: .element)
        try c.encode(description, forKey: .description)
    }
}
