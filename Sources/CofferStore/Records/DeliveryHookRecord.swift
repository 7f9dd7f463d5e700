import Foundation
import GRDB

/// A row of `delivery_hook`, the GRDB way (see `AccountRecord`); `hook` and `init(_:…)` map it to `DeliveryHook`.
struct DeliveryHookRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "delivery_hook"

    var name: String
    /// `BackgroundDataType` raw values, comma-separated, in `FinanceStore.ordered` order.
    var types: String
    var frequency: String
    var command: String?
    var lastDeliveredSeq: Int64
    var lastRunAt: Int64?
    var lastStatus: String?
    var createdAt: Int64

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, types, frequency, command, lastDeliveredSeq = "last_delivered_seq", lastRunAt = "last_run_at",
             lastStatus = "last_status", createdAt = "created_at"
    }

    enum Columns {
        static let name = Column(CodingKeys.name)
    }

    /// A new hook's row: it has delivered nothing after `lastSequence`.
    init(_ hook: DeliveryHook, lastSequence: Int64, createdAt: Int64) {
        name = hook.name
        types = ""
        frequency = ""
        lastDeliveredSeq = lastSequence
        self.createdAt = createdAt
        set(hook)
    }

    /// Takes what `saveDeliveryHook` changes: types, frequency and command (not the delivery state).
    mutating func set(_ hook: DeliveryHook) {
        types = FinanceStore.ordered(hook.types).map(\.rawValue).joined(separator: ",")
        frequency = hook.frequency.rawValue
        command = hook.command
    }

    static let hookColumns = [CodingKeys.types, .frequency, .command].map(Column.init)

    var hook: DeliveryHook {
        var hook = DeliveryHook(name: name,
                                types: types.split(separator: ",").compactMap { FinanceStore.BackgroundDataType(rawValue: String($0)) },
                                frequency: FinanceStore.UpdateFrequency(rawValue: frequency) ?? .daily, command: command)
        hook.lastDeliveredSequence = lastDeliveredSeq
        hook.lastRunAt = lastRunAt.map(Rows.date)
        hook.lastStatus = lastStatus
        return hook
    }
}
