/// A word of up to 16 bytes packed into two integers, ASCII and Latin-1 letters uppercased, so comparing is two
/// integer tests.
///
/// For example, the tokens `ikea` and `IKEA` have the same key. Longer words get `length == 0xFF` and match
/// nothing.
struct WordKey: Hashable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var length = 0

    static let none = WordKey(low: 0, high: 0, length: 0xFF)

    init(low: UInt64, high: UInt64, length: Int) {
        self.low = low
        self.high = high
        self.length = length
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        guard end &- start <= 16, start <= end else { self = .none; return }
        length = end &- start
        var index = start
        var afterC3 = false
        while index < end {
            var byte = bytes[index]
            if byte >= 0x61 && byte <= 0x7A { byte &-= 0x20 }
            // Latin-1 lowercase letters (`C3 A0`–`C3 BE`, not ÷) onto their capitals: `März` is `MÄRZ`.
            else if afterC3, byte >= 0xA0, byte <= 0xBE, byte != 0xB7 { byte &-= 0x20 }
            afterC3 = byte == 0xC3
            let offset = index &- start
            if offset < 8 { low |= UInt64(byte) << UInt64(offset &* 8) } else { high |= UInt64(byte) << UInt64((offset &- 8) &* 8) }
            index &+= 1
        }
    }

    init(_ word: String) {
        var word = word
        self = word.withUTF8 { WordKey($0, 0, $0.count) }
    }
}

/// A small set of uppercase ASCII words, looked up by a token's packed key without making a `String`.
///
/// For example, `WordSet(["ATM", "IKEA"]).contains(token, in: bytes)` is true for the token `ikea`.
struct WordSet: Sendable {
    /// Keys ordered by length; `bucketStart[n]..<bucketStart[n + 1]` are the words of length `n`.
    private let keys: [WordKey]
    private let bucketStart: [Int]
    /// For a spelling table: the replacement of each word, in `keys` order.
    private let values: [[UInt8]]

    init(_ words: [String]) {
        self.init(pairs: words.map { ($0, $0) })
    }

    /// A set whose words each carry a replacement text (`GMBH` → `GmbH`).
    init(pairs: [(String, String)]) {
        let sorted = pairs.map { (key: WordKey($0.0.uppercased()), value: Array($0.1.utf8)) }
            .filter { $0.key.length <= 16 }
            .sorted { $0.key.length < $1.key.length }
        keys = sorted.map(\.key)
        values = sorted.map(\.value)
        bucketStart = (0...17).map { length in sorted.firstIndex { $0.key.length >= length } ?? sorted.count }
    }

    @inline(__always)
    func contains(_ token: DescriptionToken, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        index(of: token.key) != nil
    }

    @inline(__always)
    func index(of key: WordKey) -> Int? {
        guard key.length <= 16 else { return nil }
        var index = bucketStart[key.length]
        let end = bucketStart[key.length &+ 1]
        while index < end {
            if keys[index].low == key.low && keys[index].high == key.high { return index }
            index &+= 1
        }
        return nil
    }

    /// The replacement text stored for the token's word, or nil.
    func value(for token: DescriptionToken, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        index(of: token.key).map { values[$0] }
    }
}
