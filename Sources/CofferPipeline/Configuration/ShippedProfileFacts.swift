import CofferFormats

/// A profile as a configuration layer gives it: decoded, or (a shipped profile) its YAML, decoded when the
/// profiles are first used (`CSVProfileSet.init(profiles:deferred:)`).
enum LayerProfile {
    case decoded(CSVProfile)
    case deferred(CSVProfileSet.Deferred)

    var decoded: CSVProfile? { if case .decoded(let profile) = self { profile } else { nil } }
    var deferred: CSVProfileSet.Deferred? { if case .deferred(let profile) = self { profile } else { nil } }
}

/// The id and institution of a shipped CSV profile, read from its top-level `id:` and `institution:` lines without
/// decoding it: what loading the configuration needs of a profile (overrides by id, `coffer config show`'s
/// detail) before it is used. Nil unless each is one plain scalar on one line (the shipped files write them so);
/// the profile is then decoded at once, as before. `ConfigurationLayerTests` checks these facts against the
/// decoded profile for every shipped file.
///
/// Written by hand rather than read with Yams: composing the YAML is the cost being deferred.
struct ShippedProfileFacts: Equatable {
    var id: String
    var institution: String

    init(id: String, institution: String) {
        self.id = id
        self.institution = institution
    }

    init?(yaml: String) {
        var id: String?, institution: String?
        // Only lines starting with "i" are looked at, found by a scan of the bytes: split into lines by Character,
        // the eight shipped files cost 8 M instructions at every import.
        let utf8 = yaml.utf8
        var lineStart = utf8.startIndex
        while lineStart < utf8.endIndex {
            let lineEnd = utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
            if utf8[lineStart] == UInt8(ascii: "i") {
                let line = yaml[lineStart..<lineEnd]
                if line.hasPrefix("id:") {
                    guard id == nil, let value = Self.plainScalar(line.dropFirst(3)) else { return nil }
                    id = value
                } else if line.hasPrefix("institution:") {
                    guard institution == nil, let value = Self.plainScalar(line.dropFirst(12)) else { return nil }
                    institution = value
                }
            }
            lineStart = lineEnd == utf8.endIndex ? lineEnd : utf8.index(after: lineEnd)
        }
        guard let id, let institution else { return nil }
        self.id = id
        self.institution = institution
    }

    /// A value that YAML reads as the same text with no quoting, escaping or comment: letters, digits, spaces and
    /// `-_.&()`, starting with a letter or digit (the spaces around it dropped).
    static func plainScalar(_ text: Substring) -> String? {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return plainASCIIScalar(text) }
        let value = text.trimmingPrefix(while: { $0 == " " })
        let trimmed = value.reversed().drop(while: { $0 == " " || $0 == "\r" }).reversed()
        let allowed = trimmed.allSatisfy { $0.isLetter || $0.isNumber || " -_.&()".contains($0) }
        guard allowed, let first = trimmed.first, first.isLetter || first.isNumber else { return nil }
        return String(trimmed)
    }

    /// `plainScalar` of ASCII text, by bytes (Character's `isLetter` and `isNumber` cost about 250,000 instructions
    /// a value): the same rule, as in ASCII only A–Z and a–z are letters and only 0–9 numbers.
    private static func plainASCIIScalar(_ text: Substring) -> String? {
        var bytes = text.utf8[...]
        while bytes.first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        func isAlphanumeric(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
        }
        let punctuation = Array(" -_.&()".utf8)
        guard let first = bytes.first, isAlphanumeric(first),
              bytes.allSatisfy({ isAlphanumeric($0) || punctuation.contains($0) }) else { return nil }
        return String(Substring(bytes))
    }
}
