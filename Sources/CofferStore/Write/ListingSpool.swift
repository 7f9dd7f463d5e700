import Foundation
import GRDB

/// The rows an import listed unchanged (`StoreWriter.noteListed`), in `Listing`'s 25-byte encoding, kept a
/// megabyte at a time: each full megabyte goes to a temporary table of the writer's connection, and the import's
/// end writes them all as its one `import_listing` blob (the form `Listing.decode` and undo read).
///
/// Why not one `Data`: a forced re-import of a million rows lists them all, 25 MB that a `Data` held at up to
/// 32 MB of capacity, 48 MB while it doubled, and bound as a blob SQLite copied it twice more: the listing was most
/// of the 40 MB by which a `--force` import's peak memory passed a first import's. The temporary table lives in the
/// import's transaction, so a failed import leaves nothing of it.
struct ListingSpool {
    /// How many bytes are kept before they go to the table (a megabyte; tests make it small).
    let chunkBytes: Int
    private var pending = Data()
    private var spilledBytes = 0
    private var chunks = 0

    init(chunkBytes: Int = 1 << 20) {
        self.chunkBytes = chunkBytes
    }

    var isEmpty: Bool { pending.isEmpty && chunks == 0 }

    mutating func append(_ listing: Listing, id: UUID, db: Database) throws {
        listing.append(id, to: &pending)
        if pending.count >= chunkBytes { try spill(db) }
    }

    private mutating func spill(_ db: Database) throws {
        if chunks == 0 {
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS listing_spool (seq INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
                DELETE FROM temp.listing_spool
                """)
        }
        try db.execute(sql: "INSERT INTO temp.listing_spool(seq, bytes) VALUES (?, ?)", arguments: [chunks, pending])
        chunks += 1
        spilledBytes += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes the whole listing as import `importID`'s, and empties the spool.
    mutating func write(importID: Int64, db: Database) throws {
        guard !isEmpty else { return }
        let spilled = chunks > 0
        try db.insertBlob(length: spilledBytes + pending.count,
                          statement: "INSERT OR REPLACE INTO import_listing(import_id, ids) VALUES (?, zeroblob(?))",
                          arguments: [importID], table: "import_listing", column: "ids", rowID: importID) { write in
            if spilled {
                let pieces = try Data.fetchCursor(db, sql: "SELECT bytes FROM temp.listing_spool ORDER BY seq")
                while let piece = try pieces.next() { try write(piece) }
            }
            try write(pending)
        }
        if spilled { try db.execute(sql: "DELETE FROM temp.listing_spool") }
        self = ListingSpool(chunkBytes: chunkBytes)
    }
}
