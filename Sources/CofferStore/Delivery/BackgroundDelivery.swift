import CofferModel
import Foundation

extension FinanceStore {
    /// The kinds of data a background delivery can be about: FinanceKit's `BackgroundDataType`.
    public enum BackgroundDataType: String, Codable, Hashable, Sendable, CaseIterable {
        case accounts
        case accountBalances
        case transactions

        /// The change-log entity kind this type follows.
        var entity: EntityKind {
            switch self {
            case .accounts: .account
            case .accountBalances: .balance
            case .transactions: .transaction
            }
        }
    }

    /// The minimum time between two deliveries: FinanceKit's `UpdateFrequency`.
    public enum UpdateFrequency: String, Codable, Hashable, Sendable, CaseIterable {
        case hourly
        case daily
        case weekly

        /// The interval in seconds: 3,600, 86,400 or 604,800.
        public var interval: TimeInterval {
            switch self {
            case .hourly: 3_600
            case .daily: 86_400
            case .weekly: 604_800
            }
        }
    }

    /// FinanceKit's `enableBackgroundDelivery(for:frequency:)`: the embedding program's own hook
    /// (`DeliveryHook.appHookName`), delivered in-process by the watch service.
    ///
    /// For example:
    /// ```swift
    /// store.enableBackgroundDelivery(for: [.transactions], frequency: .daily)
    /// ```
    /// Calling it again adds the types and sets the frequency (one frequency for the app's hook: a simplification
    /// of FinanceKit's per-type frequency). Like FinanceKit it neither throws nor is async; a failure (a read-only
    /// store) is logged.
    public func enableBackgroundDelivery(for types: [BackgroundDataType], frequency: UpdateFrequency) {
        logFailure("enable background delivery") {
            let existing = try deliveryHook(named: DeliveryHook.appHookName)
            var hook = existing ?? DeliveryHook(name: DeliveryHook.appHookName, types: [], frequency: frequency, command: nil)
            hook.types = Self.ordered(hook.types + types)
            hook.frequency = frequency
            try saveDeliveryHook(hook)
        }
    }

    /// FinanceKit's `disableBackgroundDelivery(for:)`: removes these types from the app's hook (and the hook
    /// when none is left).
    public func disableBackgroundDelivery(for types: [BackgroundDataType]) {
        logFailure("disable background delivery") {
            guard var hook = try deliveryHook(named: DeliveryHook.appHookName) else { return }
            hook.types.removeAll { types.contains($0) }
            if hook.types.isEmpty {
                try removeDeliveryHook(named: hook.name)
            } else {
                try saveDeliveryHook(hook)
            }
        }
    }

    /// FinanceKit's `disableAllBackgroundDelivery()`: removes the app's hook. Named hooks made with
    /// `coffer delivery add` stay; remove them by name.
    public func disableAllBackgroundDelivery() {
        logFailure("disable all background delivery") {
            try removeDeliveryHook(named: DeliveryHook.appHookName)
        }
    }

    static func ordered(_ types: [BackgroundDataType]) -> [BackgroundDataType] {
        BackgroundDataType.allCases.filter { types.contains($0) }
    }

    private func logFailure(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            logger.error("\(what) failed", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }
}
