import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Linux inotify on the inbox folder, read without blocking: the service loop drains it on each tick.
///
/// It watches close-after-write, moved-in and create events. The events only say "look now"; the folder listing
/// stays the truth, so an overflowed queue or a missed event costs at most one rescan interval.
final class InotifyWatcher {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Starts watching `folder`; nil when inotify is unavailable (the periodic rescan still works).
    init?(folder: String) {
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        guard inotify_add_watch(fd, folder, mask) >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        #else
        return nil
        #endif
    }

    deinit { close(fd) }

    /// Reads every pending event; true when there was at least one.
    func drain() -> Bool {
        var any = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                any = true
                continue
            }
            return any
        }
    }
}
