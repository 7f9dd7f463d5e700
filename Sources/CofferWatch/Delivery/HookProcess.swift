import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a hook's command with `/bin/sh -c`, its delivery as JSON on standard input, under a time limit.
///
/// Past `timeLimit` the process gets SIGTERM (its `willTerminate` moment), then SIGKILL after `gracePeriod`.
/// Its standard output and error go to the watch service's own.
enum HookProcess {
    /// How a run ended.
    enum Outcome: Equatable, Sendable {
        case succeeded
        case failed(String)

        var status: String {
            switch self {
            case .succeeded: "ok"
            case .failed(let why): why
            }
        }
    }

    static func run(command: String, input: Data, timeLimit: Duration, gracePeriod: Duration) async -> Outcome {
        // A hook that exits without reading its input must not kill the service with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let stdin = Pipe()
        process.standardInput = stdin
        let done = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { finished in
            done.continuation.yield(finished.terminationStatus)
            done.continuation.finish()
        }
        do {
            try process.run()
        } catch {
            return .failed("cannot start: \(error)")
        }
        // A hook that does not read its input must not block the service: write on a background queue.
        let writer = stdin.fileHandleForWriting
        DispatchQueue.global().async {
            try? writer.write(contentsOf: input)
            try? writer.close()
        }
        let pid = process.processIdentifier
        let fired = FiredFlag()
        let timer = Task {
            try await Task.sleep(for: timeLimit)
            fired.set()
            kill(pid, SIGTERM)
            try await Task.sleep(for: gracePeriod)
            kill(pid, SIGKILL)
        }
        var status: Int32 = -1
        for await code in done.stream { status = code }
        timer.cancel()
        if fired.isSet { return .failed("timed out after \(String(format: "%g", timeLimit.seconds)) s") }
        if process.terminationReason == .uncaughtSignal { return .failed("killed by signal \(status)") }
        return status == 0 ? .succeeded : .failed("exit \(status)")
    }
}

/// Set once the time limit passed.
private final class FiredFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
