import Foundation
import GRDB

/// A row of `import_ledger`, the GRDB way (see `AccountRecord`): one import, undo or link. `ImportRecord` is what
/// callers see of it (`importRecord(horizon:)`).
struct LedgerRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "import_ledger"

    var id: Int64?
    var sha256: String
    var path: String
    var format: String
    var profile: String?
    var inserted = 0
    var updated = 0
    var deleted = 0
    var unchanged = 0
    var importedAt: Int64
    /// `ImportRecord.Kind`.
    var kind: String
    var undoneBy: Int64?
    /// The change-log sequence before its first change; NULL for imports made before undo records were kept.
    var firstSeq: Int64?
    var warnings = 0
    /// The first 20 warnings, one a line.
    var warningText: String?
    /// The size of the file an import read, and its stat stamp (`StoreWriter.ImportedFile`); NULL before v24 and
    /// for other kinds.
    var fileSize: Int64?
    var fileStamp: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, sha256, path, format, profile, inserted, updated, deleted, unchanged, importedAt = "imported_at", kind,
             undoneBy = "undone_by", firstSeq = "first_seq", warnings, warningText = "warning_text",
             fileSize = "file_size", fileStamp = "file_stamp"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let sha256 = Column(CodingKeys.sha256)
        static let kind = Column(CodingKeys.kind)
        static let undoneBy = Column(CodingKeys.undoneBy)
        static let path = Column(CodingKeys.path)
        static let fileSize = Column(CodingKeys.fileSize)
        static let fileStamp = Column(CodingKeys.fileStamp)
    }

    /// The counts and warnings `StoreWriter.finishImport` records.
    static let resultColumns = [CodingKeys.inserted, .updated, .deleted, .unchanged, .warnings, .warningText].map(Column.init)
    /// The same and the file's SHA-256, when it was computed beside the import (`finishImport(sha256:)`).
    static let resultAndDigestColumns = resultColumns + [Column(CodingKeys.sha256)]

    init(kind: ImportRecord.Kind, sha256: String, path: String, format: String, profile: String?, importedAt: Int64,
         firstSeq: Int64) {
        self.kind = kind.rawValue
        self.sha256 = sha256
        self.path = path
        self.format = format
        self.profile = profile
        self.importedAt = importedAt
        self.firstSeq = firstSeq
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The entry as `coffer imports` shows it; `horizon` is the compaction horizon (what it says about undoing).
    func importRecord(horizon: Int64) -> ImportRecord {
        ImportRecord(id: id ?? 0, kind: ImportRecord.Kind(rawValue: kind) ?? .import, sha256: sha256, path: path,
                     format: format, profile: profile, inserted: inserted, updated: updated, deleted: deleted,
                     unchanged: unchanged, importedAt: Rows.date(importedAt), warningCount: warnings,
                     warnings: warningText.map { $0.components(separatedBy: "\n") } ?? [], undoneBy: undoneBy,
                     firstSeq: firstSeq, horizon: horizon)
    }
}
