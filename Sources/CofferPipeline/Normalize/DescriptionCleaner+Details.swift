/// What `DescriptionCleaner.cleanDescription` makes of a raw text.
package struct CleanedDescription: Hashable, Sendable {
    /// The display text: the name with its details, in the order the text gave them.
    package var display: String
    /// The merchant name: the name without details; nil when the text is not a merchant.
    package var merchant: String?
    /// The details alone ("Invoice 7716253", "(5 of 12)"); "" when there are none.
    package var details: String
}

/// The tokens `DescriptionCleaner.keptTokens` keeps: the name, the details with the name position each follows,
/// and what goes last (a SEPA mandate).
struct KeptTokens {
    var name: [DescriptionToken] = []
    var details: [(after: Int, token: DescriptionToken)] = []
    var trailing: [DescriptionToken] = []

    var isEmpty: Bool { name.isEmpty && details.isEmpty }

    /// The last word kept, name or detail.
    var lastWord: DescriptionToken? {
        guard let detail = details.last else { return name.last }
        return detail.after >= name.count ? detail.token : name.last
    }

    mutating func add(_ token: DescriptionToken, asDetail: Bool) {
        if asDetail { addDetail(token) } else { name.append(token) }
    }

    mutating func addDetail(_ token: DescriptionToken) {
        details.append((name.count, token))
    }

    /// The last name word becomes a detail (`März` before `2026`).
    mutating func moveLastToDetails() {
        if let detail = details.last, detail.after >= name.count { return }  // the last word is a detail already
        guard let last = name.popLast() else { return }
        details.append((name.count, last))
    }

    /// Drops name words from `count` on; details after them follow the shortened name.
    mutating func truncateName(to count: Int) {
        if count < name.count { name.removeSubrange(count...) }
        for i in details.indices where details[i].after > count { details[i].after = count }
    }

    /// Name and details merged in text order, then the trailing tokens.
    var display: [DescriptionToken] {
        var out: [DescriptionToken] = []
        out.reserveCapacity(name.count + details.count + trailing.count)
        var d = 0
        for position in 0...name.count {
            while d < details.count, details[d].after == position {
                out.append(details[d].token)
                d += 1
            }
            if position < name.count { out.append(name[position]) }
        }
        return out + trailing
    }
}

extension DescriptionCleaner {
    private static let mrefKey = WordKey("MREF")
    private static let svwzKey = WordKey("SVWZ")

    /// Handles the SEPA tag at `at`; returns the index to go on from. The purpose (`SVWZ`) goes on as words, the
    /// mandate (`MREF`) goes last with its value, any other tag is dropped with everything up to the next tag.
    static func sepaField(_ tag: DescriptionToken, _ tokens: [DescriptionToken], at: Int, _ bytes: UnsafeBufferPointer<UInt8>,
                          _ kept: inout KeptTokens) -> Int {
        var index = at &+ 1
        if tag.equals(svwzKey) { return index }
        if tag.equals(mrefKey), index < tokens.count, !tokens[index].isTag {
            kept.trailing += [tag, tokens[index]]
            return index &+ 1
        }
        while index < tokens.count, !tokens[index].isTag { index &+= 1 }
        return index
    }

    /// How many tokens the counter at `at` spans (0: none): `(5 OF 12)`, `3 von 12`, `7 av 120`, `(5/12)`, and
    /// `5/12` after a counter word. The first number is at most the second, both at most 999.
    static func counterLength(_ tokens: [DescriptionToken], _ at: Int, afterCounterWord: Bool,
                              _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let token = tokens[at]
        guard token.digits > 0, token.digits <= 6, token.letters == 0 else { return 0 }
        if at &+ 2 < tokens.count, DescriptionWords.counterOf.contains(tokens[at &+ 1], in: bytes),
           let first = number(token, bytes), let second = number(tokens[at &+ 2], bytes),
           first.open == second.close, !first.close, !second.open, first.value >= 1, first.value <= second.value {
            return 3
        }
        if let pair = fraction(token, bytes), pair.open == pair.close, pair.open || afterCounterWord,
           pair.first >= 1, pair.first <= pair.second {
            return 1
        }
        return 0
    }

    /// `12`, `(5`, `12)`: up to three digits with a parenthesis before or after.
    private static func number(_ token: DescriptionToken, _ bytes: UnsafeBufferPointer<UInt8>)
        -> (value: Int, open: Bool, close: Bool)? {
        var start = token.start
        var end = token.end
        let open = bytes[start] == 0x28
        if open { start &+= 1 }
        let close = end > start && bytes[end &- 1] == 0x29
        if close { end &-= 1 }
        guard end > start, end &- start <= 3 else { return nil }
        var value = 0
        for i in start..<end {
            guard bytes[i] >= 0x30 && bytes[i] <= 0x39 else { return nil }
            value = value &* 10 &+ Int(bytes[i] &- 0x30)
        }
        return (value, open, close)
    }

    /// `5/12`, `(5/12)`: two numbers of up to three digits around a `/`.
    private static func fraction(_ token: DescriptionToken, _ bytes: UnsafeBufferPointer<UInt8>)
        -> (first: Int, second: Int, open: Bool, close: Bool)? {
        guard let slash = (token.start..<token.end).first(where: { bytes[$0] == 0x2F }) else { return nil }
        guard let a = number(DescriptionToken(start: token.start, end: slash), bytes),
              let b = number(DescriptionToken(start: slash &+ 1, end: token.end), bytes), !a.close, !b.open else { return nil }
        return (a.value, b.value, a.open, b.close)
    }

    /// The end of a labelled number starting at the label `at` (`INVOICE 556677`, `POLICY NO. 12-AB-3`,
    /// `Rechnung # 42`): the label, number words, and the first token with a digit; nil when no number follows.
    static func labelledNumberEnd(_ tokens: [DescriptionToken], after at: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = at &+ 1
        while index < tokens.count, index <= at &+ 2 {
            let token = tokens[index]
            if token.isTag { return nil }
            if token.digits > 0 { return index &+ 1 }
            var word = token
            if token.length > 1, bytes[token.end &- 1] == 0x2E || bytes[token.end &- 1] == 0x3A {
                word.end &-= 1
                word = word.keyed(in: bytes)
            }
            guard DescriptionWords.numberWords.contains(word, in: bytes) || !token.hasAlphanumeric else { return nil }
            index &+= 1
        }
        return nil
    }
}

extension DescriptionToken {
    /// A month and year: `03/2026`, `3.2026` (not `2029-12`: DKB writes a card's expiry so).
    func isPeriod(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard letters == 0, digits == 5 || digits == 6, punctuation == 1, length == digits &+ 1 else { return false }
        guard let split = (start..<end).first(where: { bytes[$0] == 0x2F || bytes[$0] == 0x2E }) else { return false }
        let left = split &- start
        let right = end &- split &- 1
        func value(_ from: Int, _ to: Int) -> Int { (from..<to).reduce(0) { $0 &* 10 &+ Int(bytes[$1] &- 0x30) } }
        if right == 4, left <= 2 { return (1...12).contains(value(start, split)) && (1990...2099).contains(value(split &+ 1, end)) }
        return false
    }

    /// A year of four digits, 1990–2099.
    func isYear(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isPureDigits, length == 4 else { return false }
        let value = (start..<end).reduce(0) { $0 &* 10 &+ Int(bytes[$1] &- 0x30) }
        return (1990...2099).contains(value)
    }

    /// A store or terminal code: one or two letters, a dash and three or more digits (`T-1234`).
    func isStoreCode(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard letters >= 1, letters <= 2, digits >= 3, punctuation == 1, letters &+ digits &+ 1 == length else { return false }
        return bytes[start &+ letters] == 0x2D
    }
}
