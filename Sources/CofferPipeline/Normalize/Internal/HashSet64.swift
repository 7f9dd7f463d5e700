/// A set of 64-bit hashes: open addressing, linear probing, the key itself as its slot's content.
///
/// For example, `var seen = HashSet64(); seen.insert(h)` is true the first time and false after, as
/// `Set<UInt64>.insert(h).inserted`.
///
/// Why not `Set<UInt64>`: the preparer inserts two or three keys per transaction that are hashes already (FNV-1a of
/// an id, a fingerprint's hash, mixed with a salt), and `Set` hashes each again with SipHash and rehashes them all
/// through `Hasher` when it grows: half a microsecond per transaction, an eighth of the normalize stage. Here a
/// multiply by a random odd number, top bits kept (multiply-shift, a universal family), spreads the key over the
/// table: the keys come from a statement file, and a fixed multiplier would let a crafted file pile its ids into
/// one run of slots (quadratic probing time). The table grows at the same load as `Set` (3/4), but by half its size
/// instead of doubling: its size need not be a power of two, since the top 64 bits of the mixed key times the size
/// pick the slot. At a million keys that is 1.36M slots (11 MB) where doubling gave 2M (16 MB); four such tables are
/// most of what a `--force` import of a million rows holds.
///
/// A key's bit 0 does not choose its slot, so a key may also be read as 63 bits of value and a flag
/// (`insertFlagged`, `flagged`): one table where two sets, one inside the other, would take twice the memory.
struct HashSet64 {
    /// 0 marks an empty slot; the key 0 itself is kept in `hasZero`.
    private var slots: [UInt64]
    /// Odd, drawn per table (again when it grows).
    private let multiplier = UInt64.random(in: 1...UInt64.max) | 1
    private var hasZero = false
    private(set) var count = 0

    /// A set with room for `capacity` keys before it first grows.
    init(capacity: Int = 48) {
        var size = 16
        while size / 4 * 3 < capacity { size = Self.grown(size) }
        slots = Array(repeating: 0, count: size)
    }

    /// The size a table of `size` slots grows to.
    private static func grown(_ size: Int) -> Int { size &+ size / 2 }

    /// Where `key`'s probe starts: multiply-shift by the table's multiplier, then scaled to the table's size.
    @inline(__always)
    private static func home(_ key: UInt64, multiplier: UInt64, size: Int) -> Int {
        Int(truncatingIfNeeded: ((key | 1) &* multiplier).multipliedFullWidth(by: UInt64(size)).high)
    }

    /// Adds `key`; whether it was not there before.
    @inline(__always)
    mutating func insert(_ key: UInt64) -> Bool {
        if key == 0 {
            defer { hasZero = true }
            if !hasZero { count &+= 1 }
            return !hasZero
        }
        return place(key, same: { $0 == key }, merged: { $0 })
    }

    /// Whether `key` is in the set.
    func contains(_ key: UInt64) -> Bool {
        if key == 0 { return hasZero }
        return find(key, same: { $0 == key }) != nil
    }

    /// Adds `key` (greater than 1; bit 0 its flag), or, when a key equal to it but for bit 0 is held, sets that
    /// key's flag if `key`'s is set. A flag once set stays set.
    mutating func insertFlagged(_ key: UInt64) {
        precondition(key > 1, "0 and 1 are not flagged keys")
        _ = place(key, same: { $0 | 1 == key | 1 }, merged: { $0 | key })
    }

    /// The held key equal to `key` but for bit 0 (see `insertFlagged`), if any.
    func flagged(_ key: UInt64) -> UInt64? {
        guard key > 1 else { return nil }
        return find(key, same: { $0 | 1 == key | 1 })
    }

    /// Probes from `key`'s slot (non-zero) to a held key `same` as it, which becomes `merged(held)` (false), or to
    /// an empty slot, which takes `key` (true).
    @inline(__always)
    private mutating func place(_ key: UInt64, same: (UInt64) -> Bool, merged: (UInt64) -> UInt64) -> Bool {
        if (count &+ 1) > slots.count / 4 * 3 { grow() }
        let multiplier = self.multiplier
        let inserted = slots.withUnsafeMutableBufferPointer { slots -> Bool in
            var index = Self.home(key, multiplier: multiplier, size: slots.count)
            while true {
                let held = slots[index]
                if held == 0 {
                    slots[index] = key
                    return true
                }
                if same(held) {
                    slots[index] = merged(held)
                    return false
                }
                index &+= 1
                if index == slots.count { index = 0 }
            }
        }
        if inserted { count &+= 1 }
        return inserted
    }

    /// The held key `same` as `key` (non-zero), probing from its slot.
    @inline(__always)
    private func find(_ key: UInt64, same: (UInt64) -> Bool) -> UInt64? {
        slots.withUnsafeBufferPointer { slots in
            var index = Self.home(key, multiplier: multiplier, size: slots.count)
            while true {
                let held = slots[index]
                if held == 0 { return nil }
                if same(held) { return held }
                index &+= 1
                if index == slots.count { index = 0 }
            }
        }
    }

    /// Grows the table by half and puts every key back.
    private mutating func grow() {
        let old = slots
        var bigger = HashSet64(capacity: Self.grown(old.count) / 4 * 3)
        for key in old where key != 0 { _ = bigger.insert(key) }
        bigger.hasZero = hasZero
        bigger.count = count
        self = bigger
    }
}
