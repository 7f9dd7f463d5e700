import Foundation

extension UUID {
    /// A version 7 UUID: 48 bits of Unix milliseconds, then random bits.
    ///
    /// Coffer gives new transactions time-ordered ids so inserts land at the end of the primary-key index
    /// instead of scattering across it (random v4 keys measured 1.5–3x slower to insert in bulk).
    public static func timeOrdered(at date: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return timeOrdered(milliseconds: UInt64(max(0, date.timeIntervalSince1970 * 1000)), using: &generator)
    }

    /// A version 7 UUID with its random bits from `generator` (for bulk work: a seeded `FastRandom` avoids a
    /// system call per id).
    public static func timeOrdered(at date: Date = Date(), using generator: inout some RandomNumberGenerator) -> UUID {
        timeOrdered(milliseconds: UInt64(max(0, date.timeIntervalSince1970 * 1000)), using: &generator)
    }

    static func timeOrdered(milliseconds ms: UInt64, using generator: inout some RandomNumberGenerator) -> UUID {
        let random = generator.next() as UInt64
        let random2 = generator.next() as UInt64
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: ms >> (40 - 8 * UInt64(i))) }
        for i in 6..<8 { b[i] = UInt8(truncatingIfNeeded: random >> (8 * UInt64(i))) }
        for i in 8..<16 { b[i] = UInt8(truncatingIfNeeded: random2 >> (8 * UInt64(i - 8))) }
        b[6] = (b[6] & 0x0F) | 0x70  // version 7
        b[8] = (b[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}

/// xoshiro256** seeded from the system's generator: fast random bits for ids, where uniqueness matters and
/// unpredictability does not.
public struct FastRandom: RandomNumberGenerator, Sendable {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    public init() {
        var system = SystemRandomNumberGenerator()
        s = (system.next(), system.next(), system.next(), system.next())
        if s == (0, 0, 0, 0) { s.0 = 0x9E37_79B9_7F4A_7C15 }
    }

    public mutating func next() -> UInt64 {
        let result = ((s.1 &* 5) << 7 | (s.1 &* 5) >> 57) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = s.3 << 45 | s.3 >> 19
        return result
    }
}
