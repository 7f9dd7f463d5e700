/// A small map from integer keys (a name's address, a key node's edge) to numbers, for the parser's hot path.
///
/// For example:
/// ```swift
/// var table = CamtIDTable()
/// table.insert(key: 42, value: 7)
/// table[42]   // 7
/// ```
/// Open addressing with linear probing and a multiplicative hash: `Dictionary`'s SipHash cost more than the
/// lookup itself, and these keys are not chosen by the file (addresses and counters), so a cheap mix is enough.
/// The table doubles when half full.
struct CamtIDTable {
    private struct Slot {
        /// `Int.min` when empty.
        var key: Int
        var value: Int32
    }

    private var slots: [Slot]
    private var shift: UInt64
    private(set) var count = 0

    init() {
        let capacity = 64
        slots = Array(repeating: Slot(key: .min, value: 0), count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
    }

    @inline(__always)
    private static func slot(_ key: Int, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The value for `key` (never `Int.min`), nil when absent.
    @inline(__always)
    subscript(key: Int) -> Int32? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count &- 1
            var i = Self.slot(key, shift)
            while true {
                let slot = slots[i]
                if slot.key == key { return slot.value }
                if slot.key == .min { return nil }
                i = (i &+ 1) & mask
            }
        }
    }

    /// Adds `key` (not `Int.min`), which must not be in the table yet.
    mutating func insert(key: Int, value: Int32) {
        precondition(key != .min)
        if (count &+ 1) &* 2 > slots.count { grow() }
        let mask = slots.count &- 1
        var i = Self.slot(key, shift)
        while slots[i].key != .min { i = (i &+ 1) & mask }
        slots[i] = Slot(key: key, value: value)
        count &+= 1
    }

    private mutating func grow() {
        let old = slots
        let capacity = slots.count * 2
        slots = Array(repeating: Slot(key: .min, value: 0), count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for slot in old where slot.key != .min { insert(key: slot.key, value: slot.value) }
    }
}
