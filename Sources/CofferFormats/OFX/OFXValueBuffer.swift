/// The bytes of the leaf value being read, in storage reused from value to value.
///
/// For example, `<NAME>Caf` + `é &amp; Co` (two text pieces) gather here; `decodeEntities(from:)` turns the
/// `&amp;` into `&`, and `trimmed` hands the assembler `Café & Co` without a copy.
final class OFXValueBuffer {
    // `@exclusivity(unchecked)`, as in `CamtHandler`: one thread, never reentered, and the runtime's access check
    // (a thread-local access set per `append` and `trimmed`) cost more than copying the value.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity = 256
    @exclusivity(unchecked) private(set) var count = 0

    init() { storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 256) }

    deinit { storage.deallocate() }

    func reset() { count = 0 }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let needed = count &+ bytes.count
        OFXText.reserve(&storage, capacity: &capacity, keeping: count, needed: needed)
        (storage + count).update(from: source, count: bytes.count)
        count = needed
    }

    /// Decodes the entity references in the bytes from `start` on (rare: only values holding `&`).
    func decodeEntities(from start: Int) {
        guard start < count else { return }
        var tail = Array(UnsafeBufferPointer(start: storage + start, count: count &- start))
        OFXText.decodeEntities(&tail, from: 0)
        tail.withUnsafeBufferPointer { decoded in
            if let base = decoded.baseAddress { (storage + start).update(from: base, count: decoded.count) }
        }
        count = start &+ tail.count
    }

    /// The value without leading and trailing whitespace; valid until the next change.
    var trimmed: UnsafeBufferPointer<UInt8> {
        var lower = 0, upper = count
        while lower < upper, OFXText.isSpace(storage[lower]) { lower &+= 1 }
        while upper > lower, OFXText.isSpace(storage[upper &- 1]) { upper &-= 1 }
        return UnsafeBufferPointer(start: storage + lower, count: upper &- lower)
    }

    static var empty: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }
}
