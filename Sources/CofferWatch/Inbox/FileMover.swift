import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Moves handled files out of the inbox without ever overwriting or deleting anything.
enum FileMover {
    /// Moves `path` into `folder` (created when missing) under its own name, or `NAME (2).EXT`, `NAME (3).EXT`…
    /// when taken; returns the new path.
    static func move(_ path: String, into folder: String) throws -> String {
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = (path as NSString).lastPathComponent
        var attempt = 1
        while true {
            let target = folder + "/" + numbered(name, attempt)
            // link(2) + unlink(2): the target is never replaced (link fails on an existing name), unlike rename(2).
            if link(path, target) == 0 {
                unlink(path)
                return target
            }
            let error = errno
            if error == EEXIST {
                attempt += 1
                continue
            }
            if error == EXDEV || error == EPERM || error == ENOTSUP {
                // Another filesystem (or one without hard links): copy, then remove the original.
                guard !fm.fileExists(atPath: target) else {
                    attempt += 1
                    continue
                }
                try fm.copyItem(atPath: path, toPath: target)
                try fm.removeItem(atPath: path)
                return target
            }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)])
        }
    }

    /// `name` for the first attempt, `stem (n).ext` after.
    static func numbered(_ name: String, _ n: Int) -> String {
        guard n > 1 else { return name }
        let ext = (name as NSString).pathExtension
        let stem = (name as NSString).deletingPathExtension
        return ext.isEmpty || stem.isEmpty ? "\(name) (\(n))" : "\(stem) (\(n)).\(ext)"
    }

    /// The dated subfolder of `processed` for `date`: `processed/YYYY-MM-DD` (local time).
    static func datedFolder(_ processed: String, _ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return processed + "/" + String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }
}
