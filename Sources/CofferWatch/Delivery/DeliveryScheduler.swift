import CofferStore
import Foundation
import Logging

/// One run of a delivery hook.
public struct DeliveryRun: Sendable {
    /// What was delivered: the hook, the changed types and the token.
    public var delivery: Delivery
    /// `ok`, or why it failed (`exit 3`, `timed out after 60 s`).
    public var status: String
    /// Whether the hook finished with status `ok`.
    public var succeeded: Bool { status == "ok" }
}

/// Runs the store's delivery hooks that are due: FinanceKit's background delivery, driven by the watch service.
///
/// For example:
/// ```swift
/// let scheduler = DeliveryScheduler(store: store)
/// let runs = await scheduler.runDue(at: Date())
/// ```
/// A hook is due when one of its types changed since its last delivery and its frequency interval has passed
/// since its last run (a change inside the interval waits; no change, no run). A failed run is recorded with its
/// time, so it is retried once the interval has passed again, from the same token. Time is whatever `now` the
/// caller passes: the service passes its clock's, tests pass their own.
public struct DeliveryScheduler: Sendable {
    /// The store whose changes are delivered.
    public let store: FinanceStore
    /// The in-process receiver of the `app` hook's deliveries, if any.
    public let appExtension: (any BackgroundDeliveryExtensionProviding)?
    /// How long a hook command may run before it is sent SIGTERM.
    public var timeLimit: Duration
    /// How long a hook command has after SIGTERM before SIGKILL.
    public var gracePeriod: Duration
    let logger: Logger

    /// A scheduler for a store's hooks; pass `appExtension` to receive the `app` hook in-process.
    public init(store: FinanceStore, appExtension: (any BackgroundDeliveryExtensionProviding)? = nil,
                timeLimit: Duration = .seconds(60), gracePeriod: Duration = .seconds(5),
                logger: Logger = Logger(label: "coffer.delivery")) {
        self.store = store
        self.appExtension = appExtension
        self.timeLimit = timeLimit
        self.gracePeriod = gracePeriod
        self.logger = logger
    }

    /// Runs every hook due at `now`, one after the other; returns what ran.
    public func runDue(at now: Date) async -> [DeliveryRun] {
        var runs: [DeliveryRun] = []
        let hooks: [DeliveryHook]
        do {
            hooks = try store.deliveryHooks()
        } catch {
            logger.error("cannot read delivery hooks", metadata: ["error": "\(error)"])
            return []
        }
        for hook in hooks {
            guard hook.command != nil || appExtension != nil else { continue }
            do {
                guard let pending = try store.pendingDelivery(for: hook, at: now) else { continue }
                runs.append(try await run(pending, at: now))
            } catch {
                logger.error("delivery hook error", metadata: ["hook": "\(hook.name)", "error": "\(error)"])
            }
        }
        return runs
    }

    /// Runs one hook now, whatever its frequency and even when nothing changed (`coffer delivery run NAME`, to
    /// test a hook): it gets the changes since its last delivery, and the run is recorded as any other.
    public func runNow(_ hook: DeliveryHook, at now: Date) async throws -> DeliveryRun {
        try await run(try store.deliveryNow(for: hook), at: now)
    }

    private func run(_ pending: PendingDelivery, at now: Date) async throws -> DeliveryRun {
        let hook = pending.hook
        let delivery = Delivery(hook: hook.name, types: pending.changedTypes, token: pending.token, store: WatchConfiguration.absolute(store.path))
        let status = await deliver(delivery, command: hook.command)
        try store.recordDelivery(of: hook.name, at: now, status: status,
                                 deliveredThrough: status == "ok" ? pending.throughSequence : nil)
        let metadata: Logger.Metadata = [
            "hook": "\(hook.name)", "types": "\(delivery.types.map(\.rawValue).joined(separator: ","))",
            "result": "\(status)", "through": "\(pending.throughSequence)",
        ]
        if status == "ok" {
            logger.info("delivered", metadata: metadata)
        } else {
            logger.error("delivery failed; retried after the next interval", metadata: metadata)
        }
        return DeliveryRun(delivery: delivery, status: status)
    }

    private func deliver(_ delivery: Delivery, command: String?) async -> String {
        if let command {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let input = ((try? encoder.encode(delivery)) ?? Data()) + Data("\n".utf8)
            return await HookProcess.run(command: command, input: input, timeLimit: timeLimit, gracePeriod: gracePeriod).status
        }
        guard let appExtension else { return "no extension" }
        return await Self.runInProcess(appExtension, delivery, timeLimit: timeLimit)
    }

    /// Runs the in-process extension; past the time limit it hears `willTerminate()` and its task is cancelled.
    static func runInProcess(_ target: any BackgroundDeliveryExtensionProviding, _ delivery: Delivery, timeLimit: Duration) async -> String {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    try await target.didReceive(delivery)
                    return "ok"
                } catch {
                    return "failed: \(error)"
                }
            }
            group.addTask {
                guard (try? await Task.sleep(for: timeLimit)) != nil else { return nil }
                await target.willTerminate()
                return "timed out after \(String(format: "%g", timeLimit.seconds)) s"
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? "cancelled"
        }
    }
}
