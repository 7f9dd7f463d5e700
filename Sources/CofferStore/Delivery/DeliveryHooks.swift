import CofferModel
import Foundation
import GRDB

/// A named background delivery hook: which data types it follows, how often it may run, and what it runs.
///
/// For example:
/// ```swift
/// try store.saveDeliveryHook(DeliveryHook(name: "budget", types: [.transactions], frequency: .hourly,
///                                         command: "/usr/local/bin/budget-sync"))
/// ```
/// A hook is due when one of its types changed after `lastDeliveredSequence` and `frequency.interval` has passed
/// since `lastRunAt`. Its state lives in the store, so it survives restarts of the watch service.
public struct DeliveryHook: Sendable, Hashable, Codable {
    /// The name `enableBackgroundDelivery` uses for the embedding program's own, in-process hook.
    public static let appHookName = "app"

    /// The hook's name, unique in the store.
    public var name: String
    /// The data it follows: a change to any of them makes it due.
    public var types: [FinanceStore.BackgroundDataType]
    /// How often it may run at most.
    public var frequency: FinanceStore.UpdateFrequency
    /// A shell command (`/bin/sh -c`); nil for the in-process hook of a program embedding the watch service.
    public var command: String?
    /// Changes up to this change-log sequence number were delivered (or predate the hook).
    public var lastDeliveredSequence: Int64 = 0
    /// When the hook last ran, successfully or not.
    public var lastRunAt: Date?
    /// `ok`, or what went wrong the last time (`exit 3`, `timed out after 60 s`).
    public var lastStatus: String?

    /// A hook that has never run; save it with `FinanceStore.saveDeliveryHook(_:)`.
    public init(name: String, types: [FinanceStore.BackgroundDataType], frequency: FinanceStore.UpdateFrequency, command: String?) {
        self.name = name
        self.types = types
        self.frequency = frequency
        self.command = command
    }
}

/// A delivery a hook is due for: its changed types and the token to read the changes from.
package struct PendingDelivery: Sendable {
    package var hook: DeliveryHook
    /// The hook's types that changed since its last delivery.
    package var changedTypes: [FinanceStore.BackgroundDataType]
    /// A history token positioned at the hook's last delivery: history read from it yields exactly the new changes.
    package var token: HistoryToken
    /// The change-log sequence this delivery covers; recorded when it succeeds.
    package var throughSequence: Int64
}

extension FinanceStore {
    /// Every delivery hook, by name.
    public func deliveryHooks() throws -> [DeliveryHook] {
        try requireOwner()
        return try pool.read { db in try DeliveryHookRecord.order(DeliveryHookRecord.Columns.name).fetchAll(db).map(\.hook) }
    }

    /// The hook with this name, if any.
    public func deliveryHook(named name: String) throws -> DeliveryHook? {
        try requireOwner()
        return try pool.read { db in try DeliveryHookRecord.fetchOne(db, key: name)?.hook }
    }

    /// Adds a hook, or changes the types, frequency and command of the hook with its name (its delivery state is
    /// kept). A new hook delivers only changes committed after it was added.
    public func saveDeliveryHook(_ hook: DeliveryHook) throws {
        guard !hook.name.isEmpty, !hook.types.isEmpty else {
            throw CofferError(.usage, "a delivery hook needs a name and at least one data type")
        }
        try write { writer in
            let db = try writer.db
            if var record = try DeliveryHookRecord.fetchOne(db, key: hook.name) {
                record.set(hook)
                try record.update(db, columns: DeliveryHookRecord.hookColumns)
            } else {
                try DeliveryHookRecord(hook, lastSequence: try Self.lastSequence(db), createdAt: Rows.millis(Date())).insert(db)
            }
        }
    }

    /// Removes a hook; false when there was none by that name.
    @discardableResult
    public func removeDeliveryHook(named name: String) throws -> Bool {
        try write { writer in
            try DeliveryHookRecord.deleteOne(writer.db, key: name)
        }
    }

    /// The newest change-log sequence number per data type among changes after `sequence`.
    package func latestChanges(after sequence: Int64) throws -> [BackgroundDataType: Int64] {
        try requireOwner()
        return try pool.read { db in
            var out: [BackgroundDataType: Int64] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT entity, MAX(seq) FROM change_log WHERE seq > ? GROUP BY entity", arguments: [sequence])
            for row in rows {
                let entity: Int = row[0]
                if let type = BackgroundDataType.allCases.first(where: { $0.entity.rawValue == entity }) { out[type] = row[1] }
            }
            return out
        }
    }

    /// What `hook` is due for at `now`: nil when none of its types changed since its last delivery, or when its
    /// frequency interval since its last run has not yet passed.
    package func pendingDelivery(for hook: DeliveryHook, at now: Date) throws -> PendingDelivery? {
        if let last = hook.lastRunAt, now.timeIntervalSince(last) < hook.frequency.interval { return nil }
        let latest = try latestChanges(after: hook.lastDeliveredSequence)
        let changed = hook.types.filter { latest[$0] != nil }
        guard let through = changed.compactMap({ latest[$0] }).max() else { return nil }
        let token = makeToken(HistoryPosition(sequence: hook.lastDeliveredSequence, snapshotAfter: nil, inSnapshot: false))
        return PendingDelivery(hook: hook, changedTypes: changed, token: token, throughSequence: through)
    }

    /// What `hook` would be handed if it ran now, whatever its frequency: the changes since its last delivery
    /// (`coffer delivery run NAME`, to test a hook). When none of its types changed, its types are all listed and
    /// the token reads nothing new.
    package func deliveryNow(for hook: DeliveryHook) throws -> PendingDelivery {
        let latest = try latestChanges(after: hook.lastDeliveredSequence)
        let changed = hook.types.filter { latest[$0] != nil }
        let through = changed.compactMap { latest[$0] }.max() ?? hook.lastDeliveredSequence
        let token = makeToken(HistoryPosition(sequence: hook.lastDeliveredSequence, snapshotAfter: nil, inSnapshot: false))
        return PendingDelivery(hook: hook, changedTypes: changed.isEmpty ? hook.types : changed, token: token, throughSequence: through)
    }

    /// Records a run of `hook`: its time and status, and on success the sequence its delivery covered.
    package func recordDelivery(of hook: String, at date: Date, status: String, deliveredThrough sequence: Int64?) throws {
        try write { writer in
            guard var record = try DeliveryHookRecord.fetchOne(writer.db, key: hook) else { return }
            record.lastRunAt = Rows.millis(date)
            record.lastStatus = status
            record.lastDeliveredSeq = max(record.lastDeliveredSeq, sequence ?? 0)
            try record.update(writer.db)
        }
    }
}
