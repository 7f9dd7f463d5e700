import CofferModel
import Yams

/// ISO 18245 merchant category codes → spending categories, from ranges of codes (`config/mcc-categories.yaml`).
///
/// For example:
/// ```swift
/// let table = MCCCategoryTable([.init(category: "dining", ranges: [5811...5814]),
///                               .init(category: "coffee", ranges: [5814...5814], layer: 1)])
/// table.category(for: MerchantCategoryCode(rawValue: 5812))   // "dining"
/// table.category(for: MerchantCategoryCode(rawValue: 5814))   // "coffee": a later layer wins where it overlaps
/// table.category(for: MerchantCategoryCode(rawValue: 1))      // nil: in no range
/// ```
/// Where several ranges hold a code: the later layer's, then the narrower range, then the entry listed first.
package struct MCCCategoryTable: Sendable {
    /// One category and its codes, from one layer.
    package struct Entry: Sendable, Hashable {
        package var category: String
        /// Inclusive ranges of codes (a single code is a range of one).
        package var ranges: [ClosedRange<Int>]
        /// The layer it came from: a higher layer wins where ranges overlap.
        package var layer: Int

        package init(category: String, ranges: [ClosedRange<Int>], layer: Int = 0) {
            self.category = category
            self.ranges = ranges
            self.layer = layer
        }
    }

    /// The entries in the order they were given (lowest layer first).
    package let entries: [Entry]
    /// Code (0–9999) → index into `categories`, or -1.
    private let lookup: [Int16]
    private let names: [String]

    package static let empty = MCCCategoryTable([])

    package init(_ entries: [Entry]) {
        self.entries = entries
        var names: [String] = []
        var nameIndex: [String: Int] = [:]
        var lookup = [Int16](repeating: -1, count: 10_000)
        // Per code, the best (layer, -width, -order) so far.
        var best = [(layer: Int, width: Int, order: Int)?](repeating: nil, count: 10_000)
        for (order, entry) in entries.enumerated() {
            let index: Int
            if let known = nameIndex[entry.category] { index = known } else {
                index = names.count
                nameIndex[entry.category] = index
                names.append(entry.category)
            }
            for range in entry.ranges {
                let low = max(0, range.lowerBound), high = min(9_999, range.upperBound)
                guard low <= high else { continue }
                let width = high - low
                for code in low...high {
                    if let current = best[code] {
                        let better = entry.layer != current.layer ? entry.layer > current.layer
                            : width != current.width ? width < current.width : order < current.order
                        guard better else { continue }
                    }
                    best[code] = (entry.layer, width, order)
                    lookup[code] = Int16(index)
                }
            }
        }
        self.lookup = lookup
        self.names = names
    }

    /// The category of a code, or nil when no range holds it.
    package func category(for code: MerchantCategoryCode) -> String? {
        let raw = Int(code.rawValue)
        guard raw >= 0, raw < lookup.count, lookup[raw] >= 0 else { return nil }
        return names[Int(lookup[raw])]
    }

    /// Every category name the table gives, in the order first listed.
    package var categories: [String] { names }
}

/// One `mcc-categories.yaml` file: its categories with their codes, its category rules and its type categories.
package struct MCCCategoryFile: Sendable {
    package var categories: [(category: String, ranges: [ClosedRange<Int>])] = []
    package var rules: [MerchantRule] = []
    package var types: [TransactionType: String] = [:]

    /// Reads the text of one file (see the comment at the top of `config/mcc-categories.yaml`).
    ///
    /// For example, `try MCCCategoryFile.parse(yaml: "categories: {dining: [5811-5814]}", file: "mine.yaml")`.
    /// A mistake throws `CofferError(.badConfiguration)` naming the file, line and entry.
    package static func parse(yaml text: String, file: String) throws -> MCCCategoryFile {
        let root = try ConfigYAML.root(of: text, file: file)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with 'categories', 'rules' or 'types' at the top", at: root, file: file)
        }
        var result = MCCCategoryFile()
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "version": continue
            case "categories":
                if case .scalar(let scalar) = value, scalar.string.isEmpty { continue }
                guard case .mapping(let mapping) = value else {
                    throw ConfigYAML.error("'categories' must map each category to its codes, like 'dining: [5811-5814]'", at: value, file: file)
                }
                var seen = Set<String>()
                for (nameNode, codesNode) in mapping {
                    let name = try MerchantRules.categoryName(nameNode, what: "a category", file: file)
                    guard seen.insert(name).inserted else {
                        throw ConfigYAML.error("category '\(name)' is listed twice", at: nameNode, file: file)
                    }
                    result.categories.append((name, try ranges(codesNode, category: name, file: file)))
                }
            case "rules":
                if case .scalar(let scalar) = value, scalar.string.isEmpty || scalar.string == "[]" { continue }
                result.rules = try MerchantRules.rules(value, kind: .category, file: file)
            case "types":
                if case .scalar(let scalar) = value, scalar.string.isEmpty { continue }
                guard case .mapping(let mapping) = value else {
                    throw ConfigYAML.error("'types' must map transaction types to categories, like 'fee: fees'", at: value, file: file)
                }
                for (typeNode, categoryNode) in mapping {
                    let text = ConfigYAML.text(typeNode) ?? ""
                    guard let type = TransactionType(name: text) else {
                        throw ConfigYAML.error("'types': '\(text)' is not a transaction type; expected one of "
                                               + TransactionType.allCases.map(\.name).sorted().joined(separator: ", "),
                                               at: typeNode, file: file)
                    }
                    result.types[type] = try MerchantRules.categoryName(categoryNode, what: "'types': \(text)", file: file)
                }
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected categories, rules or types",
                                       at: key, file: file)
            }
        }
        return result
    }

    /// `[5411, 5811-5814, "0742"]`: codes and ranges of four-digit codes.
    private static func ranges(_ node: Node, category: String, file: String) throws -> [ClosedRange<Int>] {
        let items: [Node]
        switch node {
        case .sequence(let sequence): items = Array(sequence)
        case .scalar(let scalar) where scalar.string == "[]" || scalar.string.isEmpty: items = []
        case .scalar: items = [node]
        default:
            throw ConfigYAML.error("category '\(category)': expected a list of codes and ranges, like [5411, 5811-5814]", at: node, file: file)
        }
        return try items.map { item in
            let text = (ConfigYAML.text(item) ?? "").trimmingWhitespace
            func code(_ part: Substring) -> Int? {
                let digits = part.trimmingWhitespace
                guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                return Int(digits)
            }
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let low = code(parts[0]), let high = code(parts[parts.count - 1]), low <= high else {
                throw ConfigYAML.error("category '\(category)': '\(text)' is not a merchant category code (four digits, 5411) "
                                       + "or a range of them (5811-5814, the lower first)", at: item, file: file)
            }
            return low...high
        }
    }
}
