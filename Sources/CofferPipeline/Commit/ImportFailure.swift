import CofferModel
import CofferStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why an import failed, as the `CofferError` its report carries: the error classified once (SQLite's by result
/// code, the file system's by errno), placed in the file; and a failure reading the file's contents turned into
/// `file-changing` or `file-not-found` when the file changed or vanished while it was read (a download still
/// being written fails to parse, but is not a bad file).
enum ImportFailure {
    static func classify(_ error: any Error, path: String, storePath: String, before: FileStamp?) -> CofferError {
        let failure = CofferError.classifying(error, storePath: storePath, file: path)
        switch failure.code {
        case .badInput, .unknownFormat, .institutionError, .io, .internal:
            guard let before else { return failure }
            guard let now = FileStamp(path: path) else {
                return CofferError(.fileNotFound, "the file was moved or deleted while it was read (\(failure.message))",
                                   location: failure.location, underlying: failure)
            }
            guard now == before else {
                return CofferError(.fileChanging, "the file changed while it was read (still being written?); import it "
                                   + "again once it is complete (\(failure.message))", location: failure.location, underlying: failure)
            }
            return failure
        default:
            return failure
        }
    }
}

/// A file's identity, size and modification time, to tell whether it changed during an import.
struct FileStamp: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int
    /// The change time (set by any write or metadata change, and by no call a program can make to set it back).
    let changeSeconds: Int
    let changeNanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        changeSeconds = Int(info.st_ctim.tv_sec)
        changeNanoseconds = Int(info.st_ctim.tv_nsec)
    }

    /// The file as the import ledger keeps it (see `StoreWriter.ImportedFile`).
    var ledgerFile: StoreWriter.ImportedFile {
        .init(size: size, stamp: "\(device):\(inode):\(seconds).\(nanoseconds):\(changeSeconds).\(changeNanoseconds)")
    }
}
