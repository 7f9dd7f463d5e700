import CofferStore

/// What the watch service does with a file whose import failed: decided by the error's code alone, never by its
/// message.
///
/// For example:
/// ```swift
/// FailedFileAction(.storeBusy)   // .retry: another writer holds the store; the file waits in the inbox
/// FailedFileAction(.badInput)    // .quarantine: moved to failed/ with NAME.error.txt
/// ```
enum FailedFileAction: Equatable, Sendable {
    /// Transient (`code.isTransient`: the store locked by another writer, the file still being written): the file
    /// stays in the inbox and is imported at a later scan.
    case retry
    /// The store's trouble (`code.concernsStore`: not a store, too new, read-only, disk full): the file is fine
    /// and stays in the inbox; the error is logged and the file is tried again at the next scan or run.
    case keep
    /// The file is gone (`file-not-found`): nothing to move.
    case skip
    /// The file's own fault (bad input, unknown format, an institution's error, an ambiguous account, a bug it
    /// triggers): moved to failed/ with its one-line error beside it, so it is not tried again.
    case quarantine

    init(_ code: CofferError.Code) {
        if code.isTransient {
            self = .retry
        } else if code.concernsStore {
            self = .keep
        } else if code == .fileNotFound {
            self = .skip
        } else {
            self = .quarantine
        }
    }
}
