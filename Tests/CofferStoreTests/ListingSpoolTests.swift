@testable import CofferStore
import CofferTestSupport
import Foundation
import GRDB
import Testing

/// An import's listing, spooled a chunk at a time through a temporary table (`ListingSpool`), is stored as the very
/// blob one `Data` would have made, whatever the chunk size; a rolled-back import leaves neither its blob nor its
/// chunks, and the next import's listing carries nothing of it. A failure prints its seed.
@Suite struct ListingSpoolTests {
    static func database() throws -> DatabaseQueue {
        let folder = NSTemporaryDirectory() + "coffer-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: folder + "/listing.sqlite")
        try queue.write { try $0.execute(sql: "CREATE TABLE import_listing (import_id INTEGER PRIMARY KEY, ids BLOB NOT NULL)") }
        return queue
    }

    static func randomListing(_ random: inout SplitMix64) -> (UUID, Listing) {
        let id = UUID(uuid: withUnsafeBytes(of: (random.next(), random.next())) { $0.load(as: uuid_t.self) })
        let offset: Int? = Bool.random(using: &random) ? nil : Int.random(in: -56...56, using: &random) * 900
        let date = Int64.random(in: 0...4_000_000_000_000, using: &random)
        return (id, Listing(date: date, offset: offset, sameSource: Bool.random(using: &random)))
    }

    @Test func theStoredBlobIsTheWholeListingWhateverTheChunk() throws {
        let queue = try Self.database()
        var spilledCases = 0
        for seed in UInt64(1)...120 {
            var random = SplitMix64(seed: seed)
            let chunk = [25, 26, 100, 999, 4096, 1 << 20].randomElement(using: &random)!
            let count = Int.random(in: 0...(seed % 10 == 0 ? 3000 : 300), using: &random)
            var expected = Data()
            let stored = try queue.write { db -> Data? in
                var spool = ListingSpool(chunkBytes: chunk)
                for _ in 0..<count {
                    let (id, listing) = Self.randomListing(&random)
                    listing.append(id, to: &expected)
                    try spool.append(listing, id: id, db: db)
                }
                try spool.write(importID: Int64(seed), db: db)
                #expect(spool.isEmpty, "seed \(seed)")
                let spoolRows = try db.tableExists("listing_spool", in: "temp")
                    ? try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.listing_spool") ?? 0 : 0
                #expect(spoolRows == 0, "seed \(seed): the spool was not emptied")
                return try Data.fetchOne(db, sql: "SELECT ids FROM import_listing WHERE import_id = ?", arguments: [seed])
            }
            if count == 0 {
                #expect(stored == nil, "seed \(seed): an empty listing stores no row")
            } else {
                #expect(stored == expected, "seed \(seed): chunk \(chunk), \(count) listings, \(stored?.count ?? -1) bytes")
            }
            if expected.count > chunk { spilledCases += 1 }
        }
        #expect(spilledCases > 50, "the spill path was exercised (\(spilledCases) cases)")
    }

    @Test func aRolledBackImportLeavesNothingForTheNext() throws {
        let queue = try Self.database()
        var random = SplitMix64(seed: 7)
        var spool = ListingSpool(chunkBytes: 100)
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try queue.write { db in
                for _ in 0..<50 {
                    let (id, listing) = Self.randomListing(&random)
                    try spool.append(listing, id: id, db: db)
                }
                try spool.write(importID: 1, db: db)
                throw Abandon()
            }
        }
        var expected = Data()
        try queue.write { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM import_listing") == 0)
            var next = ListingSpool(chunkBytes: 100)
            for _ in 0..<9 {
                let (id, listing) = Self.randomListing(&random)
                listing.append(id, to: &expected)
                try next.append(listing, id: id, db: db)
            }
            try next.write(importID: 2, db: db)
        }
        let stored = try queue.read { try Data.fetchOne($0, sql: "SELECT ids FROM import_listing WHERE import_id = 2") }
        #expect(stored == expected)
    }
}
