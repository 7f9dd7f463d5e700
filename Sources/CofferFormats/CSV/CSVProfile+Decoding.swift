import CofferModel
import Foundation

// Decoding a profile strictly: unknown keys, missing required columns, bad values and columns the header
// signature lacks are all refused with the key path, so a typo in a profile is found when it loads.

extension CSVProfile {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw Self.invalid([CodingKeys.id], "'\(id)' must be letters, digits, '-', '_' or '.'")
        }
        institution = try c.decode(String.self, forKey: .institution)
        match = try c.decodeIfPresent(Match.self, forKey: .match) ?? Match(header: nil, fileName: nil)
        let encodingLabel = try c.decodeIfPresent(String.self, forKey: .encoding) ?? "utf-8"
        if let encoding = TextEncoding(label: encodingLabel) {
            self.encoding = encoding
            iconvEncoding = nil
        } else if CSVInputDecoding.isKnown(encodingLabel) {
            encoding = .utf8
            iconvEncoding = encodingLabel
        } else {
            throw Self.invalid([CodingKeys.encoding], "'\(encodingLabel)' is not an encoding iconv knows "
                               + "(utf-8, cp1252, latin-1, cp1250, ISO-8859-15, MACINTOSH, …; `iconv -l` lists them)")
        }
        let delimiterLabel = try c.decodeIfPresent(String.self, forKey: .delimiter) ?? "auto"
        guard let delimiter = Delimiter(label: delimiterLabel) else {
            throw Self.invalid([CodingKeys.delimiter], "'\(delimiterLabel)' is not a delimiter (use ',', ';', tab, '|' or auto)")
        }
        self.delimiter = delimiter
        decimalMark = try c.decodeIfPresent(String.self, forKey: .decimalMark) ?? "."
        guard decimalMark == "." || decimalMark == "," else {
            throw Self.invalid([CodingKeys.decimalMark], "'\(decimalMark)' must be '.' or ','")
        }
        thousandsSeparator = try c.decodeIfPresent(String.self, forKey: .thousandsSeparator)
            ?? (decimalMark == "." ? "," : ".")
        guard thousandsSeparator.count <= 1, thousandsSeparator != decimalMark,
              thousandsSeparator.allSatisfy({ !$0.isLetter && !$0.isNumber }) else {
            throw Self.invalid([CodingKeys.thousandsSeparator],
                               "'\(thousandsSeparator)' must be one character other than the decimal mark, or empty")
        }
        dateFormat = try c.decode(String.self, forKey: .dateFormat)
        do { _ = try CSVDateFormat(dateFormat) } catch {
            throw Self.invalid([CodingKeys.dateFormat], error.description)
        }
        let signLabel = try c.decodeIfPresent(String.self, forKey: .sign) ?? SignConvention.creditPositive.rawValue
        guard let sign = SignConvention(rawValue: signLabel) else {
            throw Self.invalid([CodingKeys.sign], "'\(signLabel)' must be credit_positive or debit_positive")
        }
        self.sign = sign
        columns = try c.decode(Columns.self, forKey: .columns)
        indicatorValues = try c.decodeIfPresent(IndicatorValues.self, forKey: .indicatorValues)
        statusValues = try c.decodeIfPresent([String: String].self, forKey: .statusValues) ?? [:]
        typeValues = try c.decodeIfPresent([String: String].self, forKey: .typeValues) ?? [:]
        account = try c.decode(AccountSpec.self, forKey: .account)
        footerMarkers = try c.decodeIfPresent([String].self, forKey: .footerMarkers) ?? []
        skipBadRows = try c.decodeIfPresent(Bool.self, forKey: .skipBadRows) ?? false
        let headerLabel = try c.decodeIfPresent(String.self, forKey: .header) ?? HeaderMode.names.rawValue
        guard let header = HeaderMode(rawValue: headerLabel) else {
            throw Self.invalid([CodingKeys.header], "'\(headerLabel)' must be names or none")
        }
        self.header = header
        ignoreRows = try c.decodeIfPresent([String].self, forKey: .ignoreRows) ?? []
        for (index, pattern) in ignoreRows.enumerated() where (try? NSRegularExpression(pattern: pattern)) == nil {
            throw Self.invalid([CodingKeys.ignoreRows, AnyKey(intValue: index)!], "'\(pattern)' is not a regular expression")
        }
        rules = try c.decodeIfPresent([Rule].self, forKey: .rules) ?? []
        let feeLabel = try c.decodeIfPresent(String.self, forKey: .fee) ?? FeeMode.net.rawValue
        guard let fee = FeeMode(rawValue: feeLabel) else {
            throw Self.invalid([CodingKeys.fee], "'\(feeLabel)' must be net or separate")
        }
        self.fee = fee
        footerBalances = try c.decodeIfPresent(FooterBalances.self, forKey: .footerBalances)
        if let f = footerBalances, f.opening == nil, f.closing == nil {
            throw Self.invalid([CodingKeys.footerBalances], "give the word of the opening row, the closing row, or both")
        }
        asOf = try c.decodeIfPresent(AsOfSource.self, forKey: .asOf)
        try checkConsistency()
    }

    /// Cross-key checks: the amount form, value maps, and that the header signature names every column used.
    private func checkConsistency() throws {
        let col = CodingKeys.columns
        switch (columns.amount, columns.debit, columns.credit) {
        case (.some, nil, nil): break
        case (nil, .some, .some): break
        case (nil, nil, nil):
            throw Self.invalid([col, AnyKey("amount")], "a profile needs an amount column, or debit and credit columns")
        case (nil, _, _):
            throw Self.invalid([col, AnyKey(columns.debit == nil ? "debit" : "credit")],
                               "debit and credit columns go together")
        default:
            throw Self.invalid([col, AnyKey("amount")], "give either amount or debit and credit, not both")
        }
        if columns.indicator != nil {
            guard columns.amount != nil else {
                throw Self.invalid([col, AnyKey("indicator")], "an indicator column needs an amount column")
            }
            guard let values = indicatorValues, !values.debit.isEmpty, !values.credit.isEmpty else {
                throw Self.invalid([CodingKeys.indicatorValues], "an indicator column needs indicator_values with debit and credit lists")
            }
        } else if indicatorValues != nil {
            throw Self.invalid([CodingKeys.indicatorValues], "indicator_values needs columns.indicator")
        }
        for (value, name) in statusValues where TransactionStatus(name: name) == nil {
            throw Self.invalid([CodingKeys.statusValues, AnyKey(value)],
                               "'\(name)' is not a status (\(TransactionStatus.caseNames.values.sorted().joined(separator: ", ")))")
        }
        for (value, name) in typeValues where TransactionType(name: name) == nil {
            throw Self.invalid([CodingKeys.typeValues, AnyKey(value)],
                               "'\(name)' is not a transaction type (\(TransactionType.caseNames.values.sorted().joined(separator: ", ")))")
        }
        try checkColumns()
        if account.number == nil, account.name == nil, account.numberFrom == nil,
           !rules.contains(where: { $0.set?.account != nil }) {
            throw Self.invalid([CodingKeys.account], "give the account's number, a name for it, or number_from")
        }
        let code = account.currency
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw Self.invalid([CodingKeys.account, AnyKey("currency")], "'\(code)' is not an ISO 4217 code like USD")
        }
    }

    /// Every column the profile reads exists: among `match.header` for a file with a header, a 1-based position
    /// for one without.
    private func checkColumns() throws {
        let col = CodingKeys.columns
        var used = columns.referenced.map { (path: [col, AnyKey($0.key)] as [any CodingKey], name: $0.name) }
        if let column = account.numberFrom?.column {
            used.append(([CodingKeys.account, AnyKey("number_from"), AnyKey("column")], column))
        }
        for (index, rule) in rules.enumerated() {
            for condition in rule.when {
                used.append(([CodingKeys.rules, AnyKey(intValue: index)!, AnyKey("when"), AnyKey("column")], condition.column))
            }
        }
        switch header {
        case .none:
            guard delimiter != .auto else {
                throw Self.invalid([CodingKeys.delimiter], "a file without a header needs its delimiter (',', ';', tab or '|')")
            }
            if match.header != nil {
                throw Self.invalid([CodingKeys.match, AnyKey("header")], "a file without a header has no header names to match")
            }
            for (path, name) in used where (Int(name) ?? 0) < 1 {
                throw Self.invalid(path, "'\(name)' is not a column position: with header: none, columns are numbered from 1")
            }
        case .names:
            if match.header == nil, match.fileName == nil {
                throw Self.invalid([CodingKeys.match], "give a header signature (match.header), a file_name pattern, or both")
            }
            if let header = match.header {
                guard !header.isEmpty else { throw Self.invalid([CodingKeys.match, AnyKey("header")], "the header list is empty") }
                let names = Set(header.map(CSVProfile.normalizedName))
                for (path, name) in used where !names.contains(CSVProfile.normalizedName(name)) {
                    throw Self.invalid(path, "'\(name)' is not among the match.header names")
                }
            }
        }
        for (key, value) in columns.all where value.contains("{") {
            guard ["description", "memo", "merchant"].contains(key) else {
                throw Self.invalid([col, AnyKey(key)], "only description, memo and merchant can be templates")
            }
            guard CSVTemplate(value) != nil else {
                throw Self.invalid([col, AnyKey(key)], "'\(value)' is not a template like \"{Type} {Reference}\"")
            }
        }
    }

    /// Header names compare lower-cased, with runs of spaces as one space and no surrounding spaces or BOM.
    package static func normalizedName(_ name: some StringProtocol) -> String {
        name.lowercased()
            .split(whereSeparator: { $0.isWhitespace || $0 == "\u{FEFF}" })
            .joined(separator: " ")
    }

    static func invalid(_ path: [any CodingKey], _ message: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
    }
}

extension CSVProfile.Match {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        header = try c.decodeIfPresent([String].self, forKey: .header)
        fileName = try c.decodeIfPresent(String.self, forKey: .fileName)
    }
}

extension CSVProfile.Columns {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func optional(_ key: CodingKeys) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
        date = try c.decode(String.self, forKey: .date)
        description = try c.decode(String.self, forKey: .description)
        postedDate = try optional(.postedDate)
        memo = try optional(.memo)
        merchant = try optional(.merchant)
        amount = try optional(.amount)
        debit = try optional(.debit)
        credit = try optional(.credit)
        indicator = try optional(.indicator)
        status = try optional(.status)
        currency = try optional(.currency)
        category = try optional(.category)
        mcc = try optional(.mcc)
        type = try optional(.type)
        id = try optional(.id)
        balance = try optional(.balance)
        checkNumber = try optional(.checkNumber)
        foreignAmount = try optional(.foreignAmount)
        foreignCurrency = try optional(.foreignCurrency)
        fee = try optional(.fee)
    }
}

extension CSVProfile.FooterBalances {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        opening = try c.decodeIfPresent(String.self, forKey: .opening)
        closing = try c.decodeIfPresent(String.self, forKey: .closing)
    }
}

extension CSVProfile.IndicatorValues {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        debit = try c.decode([String].self, forKey: .debit)
        credit = try c.decode([String].self, forKey: .credit)
    }
}

extension CSVProfile.AccountSpec {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        institution = try c.decodeIfPresent(String.self, forKey: .institution)
        institutionID = try c.decodeIfPresent(String.self, forKey: .institutionID)
        number = try c.decodeIfPresent(String.self, forKey: .number)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        numberFrom = try c.decodeIfPresent(CSVProfile.NumberSource.self, forKey: .numberFrom)
        masked = try c.decodeIfPresent(Bool.self, forKey: .masked) ?? false
        formerNumber = try c.decodeIfPresent(String.self, forKey: .formerNumber)
        let kindLabel = try c.decode(String.self, forKey: .kind)
        guard let kind = AccountKind(rawValue: kindLabel) else {
            throw CSVProfile.invalid(decoder.codingPath + [CodingKeys.kind], "'\(kindLabel)' must be asset or liability")
        }
        self.kind = kind
        currency = try c.decode(String.self, forKey: .currency)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        type = try c.decodeIfPresent(String.self, forKey: .type)
    }
}

/// A coding key made from any string, for listing and naming keys.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
}

extension CodingUserInfoKey {
    /// With `true`, `rejectUnknownKeys` accepts every key (`CSVProfileSet.decode(…, checkingKeys: false)`).
    static let acceptsUnknownKeys = CodingUserInfoKey(rawValue: "coffer.acceptsUnknownKeys")!
}

extension Decoder {
    /// Throws for a key the type does not know, naming the key and the keys it does know.
    func rejectUnknownKeys<K: CodingKey & CaseIterable>(_: K.Type) throws {
        if userInfo[.acceptsUnknownKeys] as? Bool == true { return }
        let container = try self.container(keyedBy: AnyKey.self)
        let known = Set(K.allCases.map(\.stringValue))
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "unknown key (known keys: \(known.sorted().joined(separator: ", ")))"))
        }
    }
}

extension CSVProfile.AsOfSource {
    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fileName = try c.decodeIfPresent(String.self, forKey: .fileName)
        preamble = try c.decodeIfPresent(String.self, forKey: .preamble)
        dateFormat = try c.decodeIfPresent(String.self, forKey: .dateFormat)
        guard (fileName == nil) != (preamble == nil) else {
            throw CSVProfile.invalid(decoder.codingPath, "give exactly one of file_name or preamble")
        }
        for (key, pattern) in [(CodingKeys.fileName, fileName), (.preamble, preamble)] {
            guard let pattern else { continue }
            try CSVProfile.checkPattern(pattern, group: "date", at: decoder.codingPath + [key])
        }
        if let dateFormat {
            do { _ = try CSVDateFormat(dateFormat) } catch {
                throw CSVProfile.invalid(decoder.codingPath + [CodingKeys.dateFormat], error.description)
            }
        }
    }
}
