import CofferModel
import GRDB

extension CofferError {
    /// Any error met while importing into the store at `storePath`, classified once into a `CofferError` with the
    /// cause kept: SQLite's (GRDB's `DatabaseError`) by its result code (`StoreFile.describe`: `BUSY`/`LOCKED`
    /// `store-busy`, `FULL`/`IOERR`/`CANTOPEN` `store-io`, …), file-system errors by their errno, a
    /// `CofferError` as it is; then placed in `file`.
    package static func classifying(_ error: any Error, storePath: String, file: String? = nil) -> CofferError {
        if error is DatabaseError {
            return classifying(StoreFile.describe(error, path: storePath), file: file)
        }
        return classifying(error, file: file)
    }
}
