/// One whitespace-separated word of a bank text, as a byte range with counts taken once.
///
/// For example, `"#0123"` has 4 digits, no letters, and `isHashNumber`; `"XXXX1234"` is a card mask.
struct DescriptionToken {
    var start: Int
    var end: Int
    var letters = 0
    var digits = 0
    var lowercase = 0
    var uppercase = 0
    /// ASCII bytes that are neither letters nor digits.
    var punctuation = 0
    /// The token is a lone `*` (processors glue it to their prefix: `SQ *`, `TST*`).
    var isStar = false
    /// The token is a SEPA field tag glued to its value with `+` (`EREF+`, `MREF+`, `SVWZ+`): the tag alone.
    var isTag = false
    /// The packed uppercase word, for `WordSet` lookups (`WordKey.none` until `keyed(in:)`).
    var key = WordKey.none

    init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// This token with its `key` computed from `bytes`.
    @inline(__always)
    func keyed(in bytes: UnsafeBufferPointer<UInt8>) -> DescriptionToken {
        var copy = self
        copy.key = WordKey(bytes, start, end)
        return copy
    }

    var length: Int { end &- start }
    var isPureDigits: Bool { digits > 0 && digits == length }
    var hasAlphanumeric: Bool { letters > 0 || digits > 0 }
}

extension DescriptionToken {
    /// Splits `bytes` at white space and `*`, stopping at `//` (German card texts put the place after it).
    static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> [DescriptionToken] {
        var tokens: [DescriptionToken] = []
        tokens.reserveCapacity(12)
        var current: DescriptionToken?
        var index = 0
        let count = bytes.count
        func finish(_ token: inout DescriptionToken?) {
            guard var token else { return }
            // Trailing `,` `;` `:` belong to the sentence, not the word.
            while token.end > token.start, bytes[token.end &- 1] == 0x2C || bytes[token.end &- 1] == 0x3B
                || bytes[token.end &- 1] == 0x3A {
                token.end &-= 1
                token.punctuation &-= 1
            }
            if token.end > token.start { tokens.append(token.keyed(in: bytes)) }
        }
        while index < count {
            let byte = bytes[index]
            if byte == 0x2F, index &+ 1 < count, bytes[index &+ 1] == 0x2F { break }
            let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                || (byte == 0xC2 && index &+ 1 < count && bytes[index &+ 1] == 0xA0)
            // A `*` run glued to digits is a card mask (`****1234`), not a processor's star.
            let isMaskStar = byte == 0x2A && index &+ 1 < count
                && (bytes[index &+ 1] == 0x2A || (bytes[index &+ 1] >= 0x30 && bytes[index &+ 1] <= 0x39))
                && (current.map { bytes[$0.start..<$0.end].allSatisfy { $0 == 0x2A } } ?? true)
            // `EREF+123`, `SVWZ+Beitrag`: a SEPA tag ends at its `+`.
            if byte == 0x2B, var tag = current, tag.length == 4, tag.uppercase == 4 {
                tag = tag.keyed(in: bytes)
                if DescriptionWords.sepaTags.contains(tag, in: bytes) {
                    tag.isTag = true
                    tokens.append(tag)
                    current = nil
                    index &+= 1
                    continue
                }
            }
            // `NR:1234AB56`: a word glued to a value by `:` is a label and its value.
            if byte == 0x3A, let label = current, label.letters == label.length, label.length >= 2,
               index &+ 1 < count, bytes[index &+ 1] >= 0x30, bytes[index &+ 1] <= 0x39 || bytes[index &+ 1] >= 0x41 {
                finish(&current)
                current = nil
                index &+= 1
                continue
            }
            if isSpace || (byte == 0x2A && !isMaskStar) || byte == 0x7C {
                finish(&current)
                current = nil
                if byte == 0x2A {
                    var star = DescriptionToken(start: index, end: index &+ 1).keyed(in: bytes)
                    star.isStar = true
                    tokens.append(star)
                }
                index &+= (byte == 0xC2 ? 2 : 1)
                continue
            }
            if current == nil { current = DescriptionToken(start: index, end: index) }
            current?.end = index &+ 1
            switch byte {
            case 0x61...0x7A: current?.letters &+= 1; current?.lowercase &+= 1
            case 0x41...0x5A: current?.letters &+= 1; current?.uppercase &+= 1
            case 0x30...0x39: current?.digits &+= 1
            case 0xC3 where index &+ 1 < count:
                // Latin-1 letters: C3 80–9E upper, C3 9F–BF lower (× and ÷ aside).
                let next = bytes[index &+ 1]
                if next != 0x97 && next != 0xB7 {
                    current?.letters &+= 1
                    if next >= 0x9F { current?.lowercase &+= 1 } else { current?.uppercase &+= 1 }
                }
                current?.end = index &+ 2
                index &+= 1
            case 0x80...0xFF: current?.letters &+= (byte >= 0xC0 ? 1 : 0)  // other scripts: count lead bytes
            default: current?.punctuation &+= 1
            }
            index &+= 1
        }
        finish(&current)
        return tokens
    }

    /// Whether the token equals `word` (uppercase ASCII), ignoring ASCII case.
    @inline(__always)
    func equals(_ word: WordKey) -> Bool {
        key.length == word.length && key.low == word.low && key.high == word.high
    }

    /// `#1234`: a store or reference number.
    func isHashNumber(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes[start] == 0x23 && digits > 0 && digits &+ 1 == length
    }

    /// `XXXX1234`, `****1234`, `...1234`, `xx-1234`: a masked card or account number (or the mask alone).
    func isCardMask(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var maskCount = 0
        var digitCount = 0
        for offset in start..<end {
            let byte = bytes[offset]
            switch byte {
            case 0x58, 0x78, 0x2A, 0x2E, 0x23, 0x2D: if digitCount > 0 { return false }; maskCount &+= 1
            case 0x30...0x39: digitCount &+= 1
            default: return false
            }
        }
        return maskCount >= 2 && (digitCount >= 2 || digitCount == 0) && maskCount &+ digitCount >= 4
    }

    /// A date glued to a prefix: `03/14`, `0314` (MMDD), `14.03.`, `03-14`.
    func isShortDate(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard letters == 0, digits == 4, length <= 6 else { return false }
        var first = -1
        var second = -1
        var value = 0
        var seen = 0
        for offset in start..<end {
            let byte = bytes[offset]
            if byte >= 0x30 && byte <= 0x39 {
                value = value &* 10 &+ Int(byte &- 0x30)
                seen &+= 1
                if seen == 2 {
                    if first < 0 { first = value } else { second = value }
                    value = 0
                    seen = 0
                }
            } else if byte != 0x2F && byte != 0x2E && byte != 0x2D {
                return false
            }
        }
        guard seen == 0 else { return false }  // `031` `4` is not a date
        let (a, b) = (first, second)
        return (1...12).contains(a) && (1...31).contains(b) || (1...31).contains(a) && (1...12).contains(b)
    }

    /// Reference noise: an all-alphanumeric token that mixes letters with several digits (`2K4AB12C3`).
    var isReferenceNoise: Bool {
        guard punctuation == 0, letters > 0, digits > 0 else { return false }
        return (length >= 6 && digits >= 2) || length >= 10
    }
}
