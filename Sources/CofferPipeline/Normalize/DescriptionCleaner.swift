/// Turns raw bank text into a display text and, where the text names one, a merchant name.
///
/// For example:
/// ```swift
/// let cleaner = DescriptionCleaner()
/// cleaner.clean("SQ *BLUE BOTTLE COFFEE #0123 OAKLAND CA")
/// // (display: "Blue Bottle Coffee", merchant: "Blue Bottle Coffee")
/// cleaner.clean("ONLINE TRANSFER TO SAV XXXXXX4521")
/// // (display: "Online Transfer to Sav", merchant: nil)
/// ```
/// What it removes, in order: processor and channel prefixes (`SQ *`, `TST*`, `PAYPAL *`, `CHECKCARD 0314`,
/// `KARTENZAHLUNG`, see `DescriptionWords.prefixes`) with a date glued after them; everything after `//`
/// (German card texts: `REWE MARKT GMBH//BERLIN/DE`); card masks (`XXXX1234`, `CARD 1234`); reference labels
/// with their value (`REF 8H3K2`, `PPD ID: 123`); numbers, dates and phone numbers (a one- or two-digit number
/// stays: `FOREVER 21`; so does a short number that starts the text: `76`, `365 BY WHOLE FOODS`); store numbers
/// (`#1234`, `STORE 0456`, `No. 12`) and the place that follows them; a trailing `CITY ST` (US state) or
/// country code. An all-caps text becomes Title Case (see `DescriptionCleaner+Case.swift`); a text that already
/// mixes case keeps its spelling.
///
/// `merchant` is nil when the text says it is not a purchase (transfers, interest, fees, salary, cash, card
/// payments: `DescriptionWords.nonMerchantPhrases`).
///
/// Hand-written token scanning over UTF-8 bytes, no `Regex`: it runs once per transaction at hundreds of
/// thousands per second. It keeps no state between calls.
public struct DescriptionCleaner: Sendable {
    public init() {}

    /// The display text and the merchant name (nil when the text is not a merchant).
    public func clean(_ raw: String) -> (display: String, merchant: String?) {
        let display = displayText(raw)
        let merchant = display.isEmpty || DescriptionCleaner.namesNoMerchant(raw) ? nil : display
        return (display, merchant)
    }

    /// Whether the text says it is a transfer, interest, a fee, salary, cash or a card payment, not a merchant.
    public static func namesNoMerchant(_ raw: String) -> Bool {
        var visitor = AnyMatch()
        nonMerchantAutomaton.scan(raw, &visitor)
        return visitor.matched
    }

    private struct AnyMatch: PhraseVisitor {
        var matched = false
        mutating func found(_ phrase: Int) { matched = true }
    }

    static let nonMerchantAutomaton = PhraseAutomaton(phrases: DescriptionWords.nonMerchantPhrases.map(phrase))

    /// A phrase in `^word` / `word` form → the automaton's symbols (whole words; `^` anchors at the start).
    static func phrase(_ text: String) -> [UInt8] {
        let anchored = text.hasPrefix("^")
        let body = TextFolding.symbols(of: anchored ? String(text.dropFirst()) : text)
        return (anchored ? [TextFolding.start] : []) + [TextFolding.space] + body + [TextFolding.space]
    }

    /// The cleaned display text alone.
    public func displayText(_ raw: String) -> String {
        var raw = raw
        return raw.withUTF8 { bytes -> String in
            let tokens = DescriptionToken.split(bytes)
            let first = DescriptionCleaner.skipPrefixes(tokens, bytes)
            var kept = DescriptionCleaner.keptTokens(tokens, from: first, bytes)
            if kept.isEmpty {
                kept = tokens.filter { !$0.isStar }
            }
            return DescriptionCleaner.render(kept, bytes)
        }
    }

    /// `DescriptionWords.prefixes` as bytes; an empty word stands for the star token.
    static let prefixBytes: [[WordKey]] = DescriptionWords.prefixes.map {
        $0.map { $0 == "*" ? WordKey(low: 0, high: 0, length: 0) : WordKey($0) }
    }
    /// The first words of `DescriptionWords.prefixes`.
    static let prefixFirstWords = WordSet(DescriptionWords.prefixes.compactMap { $0.first })
    private static let idKey = WordKey("ID")
    private static let cardKey = WordKey("CARD")

    /// The index of the first token after processor prefixes and the dates glued to them.
    static func skipPrefixes(_ tokens: [DescriptionToken], _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        var stripped = true
        while stripped {
            stripped = false
            // Most texts start with no prefix: one lookup of the first word rejects them all.
            guard index < tokens.count, tokens[index].isStar || prefixFirstWords.contains(tokens[index], in: bytes) else {
                break
            }
            for prefix in prefixBytes where index &+ prefix.count < tokens.count {
                var matches = true
                for (offset, word) in prefix.enumerated() {
                    let token = tokens[index &+ offset]
                    let equal = word.length == 0
                        ? token.isStar
                        : !token.isStar && token.equals(word)
                    if !equal {
                        matches = false
                        break
                    }
                }
                guard matches else { continue }
                var next = index &+ prefix.count
                while next &+ 1 < tokens.count, tokens[next].isShortDate(in: bytes) || tokens[next].isStar {
                    next &+= 1
                }
                index = next
                stripped = true
                break
            }
        }
        return index
    }

    /// The tokens that make the display text: noise dropped, then the place at the end.
    static func keptTokens(_ tokens: [DescriptionToken], from first: Int, _ bytes: UnsafeBufferPointer<UInt8>)
        -> [DescriptionToken]
    {
        var kept: [DescriptionToken] = []
        kept.reserveCapacity(tokens.count)
        var cut: Int?  // kept.count where a store number was dropped: the words after it are the place
        var index = first
        while index < tokens.count {
            let token = tokens[index]
            let next: DescriptionToken? = index &+ 1 < tokens.count ? tokens[index &+ 1] : nil
            index &+= 1
            if token.isStar { continue }
            if !token.hasAlphanumeric {
                if token.length == 1, bytes[token.start] == 0x26 { kept.append(token) }  // `&` joins names
                continue
            }
            let nextHasDigit = (next?.digits ?? 0) > 0
            let endsLikeLabel = token.punctuation > 0 && (bytes[token.end &- 1] == 0x23 || bytes[token.end &- 1] == 0x2E)
            var word = token
            if endsLikeLabel {
                word.end &-= 1
                word = word.keyed(in: bytes)
            }
            if DescriptionWords.labels.contains(word, in: bytes), nextHasDigit || endsLikeLabel {
                if nextHasDigit || next.map({ !$0.hasAlphanumeric || $0.isReferenceNoise }) == true { index &+= 1 }
                continue
            }
            if let next, DescriptionWords.achClasses.contains(token, in: bytes), next.equals(idKey) {
                continue
            }
            if DescriptionWords.storeWords.contains(word, in: bytes), let next,
               next.isPureDigits || next.isHashNumber(in: bytes)
            {
                if !kept.isEmpty, cut == nil { cut = kept.count }
                index &+= 1
                continue
            }
            if token.equals(cardKey), let next, next.isPureDigits || next.isCardMask(in: bytes) {
                index &+= 1
                continue
            }
            if token.isCardMask(in: bytes) { continue }
            if token.letters == 0 {
                if let last = kept.last, DescriptionWords.checkWords.contains(last, in: bytes) {
                    kept.append(token)
                } else if token.isPureDigits && (token.length <= 2 || (kept.isEmpty && token.length <= 3)) {
                    kept.append(token)
                } else if (token.isPureDigits || token.isHashNumber(in: bytes)) && !kept.isEmpty && cut == nil {
                    cut = kept.count
                }
                continue
            }
            if token.isReferenceNoise { continue }
            kept.append(token)
        }
        if let cut, cut >= 1, cut < kept.count {
            kept.removeSubrange(cut...)
        } else {
            dropPlace(&kept, bytes)
        }
        return kept
    }

    /// Drops a trailing `CITY ST` (US state, uppercase in the source) or a trailing country code.
    static func dropPlace(_ kept: inout [DescriptionToken], _ bytes: UnsafeBufferPointer<UInt8>) {
        guard kept.count >= 3, let last = kept.last, last.lowercase == 0 else { return }
        if last.length == 2, DescriptionWords.states.contains(last, in: bytes) {
            var cityStart = kept.count &- 2
            if cityStart >= 2, DescriptionWords.citySuffixes.contains(kept[cityStart], in: bytes) { cityStart &-= 1 }
            while cityStart >= 2, DescriptionWords.cityPrefixes.contains(kept[cityStart &- 1], in: bytes) {
                cityStart &-= 1
            }
            let city = kept[cityStart..<(kept.count &- 1)]
            let looksLikeCity = city.allSatisfy {
                $0.digits == 0 && $0.letters >= 2 && !DescriptionWords.businessWords.contains($0, in: bytes)
                    && !DescriptionWords.smallWords.contains($0, in: bytes)
            }
            if looksLikeCity { kept.removeSubrange(cityStart...) }
        } else if DescriptionWords.countries.contains(last, in: bytes) {
            kept.removeLast()
        }
    }
}

