import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension CofferError {
    /// Any error as a `CofferError`, classified once by what it is, the cause kept as `underlying`: a
    /// `CofferError` as it is; a POSIX or Foundation file error by its errno (a missing file `file-not-found`,
    /// a busy or locked one `file-changing`, others `io`); anything else `internal`. `file` places it (keeping a
    /// line or element already known). Errors of the store's SQLite are classified in CofferStore.
    package static func classifying(_ error: any Error, file: String? = nil) -> CofferError {
        if let error = error as? CofferError {
            guard let file, error.location?.file == nil else { return error }
            return error.located(inFile: file)
        }
        let location = file.map { SourceLocation(file: $0) }
        if let errno = posixCode(of: error) {
            let text = String(cString: strerror(errno)).lowercased()
            switch errno {
            case ENOENT, ENOTDIR:
                return CofferError(.fileNotFound, "no such file (it was moved or deleted)", location: location, underlying: error)
            case EAGAIN, EBUSY, ETXTBSY, EINTR:
                return CofferError(.fileChanging, "the file is busy (\(text)); try again when it is complete",
                                   location: location, underlying: error)
            default:
                return CofferError(.io, "cannot read the file: \(text)", location: location, underlying: error)
            }
        }
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile:
                return CofferError(.fileNotFound, "no such file (it was moved or deleted)", location: location, underlying: error)
            default:
                return CofferError(.io, "cannot read the file: \(ns.localizedDescription)", location: location, underlying: error)
            }
        }
        return CofferError(.internal, "\(error)", location: location, underlying: error)
    }

    /// The errno of a POSIX error, or of the POSIX error under a Foundation one.
    private static func posixCode(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nil
    }
}
