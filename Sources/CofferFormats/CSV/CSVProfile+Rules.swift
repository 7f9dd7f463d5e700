import CofferModel
import Foundation

extension CSVProfile {
    /// One per-row rule: when every condition holds, skip the row or set values on its transaction.
    ///
    /// ```yaml
    /// rules:
    ///   - when: {column: Status, matches: "In Progress|Temporary Hold"}
    ///     skip: true
    ///   - when: [{column: Type, equals: Fee}, {column: Amount, empty: false}]
    ///     set: {type: fee, mcc: "6012"}
    /// ```
    /// Rules run in order and all that match apply; a later `set` overrides an earlier one.
    package struct Rule: Codable, Sendable, Hashable {
        package var when: [Condition]
        package var skip: Bool
        package var set: Actions?

        enum CodingKeys: String, CodingKey, CaseIterable { case when, skip, set }
    }

    /// A condition on one cell: `equals` (ignoring case and surrounding spaces), `matches` (a regular expression,
    /// searched anywhere in the cell; plain text without regex characters is a substring search), or `empty`.
    package struct Condition: Codable, Sendable, Hashable {
        package var column: String
        package var equals: String?
        package var matches: String?
        package var empty: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable { case column, equals, matches, empty }
    }

    /// What a rule sets on the row's transaction.
    package struct Actions: Codable, Sendable, Hashable {
        package var status: String?
        package var type: String?
        package var mcc: String?
        package var description: String?
        /// `flip` (the export has this row's sign the other way), `debit` or `credit` (the direction, whatever the
        /// sign).
        package var sign: String?
        /// The account number the row belongs to (rows are then grouped by account over the file).
        package var account: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case status, type, mcc, description, sign, account }
    }
}

/// A text made of literal parts and cells: `"{Type} {Reference}"`. Empty cells leave no double spaces behind.
package struct CSVTemplate: Sendable, Hashable {
    package enum Part: Sendable, Hashable {
        case literal(String)
        case column(String)
    }

    package let parts: [Part]

    /// Nil when `text` has no `{…}`: it is a plain column name then.
    package init?(_ text: String) {
        guard text.contains("{") else { return nil }
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let name = rest[rest.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            parts.append(.column(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
    }

    /// The column names (or positions) it reads.
    package var columns: [String] {
        parts.compactMap { if case .column(let name) = $0 { name } else { nil } }
    }
}

extension CSVProfile.Rule {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let list = try? c.decode([CSVProfile.Condition].self, forKey: .when) {
            when = list
        } else {
            when = [try c.decode(CSVProfile.Condition.self, forKey: .when)]
        }
        skip = try c.decodeIfPresent(Bool.self, forKey: .skip) ?? false
        set = try c.decodeIfPresent(CSVProfile.Actions.self, forKey: .set)
        guard skip || set != nil else {
            throw CSVProfile.invalid(decoder.codingPath, "a rule needs an action: skip: true, or set: {…}")
        }
        guard !when.isEmpty else { throw CSVProfile.invalid(decoder.codingPath + [CodingKeys.when], "no condition") }
    }
}

extension CSVProfile.Condition {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        column = try c.decode(String.self, forKey: .column)
        equals = try c.decodeIfPresent(String.self, forKey: .equals)
        matches = try c.decodeIfPresent(String.self, forKey: .matches)
        empty = try c.decodeIfPresent(Bool.self, forKey: .empty)
        let given = [equals != nil, matches != nil, empty != nil].filter { $0 }.count
        guard given == 1 else {
            throw CSVProfile.invalid(decoder.codingPath, "a condition needs exactly one of equals, matches or empty")
        }
        if let pattern = matches, (try? NSRegularExpression(pattern: pattern)) == nil {
            throw CSVProfile.invalid(decoder.codingPath + [CodingKeys.matches], "'\(pattern)' is not a regular expression")
        }
    }
}

extension CSVProfile.Actions {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decodeIfPresent(String.self, forKey: .status)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        mcc = try c.decodeIfPresent(String.self, forKey: .mcc)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        sign = try c.decodeIfPresent(String.self, forKey: .sign)
        account = try c.decodeIfPresent(String.self, forKey: .account)
        let path = decoder.codingPath
        if let status, TransactionStatus(name: status) == nil {
            throw CSVProfile.invalid(path + [CodingKeys.status], "'\(status)' is not a status")
        }
        if let type, TransactionType(name: type) == nil {
            throw CSVProfile.invalid(path + [CodingKeys.type], "'\(type)' is not a transaction type")
        }
        if let mcc, MerchantCategoryCode(mcc) == nil {
            throw CSVProfile.invalid(path + [CodingKeys.mcc], "'\(mcc)' is not a merchant category code")
        }
        if let sign, !["flip", "debit", "credit"].contains(sign) {
            throw CSVProfile.invalid(path + [CodingKeys.sign], "'\(sign)' must be flip, debit or credit")
        }
        if status == nil, type == nil, mcc == nil, description == nil, sign == nil, account == nil {
            throw CSVProfile.invalid(path, "set needs at least one of status, type, mcc, description, sign, account")
        }
    }
}

extension CSVProfile.NumberSource {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        column = try c.decodeIfPresent(String.self, forKey: .column)
        fileName = try c.decodeIfPresent(String.self, forKey: .fileName)
        preamble = try c.decodeIfPresent(String.self, forKey: .preamble)
        guard [column, fileName, preamble].compactMap({ $0 }).count == 1 else {
            throw CSVProfile.invalid(decoder.codingPath, "give exactly one of column, file_name or preamble")
        }
        for (key, pattern) in [(CodingKeys.fileName, fileName), (.preamble, preamble)] {
            guard let pattern else { continue }
            try CSVProfile.checkPattern(pattern, group: "number", at: decoder.codingPath + [key])
        }
    }

    /// The number in `text` by the pattern (anchored at its start), or nil.
    package static func number(in text: String, regex: NSRegularExpression) -> String? {
        CSVProfile.capture("number", in: text, regex: regex)
    }
}

extension CSVProfile {
    /// Throws, naming the key, unless `pattern` is a regular expression with a group named `group`.
    static func checkPattern(_ pattern: String, group: String, at path: [any CodingKey]) throws {
        guard (try? NSRegularExpression(pattern: pattern)) != nil else {
            throw invalid(path, "'\(pattern)' is not a regular expression")
        }
        guard pattern.contains("(?<\(group)>") else {
            throw invalid(path, "'\(pattern)' has no group named \(group): (?<\(group)>…)")
        }
    }

    /// The trimmed text of the group named `group` where `regex` matches at the start of `text`; nil when it does
    /// not match or the group is empty.
    static func capture(_ group: String, in text: String, regex: NSRegularExpression) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, options: .anchored, range: range),
              let found = Range(match.range(withName: group), in: text) else { return nil }
        let value = text[found].trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }
}
