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
/// What it keeps beside the name, in the display text but not in the merchant name (`cleanDescription` gives them
/// apart): counters (`(5 OF 12)`, `3 von 12`, `INSTALLMENT 2/24`), numbers after a contract, invoice, policy,
/// mandate, customer or loan label (`INVOICE 556677`, `Vertrag 4711`, `POLICY NO. 12-AB-3`), periods (`03/2026`,
/// `März 2026`), and a SEPA text's mandate reference (`MREF+…`, moved to the end). A SEPA text's purpose
/// (`SVWZ+…`) stays; its other tags go with their values.
///
/// `merchant` is nil when the text says it is not a purchase (transfers, interest, fees, salary, cash, card
/// payments: `DescriptionWords.nonMerchantPhrases`).
///
/// Hand-written token scanning over UTF-8 bytes, no `Regex`: it runs once per transaction at hundreds of
/// thousands per second. It keeps no state between calls.
package struct DescriptionCleaner: Sendable {
    package init() {}

    /// The display text and the merchant name (nil when the text is not a merchant).
    package func clean(_ raw: String) -> (display: String, merchant: String?) {
        let parts = cleanDescription(raw)
        return (parts.display, parts.merchant)
    }

    /// The display text, the merchant name (nil when the text is not a merchant) and the details the display text
    /// keeps beside the name (counters, contract, invoice, policy and mandate numbers, periods; "" when none).
    ///
    /// For example, `"DD VODAFONE LTD INVOICE 7716253"` → display "Vodafone Ltd Invoice 7716253", merchant
    /// "Vodafone Ltd", details "Invoice 7716253".
    package func cleanDescription(_ raw: String) -> CleanedDescription {
        var raw = raw
        let parts = raw.withUTF8 { bytes -> (String, String, String) in
            let tokens = DescriptionToken.split(bytes)
            let first = DescriptionCleaner.skipPrefixes(tokens, bytes)
            let kept = DescriptionCleaner.keptTokens(tokens, from: first, bytes)
            // Most texts keep a name and nothing beside it: then the display text is the name, rendered once.
            let nameOnly = kept.details.isEmpty && kept.trailing.isEmpty
            var display = nameOnly ? kept.name : kept.display
            if display.isEmpty { display = tokens.filter { !$0.isStar } }
            let allCaps = !display.contains { $0.lowercase > 0 }
            let displayText = DescriptionCleaner.render(display, bytes, allCaps: allCaps)
            if nameOnly { return (displayText, kept.name.isEmpty ? "" : displayText, "") }
            return (displayText,
                    DescriptionCleaner.render(kept.name, bytes, allCaps: allCaps),
                    DescriptionCleaner.render(kept.details.map(\.token) + kept.trailing, bytes, allCaps: allCaps))
        }
        let merchant = parts.1.isEmpty || DescriptionCleaner.namesNoMerchant(raw) ? nil : parts.1
        return CleanedDescription(display: parts.0, merchant: merchant, details: parts.2)
    }

    /// Whether the text says it is a transfer, interest, a fee, salary, cash or a card payment, not a merchant.
    package static func namesNoMerchant(_ raw: String) -> Bool {
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
    package func displayText(_ raw: String) -> String {
        cleanDescription(raw).display
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

    /// The tokens that make the display text: noise dropped, then the place at the end of the name; the details
    /// (`DescriptionCleaner+Details.swift`) kept beside it.
    static func keptTokens(_ tokens: [DescriptionToken], from first: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> KeptTokens {
        var kept = KeptTokens()
        kept.name.reserveCapacity(tokens.count)
        var cut: Int?  // name.count where a store number was dropped: the words after it are the place
        var afterTag = false  // a SEPA text whose name came before its tags: the rest is detail
        var index = first
        while index < tokens.count {
            let token = tokens[index]
            let at = index
            let next: DescriptionToken? = index &+ 1 < tokens.count ? tokens[index &+ 1] : nil
            index &+= 1
            if token.isStar { continue }
            if token.isTag {
                if !kept.name.isEmpty { afterTag = true }
                index = sepaField(token, tokens, at: at, bytes, &kept)
                continue
            }
            let counter = counterLength(tokens, at, afterCounterWord: kept.lastWord.map { DescriptionWords.counterWords.contains($0, in: bytes) } ?? false, bytes)
            if counter > 0 {
                for t in tokens[at..<(at &+ counter)] { kept.addDetail(t) }
                index = at &+ counter
                continue
            }
            if !token.hasAlphanumeric {
                if token.length == 1, bytes[token.start] == 0x26 { kept.add(token, asDetail: afterTag) }  // `&` joins names
                continue
            }
            let nextHasDigit = (next?.digits ?? 0) > 0
            let endsLikeLabel = token.punctuation > 0 && (bytes[token.end &- 1] == 0x23 || bytes[token.end &- 1] == 0x2E)
            var word = token
            if endsLikeLabel {
                word.end &-= 1
                word = word.keyed(in: bytes)
            }
            if DescriptionWords.detailLabels.contains(word, in: bytes), let end = labelledNumberEnd(tokens, after: at, bytes) {
                for t in tokens[at..<end] { kept.addDetail(t) }
                index = end
                continue
            }
            if DescriptionWords.fieldNames.contains(word, in: bytes) { continue }
            if DescriptionWords.labels.contains(word, in: bytes) {
                if nextHasDigit || endsLikeLabel {
                    if nextHasDigit || next.map({ !$0.hasAlphanumeric || $0.isReferenceNoise }) == true { index &+= 1 }
                    continue
                }
                if let next, DescriptionWords.detailLabels.contains(next, in: bytes) { continue }  // `REF CONTRAT 4002…`
            }
            if let next, DescriptionWords.achClasses.contains(token, in: bytes), next.equals(idKey) {
                continue
            }
            if DescriptionWords.storeWords.contains(word, in: bytes), let next,
               next.isPureDigits || next.isHashNumber(in: bytes) || next.isReferenceNoise
            {
                if !kept.name.isEmpty, cut == nil, !afterTag { cut = kept.name.count }
                index &+= 1
                continue
            }
            if token.equals(cardKey), let next, next.isPureDigits || next.isCardMask(in: bytes) {
                index &+= 1
                continue
            }
            if token.isCardMask(in: bytes) { continue }
            if token.letters == 0 {
                if token.isPeriod(in: bytes) {
                    kept.addDetail(token)
                } else if token.isYear(in: bytes), let month = kept.lastWord, DescriptionWords.months.contains(month, in: bytes) {
                    kept.moveLastToDetails()
                    kept.addDetail(token)
                } else if let last = kept.lastWord, DescriptionWords.checkWords.contains(last, in: bytes) {
                    kept.add(token, asDetail: afterTag)
                } else if token.isPureDigits && (token.length <= 2 || (kept.isEmpty && token.length <= 3)) {
                    kept.add(token, asDetail: afterTag)
                } else if !afterTag, !kept.name.isEmpty, cut == nil, token.isPureDigits || token.isHashNumber(in: bytes)
                            || token.digits >= 7 || token.isShortDate(in: bytes) {
                    cut = kept.name.count
                }
                continue
            }
            if token.isStoreCode(in: bytes) {
                if !afterTag, !kept.name.isEmpty, cut == nil { cut = kept.name.count }
                continue
            }
            if token.isReferenceNoise { continue }
            kept.add(token, asDetail: afterTag)
        }
        if let cut, cut >= 1, cut < kept.name.count {
            kept.truncateName(to: cut)
        } else {
            dropPlace(&kept.name, bytes)
            kept.truncateName(to: kept.name.count)
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

