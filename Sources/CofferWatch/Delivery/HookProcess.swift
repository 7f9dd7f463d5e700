import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a hook's command with `/bin/sh -c`, its delivery as JSON on standard input, under a time limit.
///
/// The hook runs in its own process group with default signal dispositions (the watch service itself ignores
/// SIGTERM/SIGINT to handle them, which a plain spawn would pass on). Past `timeLimit` the group gets SIGTERM (its
/// `willTerminate` moment), then SIGKILL after `gracePeriod`. Timing and waiting happen on a thread of their own,
/// never on the concurrency pool. Standard output and error are the watch service's own.
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
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: runBlocking(command: command, input: input, timeLimit: timeLimit, gracePeriod: gracePeriod))
            }
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; Debian 12 has 2.36), looked up at run
    /// time because Swift's Glibc module does not declare it. Without it (an older glibc) a hook inherits what is
    /// not close-on-exec.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    private static func runBlocking(command: String, input: Data, timeLimit: Duration, gracePeriod: Duration) -> Outcome {
        // A hook that exits without reading its input must not kill the service with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failed("cannot start: pipe: \(String(cString: strerror(errno)))") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        // The hook gets standard input, output and error, nothing else of the service's: without this it inherited
        // every descriptor not marked close-on-exec, among them a statement file another thread was writing or
        // reading and other hooks' pipes (a hook holding another's write end keeps that one's input from ending).
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return .failed("cannot start: \(String(cString: strerror(spawned)))")
        }

        // Write the input on another thread: a hook that never reads it must not block the timer.
        let writer = Thread {
            input.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(writeEnd)
        }
        writer.start()

        let start = ContinuousClock.now
        var terminated = false
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0, errno != EINTR { return .failed("lost the hook process: \(String(cString: strerror(errno)))") }
            let elapsed = ContinuousClock.now - start
            if !terminated, elapsed >= timeLimit {
                terminated = true
                kill(-pid, SIGTERM)
            } else if terminated, elapsed >= timeLimit + gracePeriod {
                kill(-pid, SIGKILL)
            }
            usleep(10_000)
        }
        if terminated { return .failed("timed out after \(String(format: "%g", timeLimit.seconds)) s") }
        let signalled = status & 0x7F
        if signalled != 0 { return .failed("killed by signal \(signalled)") }
        let code = (status >> 8) & 0xFF
        return code == 0 ? .succeeded : .failed("exit \(code)")
    }
}
