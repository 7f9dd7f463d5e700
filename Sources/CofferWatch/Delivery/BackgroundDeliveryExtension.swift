import CofferStore
import Foundation

/// What a delivery hands a hook: FinanceKit's `didReceiveData(for:)`, plus where to read the changes.
///
/// A command hook reads it as JSON on standard input:
/// `{"hook": "budget", "types": ["transactions"], "token": "…", "store": "/path/coffer.sqlite"}`.
public struct Delivery: Sendable, Codable {
    /// The hook's name, as `coffer delivery` lists it.
    public var hook: String
    /// The hook's data types that changed since its last delivery.
    public var types: [FinanceStore.BackgroundDataType]
    /// A history token: `coffer history --since TOKEN` (or the Swift history sequences) yields exactly the
    /// changes since the last delivery.
    public var token: HistoryToken
    /// The store's path.
    public var store: String
}

/// An in-process delivery target for programs that embed `WatchService`: FinanceKit's
/// `BackgroundDeliveryExtensionProviding`. It receives the app hook (`enableBackgroundDelivery`).
///
/// For example:
/// ```swift
/// struct Sync: BackgroundDeliveryExtensionProviding {
///     func didReceiveData(for types: [FinanceStore.BackgroundDataType]) async { … }
///     func willTerminate() async {}
/// }
/// ```
/// `didReceiveData` returning ends the delivery (success); past the time limit its task is cancelled after
/// `willTerminate()` is called. Implement `didReceive(_:)` instead to get the history token too.
public protocol BackgroundDeliveryExtensionProviding: Sendable {
    /// Called when data of these types changed since the hook's last delivery.
    func didReceiveData(for types: [FinanceStore.BackgroundDataType]) async
    /// Called when the delivery ran out of time, before its task is cancelled.
    func willTerminate() async
    /// The delivery with its token; by default calls `didReceiveData(for:)`. Throw to mark the delivery failed.
    func didReceive(_ delivery: Delivery) async throws
}

extension BackgroundDeliveryExtensionProviding {
    /// Calls `didReceiveData(for:)` with the delivery's types.
    public func didReceive(_ delivery: Delivery) async throws {
        await didReceiveData(for: delivery.types)
    }
}
