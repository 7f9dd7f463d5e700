/// A string written byte by byte into its own storage, for texts built on every transaction (element paths,
/// namespaced ids): `String.append` cost about 340 instructions a piece there (callgrind), most of it checks a
/// join of two arbitrary strings needs and these do not.
///
/// For example:
/// ```swift
/// UTF8Builder.make(capacity: 64) { text in
///     text.put("STMTTRN")
///     text.put(UInt8(ascii: "["))
///     text.put(number: 12)
///     text.put(UInt8(ascii: "]"))
/// }
/// // "STMTTRN[12]"
/// ```
package struct UTF8Builder {
    @usableFromInline let out: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    @usableFromInline package private(set) var count = 0

    @inlinable init(out: UnsafeMutableBufferPointer<UInt8>) { self.out = out }

    /// The string `body` writes; `capacity` must hold every byte it writes (a number takes at most 20).
    @inlinable package static func make(capacity: Int, _ body: (inout UTF8Builder) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var text = UTF8Builder(out: buffer)
            body(&text)
            return text.count
        }
    }

    @inlinable package mutating func put(_ byte: UInt8) {
        precondition(count < out.count)  // the buffer's own subscript checks only in debug builds
        out[count] = byte
        count &+= 1
    }

    @inlinable package mutating func put(_ text: String) {
        let written = text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
            precondition(count &+ bytes.count <= out.count)
            (out.baseAddress! + count).update(from: base, count: bytes.count)
            return bytes.count
        }
        if let written {
            count &+= written
        } else {
            for byte in text.utf8 { put(byte) }
        }
    }

    /// A non-negative number's decimal digits.
    @inlinable package mutating func put(number: Int) {
        precondition(number >= 0)
        var divisor = 1
        while divisor <= number / 10 { divisor &*= 10 }
        var rest = number
        while divisor > 0 {
            put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
