import Coffer
import Dispatch
import Foundation
import Logging
import UnixSignals

/// "The file is the store": every store a command opens is closed — its write-ahead log checkpointed into the
/// `.sqlite` file — before `coffer` exits, whether the command succeeded or failed. On SIGINT, SIGTERM or SIGHUP
/// (Ctrl-C on `history --follow`, a killed cron job) the log is checkpointed as far as it can be before the
/// process ends by that signal; an import in progress is an uncommitted transaction, which the checkpoint leaves
/// out. (`coffer watch` shuts down gracefully on its first signal instead, then closes like any command.)
enum OpenStores {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var stores: [FinanceStore] = []
    nonisolated(unsafe) private static var paths: [String] = []

    /// Remembers a store to close at exit.
    static func register(_ store: FinanceStore) {
        lock.withLock {
            stores.append(store)
            if !paths.contains(store.path) { paths.append(store.path) }
        }
    }

    /// Remembers a store file the command read without a `FinanceStore` (`doctor`), to checkpoint at exit.
    static func register(path: String) {
        lock.withLock { if !paths.contains(path) { paths.append(path) } }
    }

    /// Closes every store opened (checkpointing each), then checkpoints the other files read. Best effort: another
    /// process reading or writing a store at that moment never makes the command fail.
    static func closeAll() {
        let (toClose, toCheckpoint) = lock.withLock {
            defer { stores.removeAll(); paths.removeAll() }
            return (stores, paths)
        }
        var closed = Set<String>()
        for store in toClose where store.close() { closed.insert(store.path) }
        for path in toCheckpoint where !closed.contains(path) { FinanceStore.checkpoint(path: path) }
    }

    /// On a signal: checkpoint what can be, without closing connections other threads may be using.
    static func checkpointForSignal() {
        let toCheckpoint = lock.withLock { paths }
        for path in toCheckpoint { FinanceStore.checkpoint(path: path, waitingAtMost: .milliseconds(500)) }
    }
}

/// SIGINT/SIGTERM/SIGHUP for commands other than `watch`: checkpoint, then end by the same signal (so a parent
/// sees what it sent). The handler runs on a dispatch queue of its own, not on Swift's cooperative threads,
/// which a long import keeps busy. (The signals are ignored in favour of the dispatch source, and an ignored
/// signal stays ignored in a child across exec: a command that starts programs must restore them first, as
/// `watch`, which runs delivery hooks, never installs these.)
enum ExitSignals {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    private static let queue = DispatchQueue(label: "coffer.signals")

    static func install() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                RawTerminal.restoreForSignal()
                OpenStores.checkpointForSignal()
                signal(number, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, number)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                kill(getpid(), number)
                usleep(200_000)
                _exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// Signals for the long-running commands, `coffer watch` and `coffer serve` (in coffer-serve).
package enum GracefulSignals {
    /// The service group turns the first SIGTERM/SIGINT into a graceful shutdown; the second ends the process at
    /// once. An import in progress is then an uncommitted SQLite transaction, which the next open rolls back.
    package static func exitOnSecondSignal(logger: Logger) async {
        var count = 0
        for await signal in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
            count += 1
            if count == 1 {
                logger.notice("shutting down after the file in hand; a second signal stops at once", metadata: ["signal": "\(signal)"])
            } else {
                logger.warning("second signal: stopping now", metadata: ["signal": "\(signal)"])
                OpenStores.checkpointForSignal()
                _exit(128 + signal.rawValue)
            }
        }
    }
}
