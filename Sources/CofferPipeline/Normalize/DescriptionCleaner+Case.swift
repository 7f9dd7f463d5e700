extension DescriptionCleaner {
    /// Joins the kept tokens with single spaces, title-casing a text that came all in capitals.
    ///
    /// For example, `ONLINE TRANSFER TO SAV` → `Online Transfer to Sav`, `MCDONALD'S` → `McDonald's`,
    /// `NETFLIX.COM` → `Netflix.com`, `REWE MARKT GMBH` → `REWE Markt GmbH`; `Amazon.com` and `7-ELEVEN`
    /// (a word with a digit) stay as they are. Acronyms (`ATM`, `IKEA`), consonant-only words of up to four
    /// letters (`CVS`, `BP`) and fixed spellings (`GmbH`, `eBay`) come from `DescriptionWords`.
    /// `allCaps` says whether the whole text came in capitals (the name alone is rendered as in the whole).
    static func render(_ kept: [DescriptionToken], _ bytes: UnsafeBufferPointer<UInt8>, allCaps: Bool) -> String {
        if kept.isEmpty { return "" }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for (position, token) in kept.enumerated() {
            if position > 0 { output.append(0x20) }
            if !allCaps || token.digits > 0 {
                output.append(contentsOf: bytes[token.start..<token.end])
            } else {
                appendTitleCased(token, isFirst: position == 0, bytes, &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendTitleCased(_ token: DescriptionToken, isFirst: Bool, _ bytes: UnsafeBufferPointer<UInt8>,
                                         _ output: inout [UInt8]) {
        var word = token
        if bytes[word.end &- 1] == 0x2E, word.length > 1 {  // `ST.` → look up `ST`
            word.end &-= 1
            word = word.keyed(in: bytes)
        }
        if let spelling = DescriptionWords.spellings.value(for: word, in: bytes) {
            output.append(contentsOf: spelling)
            output.append(contentsOf: bytes[word.end..<token.end])
            return
        }
        if !isFirst, DescriptionWords.smallWords.contains(token, in: bytes) {
            appendLowercased(token.start, token.end, bytes, &output)
            return
        }
        if DescriptionWords.acronyms.contains(token, in: bytes) {
            output.append(contentsOf: bytes[token.start..<token.end])
            return
        }
        // Segments between `-` `/` `.` `'` `&` `(` `)` are cased one by one: `COCA-COLA` → `Coca-Cola`.
        var segmentStart = token.start
        var separator: UInt8 = 0
        var index = token.start
        while index <= token.end {
            let byte: UInt8 = index < token.end ? bytes[index] : 0x20
            let isSeparator = byte == 0x2D || byte == 0x2F || byte == 0x2E || byte == 0x27 || byte == 0x26
                || byte == 0x28 || byte == 0x29 || byte == 0x20
            if isSeparator {
                appendSegment(segmentStart, index, after: separator, bytes, &output)
                if index < token.end { output.append(byte) }
                separator = byte
                segmentStart = index &+ 1
            }
            index &+= 1
        }
    }

    private static func appendSegment(_ start: Int, _ end: Int, after separator: UInt8,
                                      _ bytes: UnsafeBufferPointer<UInt8>, _ output: inout [UInt8]) {
        guard start < end else { return }
        let length = end &- start
        if separator == 0x2E || (separator == 0x27 && length == 1) {
            appendLowercased(start, end, bytes, &output)  // `.COM`, `'S`
            return
        }
        let segment = DescriptionToken(start: start, end: end).keyed(in: bytes)
        var vowels = 0
        for index in start..<end {
            switch bytes[index] {
            case 0x41, 0x45, 0x49, 0x4F, 0x55, 0x59: vowels &+= 1
            case 0x80...0xFF: vowels &+= 1
            default: break
            }
        }
        if (vowels == 0 && length >= 2 && length <= 4) || DescriptionWords.acronyms.contains(segment, in: bytes) {
            output.append(contentsOf: bytes[start..<end])
            return
        }
        var rest = start &+ 1
        output.append(bytes[start])
        if length >= 5, bytes[start] == 0x4D, bytes[start &+ 1] == 0x43 {  // MCDONALD → McDonald
            output.append(0x63)
            output.append(bytes[start &+ 2])
            rest = start &+ 3
        } else if bytes[start] >= 0xC0, rest < end {
            output.append(bytes[rest])  // keep a two-byte capital whole
            rest &+= 1
        }
        appendLowercased(rest, end, bytes, &output)
    }

    /// Appends bytes with ASCII and Latin-1 capitals lowercased.
    private static func appendLowercased(_ start: Int, _ end: Int, _ bytes: UnsafeBufferPointer<UInt8>,
                                         _ output: inout [UInt8]) {
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte >= 0x41 && byte <= 0x5A {
                output.append(byte &+ 0x20)
            } else if byte == 0xC3, index &+ 1 < end, bytes[index &+ 1] >= 0x80, bytes[index &+ 1] <= 0x9E,
                      bytes[index &+ 1] != 0x97
            {
                output.append(byte)
                output.append(bytes[index &+ 1] &+ 0x20)
                index &+= 1
            } else {
                output.append(byte)
            }
            index &+= 1
        }
    }
}
