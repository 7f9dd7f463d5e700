import CofferModel
import Yams

/// Category words as statement exports give them → the ISO 18245 merchant category code that best represents
/// each.
///
/// For example:
/// ```swift
/// let table = try CategoryMCCTable.load(defaults: "config/categories.yaml", user: nil)
/// table.code(forCategory: "Restaurants")?.code     // "5812"
/// table.code(forCategory: "food & drink")?.code    // "5812" ("Food and Drink" too)
/// table.code(forCategory: "Transfers")             // nil: not a merchant category
/// ```
/// Lookups ignore case, accents, punctuation, spaces and the words `and`/`und`, so `Food & Drink`,
/// `FOOD_AND_DRINK` and `food and drink` are one key.
package struct CategoryMCCTable: Sendable {
    /// Key → code; a nil code marks a category that is known not to be a merchant category.
    private let codes: [String: MerchantCategoryCode?]

    package static let empty = CategoryMCCTable([:])

    /// A table from category words (any spelling) to codes.
    package init(_ entries: [String: MerchantCategoryCode?]) {
        var codes: [String: MerchantCategoryCode?] = [:]
        for (word, code) in entries { codes[CategoryMCCTable.key(word)] = code }
        self.codes = codes
    }

    /// A table of keys as `key(_:)` makes them.
    init(keyed codes: [String: MerchantCategoryCode?]) { self.codes = codes }

    /// Key → code, as looked up.
    var entries: [String: MerchantCategoryCode?] { codes }

    /// The code for a category word, or nil when the word is unknown or not a merchant category.
    ///
    /// A Quicken category with subcategories (`Food:Groceries`, `Auto:Fuel`) is looked up whole, then by its
    /// most specific part known (`Groceries`), then by its parent (`Food`).
    package func code(forCategory category: String) -> MerchantCategoryCode? {
        if let known = codes[CategoryMCCTable.key(category)] { return known }
        guard category.contains(":") else { return nil }
        let parts = category.split(separator: ":").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
        for part in parts.reversed() {
            if let known = codes[CategoryMCCTable.key(part)] { return known }
        }
        return nil
    }

    /// This table with `other`'s entries added, `other` winning where both have a word.
    package func merging(_ other: CategoryMCCTable) -> CategoryMCCTable {
        CategoryMCCTable(keyed: codes.merging(other.codes) { _, theirs in theirs })
    }

    /// The number of category words.
    package var count: Int { codes.count }

    static func key(_ word: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(word.utf8.count)
        var wordStart = 0
        func endWord() {
            // Drop `and` / `und` as whole words so `Food & Drink` == `Food and Drink`.
            let length = result.count - wordStart
            if length == 3, result[wordStart + 1] == 0x6E, result[wordStart + 2] == 0x64,
               result[wordStart] == 0x61 || result[wordStart] == 0x75 {
                result.removeLast(3)
            }
            wordStart = result.count
        }
        TextFolding.forEachSymbol(in: word) { symbol in
            switch symbol {
            case 0...9: result.append(symbol &+ 0x30)
            case 10...35: result.append(symbol &- 10 &+ 0x61)
            case TextFolding.other: result.append(0x3F)
            case TextFolding.space: endWord()
            default: break
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension CategoryMCCTable {
    /// Loads the shipped table and, when given, the user's own file, whose entries win.
    package static func load(defaults: String, user: String?) throws -> CategoryMCCTable {
        let base = try parse(yaml: ConfigYAML.read(defaults), file: defaults)
        guard let user else { return base }
        return base.merging(try parse(yaml: ConfigYAML.read(user), file: user))
    }

    /// The table of one `categories.yaml` text: a `categories` mapping of word → code (or null).
    package static func parse(yaml text: String, file: String) throws -> CategoryMCCTable {
        let root = try ConfigYAML.root(of: text, file: file)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with a 'categories' mapping at the top", at: root, file: file)
        }
        var entries: [String: MerchantCategoryCode?] = [:]
        var found = false
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "version": continue
            case "categories":
                found = true
                guard case .mapping(let mapping) = value else {
                    throw ConfigYAML.error("'categories' must map category words to codes, like 'Groceries: 5411'", at: value, file: file)
                }
                for (wordNode, codeNode) in mapping {
                    guard let word = ConfigYAML.text(wordNode), !CategoryMCCTable.key(word).isEmpty else {
                        throw ConfigYAML.error("a category must be a word with letters or digits", at: wordNode, file: file)
                    }
                    entries[word] = try ConfigYAML.merchantCategoryCode(codeNode, what: "category '\(word)'", file: file)
                }
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected 'categories'", at: key, file: file)
            }
        }
        guard found else { throw ConfigYAML.error("missing the 'categories' mapping", at: root, file: file) }
        return CategoryMCCTable(entries)
    }
}
