/// A small set of uppercase ASCII words, looked up by a token's bytes without making a `String`.
///
/// For example, `WordSet(["ATM", "IKEA"]).contains(token, in: bytes)` is true for the token `ikea`.
struct WordSet: Sendable {
    /// Words bucketed by length, so a lookup compares only words of the token's length.
    private let buckets: [[[UInt8]]]
    /// For a spelling table: the replacement of each word, bucketed like `buckets`.
    private let values: [[[UInt8]]]

    init(_ words: [String]) {
        self.init(pairs: words.map { ($0, $0) })
    }

    /// A set whose words each carry a replacement text (`GMBH` → `GmbH`).
    init(pairs: [(String, String)]) {
        var buckets: [[[UInt8]]] = Array(repeating: [], count: 24)
        var values: [[[UInt8]]] = Array(repeating: [], count: 24)
        for (word, value) in pairs {
            let bytes = Array(word.uppercased().utf8)
            guard bytes.count < buckets.count else { continue }
            buckets[bytes.count].append(bytes)
            values[bytes.count].append(Array(value.utf8))
        }
        self.buckets = buckets
        self.values = values
    }

    @inline(__always)
    func contains(_ token: DescriptionToken, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        index(of: token, in: bytes) != nil
    }

    /// The word's position in its bucket (used to find a replacement spelling), or nil.
    func index(of token: DescriptionToken, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = token.length
        guard length < buckets.count else { return nil }
        for (position, word) in buckets[length].enumerated() {
            let equal = word.withUnsafeBufferPointer { token.equals(bytes: $0, in: bytes) }
            if equal { return position }
        }
        return nil
    }

    /// The replacement text stored for the token's word, or nil.
    func value(for token: DescriptionToken, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        index(of: token, in: bytes).map { values[token.length][$0] }
    }
}
