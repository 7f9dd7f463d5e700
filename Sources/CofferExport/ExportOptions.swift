import CofferModel
import Foundation

/// What `Exporter` writes: a plain-text accounting journal (hledger, beancount, ledger), a CSV file or an OFX file.
public enum ExportFormat: String, CaseIterable, Sendable, Codable {
    /// An hledger journal: balance assertions `= AMOUNT`, tags in comments, posting dates for transfers.
    case hledger
    /// A beancount file: `open` directives, `balance` directives, metadata such as `coffer-id: "…"`.
    case beancount
    /// A ledger journal (Ledger 3): assertions `= AMOUNT`, `; key: value` metadata.
    case ledger
    /// One row per transaction with its journal accounts and category (RFC 4180 quoting).
    case csv
    /// An OFX 2.2 statement per account, the transaction ids as FITIDs.
    case ofx

    /// Whether the format is a double-entry journal (with accounts, assertions and opening balances).
    public var isJournal: Bool { self == .hledger || self == .beancount || self == .ledger }
}

/// Which transactions an export writes, and how.
///
/// For example:
/// ```swift
/// var options = ExportOptions(format: .beancount)
/// options.fromDay = CalendarDay.parse("2026-01-01")
/// options.includePending = true
/// ```
public struct ExportOptions: Sendable {
    /// The format written.
    public var format: ExportFormat
    /// Only these accounts; nil for every account.
    public var accountIDs: Set<UUID>?
    /// The first day written (a `CalendarDay` date, midnight UTC), inclusive; nil for no limit. A transaction is
    /// placed on its booking day: its posting date when it has one, else its own day.
    public var fromDay: Date?
    /// The last day written, inclusive; nil for no limit.
    public var throughDay: Date?
    /// Whether pending and authorized transactions are written too (flagged `!`); booked ones only by default.
    public var includePending: Bool

    /// Options for one format; every account, every day, booked transactions only.
    public init(format: ExportFormat, accountIDs: Set<UUID>? = nil, fromDay: Date? = nil, throughDay: Date? = nil,
                includePending: Bool = false) {
        self.format = format
        self.accountIDs = accountIDs
        self.fromDay = fromDay
        self.throughDay = throughDay
        self.includePending = includePending
    }

    /// Whether a transaction of this status is written.
    func writes(_ status: TransactionStatus) -> Bool {
        status == .booked || (includePending && (status == .pending || status == .authorized))
    }

    /// Whether a day (days since 1970-01-01) is inside the range.
    func covers(day: Int) -> Bool {
        if let fromDay, day < CalendarDay.dayNumber(fromDay) { return false }
        if let throughDay, day > CalendarDay.dayNumber(throughDay) { return false }
        return true
    }
}
