import CofferModel
import Foundation

/// What an import listed unchanged: per stored transaction, the date it gave (ms) with its offset, and whether it
/// matched within its own source. Kept as 25-byte entries (16-byte id, 8-byte date, 1 flag byte) in one blob per
/// import. The flag's low bit is the source; the other seven hold the offset in quarter hours plus 64 (1…127,
/// ±15¾ h), 0 for none: a date-only value, an offset not in quarter hours, or a listing noted before offsets were
/// kept (migration v10).
struct Listing {
    var date: Int64
    var offset: Int?
    var sameSource: Bool

    /// The earlier date (as the earliest-date rule orders them: local day, instant, date-only first), and whether
    /// either listing was of the same source.
    func merged(with other: Listing) -> Listing {
        var earlier = Listing.isEarlier(other.date, other.offset, than: date, offset) ? other : self
        earlier.sameSource = sameSource || other.sameSource
        return earlier
    }

    static func isEarlier(_ date: Int64, _ offset: Int?, than other: Int64, _ otherOffset: Int?) -> Bool {
        let day = CalendarDay.localDay(Rows.date(date), offset: offset)
        let otherDay = CalendarDay.localDay(Rows.date(other), offset: otherOffset)
        if day != otherDay { return day < otherDay }
        if date != other { return date < other }
        return (offset ?? Int.min) < (otherOffset ?? Int.min)
    }

    /// Appends the listing of row `id` in its 25-byte form (a row listed twice is merged by `decode`).
    func append(_ id: UUID, to bytes: inout Data) {
        var code = 0
        if let offset, offset % 900 == 0, abs(offset / 900) <= 63 { code = offset / 900 + 64 }
        // Built on the stack and appended once: three appends to `Data` cost 6% of a `--force` re-import's writer.
        withUnsafeTemporaryAllocation(byteCount: 25, alignment: 8) { entry in
            entry.storeBytes(of: id.uuid, as: uuid_t.self)
            entry.storeBytes(of: date.littleEndian, toByteOffset: 16, as: Int64.self)
            entry.storeBytes(of: UInt8(code << 1) | (sameSource ? 1 : 0), toByteOffset: 24, as: UInt8.self)
            bytes.append(contentsOf: entry.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Merges a blob's entries into `into`: the earliest date, and whether any listing was of the same source.
    static func decode(_ blob: Data, into out: inout [UUID: Listing]) {
        blob.withUnsafeBytes { raw in
            var offset = 0
            while offset + 25 <= raw.count {
                let id = UUID(uuid: raw.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
                let date = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: Int64.self))
                let flag = raw[offset + 24]
                let code = Int(flag >> 1)
                let listing = Listing(date: date, offset: code == 0 ? nil : (code - 64) * 900, sameSource: flag & 1 != 0)
                out[id] = out[id].map { $0.merged(with: listing) } ?? listing
                offset += 25
            }
        }
    }
}
