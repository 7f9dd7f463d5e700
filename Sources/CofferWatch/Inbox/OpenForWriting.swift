import Foundation

/// Which files some process has open for writing, read from `/proc/PID/fd` and `/proc/PID/fdinfo`.
///
/// Best effort: only processes this user may inspect are seen (a download by another user, or over a network
/// filesystem from another machine, is not), and a writer that closes and reopens the file between checks is
/// caught by the size/modification-time check instead. On systems without `/proc` nothing is reported.
enum OpenForWriting {
    /// The paths among `paths` that some process has open with `O_WRONLY` or `O_RDWR`.
    static func check(_ paths: Set<String>) -> Set<String> {
        guard !paths.isEmpty, let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let fm = FileManager.default
        var open: Set<String> = []
        for pid in pids where pid.first?.isNumber == true {
            guard let fds = try? fm.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }
            for fd in fds {
                guard let target = try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"), paths.contains(target),
                      isWriting(pid: pid, fd: fd) else { continue }
                open.insert(target)
            }
        }
        return open
    }

    /// Whether `/proc/PID/fdinfo/FD` shows the file opened for writing (`flags:` in octal, access mode bits 0–1).
    private static func isWriting(pid: String, fd: String) -> Bool {
        guard let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8) else { return true }
        for line in info.split(separator: "\n") where line.hasPrefix("flags:") {
            let value = line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces)
            guard let flags = Int(value, radix: 8) else { return true }
            return flags & 3 != 0
        }
        return true
    }
}
