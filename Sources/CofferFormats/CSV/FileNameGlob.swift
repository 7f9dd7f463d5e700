/// A shell-style file-name pattern (`*Apple Card*.csv`), matched ignoring case.
///
/// For example:
/// ```swift
/// FileNameGlob("*Apple Card*.csv").matches("Apple Card Transactions - March 2026.CSV")  // true
/// FileNameGlob("Umsaetze_??.csv").matches("Umsaetze_DE.csv")                           // true
/// ```
/// `*` matches any run of characters, `?` one character; everything else matches itself. Matching is iterative
/// (one backtrack point), so no pattern or name can make it recurse or take more than quadratic time.
package struct FileNameGlob: Sendable, Hashable {
    package let pattern: String
    private let chars: [Character]

    package init(_ pattern: String) {
        self.pattern = pattern
        chars = Array(pattern.lowercased())
    }

    package func matches(_ name: String) -> Bool {
        let text = Array(name.lowercased())
        var p = 0, t = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < chars.count, chars[p] == "?" || (chars[p] != "*" && chars[p] == text[t]) {
                p += 1
                t += 1
            } else if p < chars.count, chars[p] == "*" {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < chars.count, chars[p] == "*" { p += 1 }
        return p == chars.count
    }
}
