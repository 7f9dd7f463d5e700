/// Where a history sequence stands. Opaque and `Codable`: save it, pass it back as `since:` to resume.
///
/// Encodes as a single string. The store that issued it checks it: a token from another store, a tampered or
/// garbled one, or one older than the compaction horizon makes history throw `FinanceError.historyTokenInvalid`.
public struct HistoryToken: Codable, Sendable {
    /// The encoded form; only the store reads it.
    package let encoded: String

    package init(encoded: String) { self.encoded = encoded }

    /// Decodes a token saved with `encode(to:)`: a single string.
    public init(from decoder: any Decoder) throws {
        encoded = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the token as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoded)
    }

    /// The token as text, as `coffer history` prints it.
    public var stringValue: String { encoded }

    /// A token from its text form. Any text is accepted here; the store validates it when it is used.
    public init(stringValue: String) { encoded = stringValue }
}

/// One batch of history: what was inserted, updated (full values) and deleted (IDs only) since the previous
/// batch, and the token that resumes after it.
public struct Changes<Model: Identifiable & Sendable>: Sendable where Model.ID: Sendable {
    /// Records new since the previous token (from a nil token: every current record).
    public let inserted: [Model]
    /// Records whose values changed, as they are now.
    public let updated: [Model]
    /// Identifiers of records removed.
    public let deleted: [Model.ID]
    /// The token that resumes after this batch: save it once the batch is applied.
    public let newToken: HistoryToken

    /// Creates a batch of changes.
    public init(inserted: [Model], updated: [Model], deleted: [Model.ID], newToken: HistoryToken) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.newToken = newToken
    }

    /// Whether the batch holds no change.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
