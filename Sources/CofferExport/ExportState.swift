import CofferModel
import Foundation

/// Where an incremental export stands: the history token it read up to and what it has written, so the next
/// export writes only what is new. `Codable`: `coffer export --state FILE` keeps it as JSON.
public struct ExportState: Codable, Sendable {
    /// The format the journal is in; a state is refused for another format.
    public var format: ExportFormat
    /// The transaction history token the last export read up to.
    public var token: HistoryToken?
    /// The ids of the transactions written.
    public var exported: Set<UUID>
    /// The statement balances asserted (`ACCOUNT-ID@DAY`, days since 1970-01-01).
    public var asserted: Set<String>
    /// The opening balances written, by account.
    public var opened: [UUID: Decimal]
    /// The journal accounts declared (`open` in beancount, `account` in hledger and ledger).
    public var declared: Set<String>

    /// The state before a first export: nothing written yet.
    public init(format: ExportFormat) {
        self.format = format
        token = nil
        exported = []
        asserted = []
        opened = [:]
        declared = []
        started = false
    }

    /// Whether an export has been written with this state (the first one writes the file's header).
    public var started: Bool

    private enum CodingKeys: String, CodingKey { case version, format, token, exported, asserted, opened, declared, started }

    /// Decodes what `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(ExportFormat.self, forKey: .format)
        token = try c.decodeIfPresent(HistoryToken.self, forKey: .token)
        exported = Set(try c.decode([UUID].self, forKey: .exported))
        asserted = Set(try c.decode([String].self, forKey: .asserted))
        var opened: [UUID: Decimal] = [:]
        for (key, value) in try c.decode([String: String].self, forKey: .opened) {
            guard let id = UUID(uuidString: key), let amount = ExactDecimal.parse(value) else {
                throw DecodingError.dataCorruptedError(forKey: .opened, in: c, debugDescription: "'\(key)': '\(value)' is not an account id and an amount")
            }
            opened[id] = amount
        }
        self.opened = opened
        declared = Set(try c.decode([String].self, forKey: .declared))
        started = try c.decodeIfPresent(Bool.self, forKey: .started) ?? true
    }

    /// Encodes the state with its sets sorted, so the file changes only where the state does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(1, forKey: .version)
        try c.encode(format, forKey: .format)
        try c.encodeIfPresent(token, forKey: .token)
        try c.encode(exported.sorted { $0.uuidString < $1.uuidString }, forKey: .exported)
        try c.encode(asserted.sorted(), forKey: .asserted)
        try c.encode(Dictionary(uniqueKeysWithValues: opened.map { ($0.key.uuidString, ExactDecimal.text($0.value)) }), forKey: .opened)
        try c.encode(declared.sorted(), forKey: .declared)
        try c.encode(started, forKey: .started)
    }
}

/// A change to a transaction already written, which an incremental export reports instead of rewriting the
/// journal: the person edits the journal, if they want to.
public struct ExportedChange: Sendable {
    /// `updated`: the transaction's values changed since it was written; `deleted`: it is gone from the store.
    public enum Kind: String, Sendable { case updated, deleted }
    /// What happened.
    public var kind: Kind
    /// The transaction's id, as the journal's `coffer-id`.
    public var id: UUID
    /// The transaction as it is now (nil when deleted).
    public var transaction: Transaction?
}

/// What an export produced.
public struct ExportOutput: Sendable {
    /// The text to write (for an incremental export: to append).
    public var text: String
    /// How many transactions the text holds, and how many statement balances it asserts.
    public var transactionCount: Int
    /// How many statement balances are asserted.
    public var assertionCount: Int
    /// Statement balances the written transactions do not reach (written as comments), and similar notes.
    public var warnings: [String]
    /// Transactions written earlier that changed or went since (incremental exports only).
    public var changes: [ExportedChange]
    /// The state to save for the next incremental export (nil for a whole export).
    public var state: ExportState?
}
