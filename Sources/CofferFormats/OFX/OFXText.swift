/// Text helpers for OFX values: whitespace, and entity references as real files write them.
///
/// For example:
/// ```swift
/// var bytes = Array("AT&amp;T &amp;amp; Co &#233; R&D".utf8)
/// OFXText.decodeEntities(&bytes, from: 0)   // "AT&T & Co é R&D"
/// ```
/// The five XML entities, `&nbsp;` and numeric references are decoded. A raw `&` that starts no known reference
/// stays a literal `&`. Double-escaped references (`&amp;amp;`, `&amp;lt;`) decode fully, to `&` and `<`.
enum OFXText {
    /// Space, tab, line ends and NUL (files pad with NULs).
    /// Grows raw byte storage to hold `needed` bytes (at least doubling), keeping the first `count`: shared by the
    /// tokenizer's input window and the value buffer.
    static func reserve(_ storage: inout UnsafeMutablePointer<UInt8>, capacity: inout Int, keeping count: Int, needed: Int) {
        guard needed > capacity else { return }
        let grown = max(needed, capacity &* 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.update(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity = grown
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x00 }

    /// Decodes the entity references in `bytes[from...]` in place.
    static func decodeEntities(_ bytes: inout [UInt8], from start: Int) {
        var read = start, write = start
        let end = bytes.count
        var scratch: [UInt8] = []
        while read < end {
            let b = bytes[read]
            guard b == 0x26 else {
                bytes[write] = b
                write &+= 1
                read &+= 1
                continue
            }
            var tail = read &+ 1
            // "&amp;" followed by another reference is an escaped escape: skip to the inner reference.
            while let (decoded, length) = reference(bytes, at: tail), decoded == [0x26], length == 4,
                  reference(bytes, at: tail &+ 4) != nil {
                tail &+= 4
            }
            if let (decoded, length) = reference(bytes, at: tail) {
                scratch = decoded
                read = tail &+ length
            } else {
                scratch = [0x26]
                read &+= 1
            }
            for d in scratch {  // a decoded reference is never longer than its text, so `write` stays behind
                bytes[write] = d
                write &+= 1
            }
        }
        bytes.removeSubrange(write..<end)
    }

    /// The bytes a reference body (after `&`) stands for, and its length including `;`.
    private static func reference(_ bytes: [UInt8], at start: Int) -> ([UInt8], Int)? {
        let end = bytes.count
        var i = start
        while i < end, i &- start < 10, bytes[i] != 0x3B {
            let b = bytes[i]
            guard OFXTokenizer.isNameByte(b) || b == 0x23 else { return nil }
            i &+= 1
        }
        guard i < end, bytes[i] == 0x3B, i > start else { return nil }
        let name = bytes[start..<i]
        let length = i &- start &+ 1
        if name.first == 0x23 {  // &#NNN; or &#xHH;
            var digits = name.dropFirst()
            var radix: UInt32 = 10
            if digits.first == 0x78 || digits.first == 0x58 { radix = 16; digits = digits.dropFirst() }
            guard !digits.isEmpty, let code = UInt32(String(decoding: digits, as: UTF8.self), radix: Int(radix)),
                  let scalar = Unicode.Scalar(code), code != 0 else { return nil }
            return (Array(String(Character(scalar)).utf8), length)
        }
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return ([0x26], length)
        case "lt": return ([0x3C], length)
        case "gt": return ([0x3E], length)
        case "quot": return ([0x22], length)
        case "apos": return ([0x27], length)
        case "nbsp": return ([0xC2, 0xA0], length)
        default: return nil
        }
    }
}
