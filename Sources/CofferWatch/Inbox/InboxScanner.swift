import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finds the statement files waiting in an inbox and tells which are stable enough to import.
///
/// A file is ready when its size and modification time are unchanged across two checks at least `settleTime`
/// apart, and no process has it open for writing (`OpenForWriting`). Temporary download names are ignored
/// until renamed: `.crdownload`, `.part`, `.tmp`, `.partial`, `.download`, `~$*`, and dotfiles.
struct InboxScanner: Sendable {
    struct Observation: Equatable, Sendable {
        var size: Int64
        var modified: FileTime
        var device: UInt64
        var inode: UInt64
    }

    /// A modification time, comparable.
    struct FileTime: Equatable, Sendable {
        var seconds: Int
        var nanoseconds: Int
    }

    let inbox: String
    let settleTime: TimeInterval
    /// Last observation of each waiting file and when it was taken.
    private(set) var waiting: [String: (Observation, Date)] = [:]

    init(inbox: String, settleTime: TimeInterval) {
        self.inbox = inbox
        self.settleTime = settleTime
    }

    /// Whether a name is a temporary or hidden file that must not be imported yet.
    static func isIgnored(_ name: String) -> Bool { ignoreReason(name) != nil }

    /// Why a name is not imported (a hidden file, a temporary name), or nil when it is a candidate.
    static func ignoreReason(_ name: String) -> String? {
        if name.hasPrefix(".") { return "hidden file (its name starts with a dot)" }
        if name.hasPrefix("~$") { return "an office program's lock file (~$ name)" }
        let lower = name.lowercased()
        if lower.hasSuffix(".error.txt") { return "the error note of a failed file" }
        for suffix in [".crdownload", ".part", ".partial", ".download", ".tmp", ".swp"] where lower.hasSuffix(suffix) {
            return "temporary name (\(suffix)): still being written; imported once renamed"
        }
        return nil
    }

    /// The regular files in the inbox (not in subfolders) that are not ignored, by name.
    func candidates() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: inbox) else { return [] }
        return names.filter { !Self.isIgnored($0) }.sorted()
    }

    /// The file's size, modification time and identity; nil when it is gone or not a regular file.
    static func observe(_ path: String) -> Observation? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Observation(size: Int64(info.st_size), modified: FileTime(seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec),
                           device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Checks every candidate at `now`; returns the names whose observation held still for `settleTime`, in
    /// import order (by name, then modification time). Files still changing stay in `waiting`.
    mutating func settled(at now: Date) -> [String] {
        var ready: [(name: String, modified: FileTime)] = []
        var seen: Set<String> = []
        for name in candidates() {
            let path = inbox + "/" + name
            guard let observation = Self.observe(path) else { continue }
            seen.insert(name)
            if let (previous, since) = waiting[name], previous == observation {
                if now.timeIntervalSince(since) >= settleTime { ready.append((name, observation.modified)) }
            } else {
                waiting[name] = (observation, now)
            }
        }
        for name in waiting.keys where !seen.contains(name) { waiting[name] = nil }
        return ready.sorted { ($0.name, $0.modified.seconds, $0.modified.nanoseconds) < ($1.name, $1.modified.seconds, $1.modified.nanoseconds) }
            .map(\.name)
    }

    /// Forgets a file (it was moved away, or must be observed afresh).
    mutating func forget(_ name: String) { waiting[name] = nil }

    /// Whether files are waiting to settle.
    var hasWaiting: Bool { !waiting.isEmpty }
}
