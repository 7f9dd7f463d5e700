import CofferPipeline
import Foundation

/// How a `WatchService` watches its inbox and runs delivery hooks.
///
/// For example:
/// ```swift
/// var configuration = WatchConfiguration(inbox: "/srv/statements/inbox")
/// configuration.settleTime = .seconds(2)
/// ```
/// `processed` and `failed` default to folders of those names inside the inbox (the scan never descends into
/// folders, so they are never mistaken for new statements).
public struct WatchConfiguration: Sendable {
    /// The folder statements are dropped into.
    public var inbox: String
    /// Where imported files move, into a subfolder per day (`YYYY-MM-DD`).
    public var processed: String
    /// Where files that failed move, each with a `NAME.error.txt` beside it.
    public var failed: String
    /// How often the whole inbox is scanned even without inotify events (network filesystems, missed events).
    public var rescanInterval: Duration = .seconds(30)
    /// A file is stable when its size and modification time are unchanged across two checks this far apart.
    public var settleTime: Duration = .seconds(2)
    /// How often the service loop wakes to read inotify events and check files waiting to settle.
    public var pollInterval: Duration = .milliseconds(250)
    /// Process what is waiting, then return (`coffer watch --once`).
    public var once = false
    /// Options passed to every import.
    public var importOptions = ImportOptions()
    /// How long a delivery hook may run before it is sent SIGTERM (`willTerminate`).
    public var hookTimeLimit: Duration = .seconds(60)
    /// How long a hook has after SIGTERM before SIGKILL.
    public var hookGracePeriod: Duration = .seconds(5)
    /// Whether to run delivery hooks at all.
    public var runsDeliveryHooks = true

    /// A configuration for an inbox; `processed` and `failed` default to folders of those names inside it.
    public init(inbox: String, processed: String? = nil, failed: String? = nil) {
        let inbox = Self.absolute(inbox.count > 1 && inbox.hasSuffix("/") ? String(inbox.dropLast()) : inbox)
        self.inbox = inbox
        self.processed = Self.absolute(processed ?? inbox + "/processed")
        self.failed = Self.absolute(failed ?? inbox + "/failed")
    }

    /// `path` made absolute against the current folder, so logs and hooks name files unambiguously.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// Where the service reads time: the system clock, or a test's clock.
///
/// `now()` gives wall-clock time (delivery frequency is measured in it and stored); `sleep(for:)` paces the loop.
public protocol WatchClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Waits for `duration`, or throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The system's clock.
public struct SystemWatchClock: WatchClock {
    /// The system's clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
    /// `Task.sleep(for:)`.
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (s, atto) = components
        return TimeInterval(s) + TimeInterval(atto) / 1e18
    }
}
