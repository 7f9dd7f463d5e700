import CofferModel
import Foundation

/// Parses a CSV statement under an institution profile, streaming one event per row.
///
/// For example:
/// ```swift
/// let parser = try CSVStatementParser(profile: profiles.profile(id: "dkb-giro")!)
/// try parser.parse(.file("feeds/csv/dkb-giro.csv")) { event in print(event) }
/// // .begin(account from the profile) · .transaction per row · .balance (balance column) · .end
/// ```
/// The header row is found by its names (a preamble before it is skipped); rows after the last data row that
/// are not data (`Kontostand;…`, `Closing balance,…`) are a footer and ignored. A bad row anywhere else fails
/// the whole file with its line and column, unless the profile says `skip_bad_rows: true`: then each skipped row
/// becomes a `.warning`. `.begin` carries no period: the file does not state one before its rows.
///
/// The account is the profile's, unless `account.number_from` takes its number from the file: its name or a
/// preamble line (one statement), or a column (rows grouped by account over the whole file: the file is read once
/// to list the accounts, then once per account, each an own statement). Rows `ignore_rows` names and rows a rule
/// skips are counted in one warning each; a `fee` column nets the fee or adds a fee transaction.
package struct CSVStatementParser: StatementParser {
    package let profile: CSVProfile
    let dateFormat: CSVDateFormat
    /// Rows after the data that may be a footer before they count as bad rows.
    static let maxFooterRows = 20

    package init(profile: CSVProfile) throws {
        self.profile = profile
        do { dateFormat = try CSVDateFormat(profile.dateFormat) } catch {
            throw CofferError(.badConfiguration, "profile \(profile.id): key 'date_format': \(error.description)")
        }
    }

    package func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        let input = try CSVInputDecoding.utf8(input, profile: profile)
        let delimiter = try checkedDelimiter(input)
        guard rowsNameAccounts else {
            return try statement(input, delimiter: delimiter, only: nil, first: true, emit: emit)
        }
        // Rows name their accounts: one statement per account over the whole file (coverage, balances and
        // pending handling are per account), in the order the accounts first appear.
        let accounts = try rowAccounts(input, delimiter: delimiter)
        for (offset, number) in accounts.enumerated() {
            try statement(input, delimiter: delimiter, only: number, first: offset == 0, emit: emit)
        }
        if accounts.isEmpty { try statement(input, delimiter: delimiter, only: nil, first: true, emit: emit) }
    }

    /// Whether rows say which account they belong to (a `number_from` column, or a rule that sets the account).
    var rowsNameAccounts: Bool {
        profile.account.numberFrom?.column != nil || profile.rules.contains { $0.set?.account != nil }
    }

    /// A file opened and positioned after its header, with the mapper for its rows.
    private struct Opened {
        let reader: CSVRecordReader
        let mapper: CSVRowMapper
        let headerLine: Int
        /// The first record is already read and is data (a file without a header).
        var pendingRecord: Bool
    }

    private func open(_ input: StatementInput, delimiter: UInt8) throws -> Opened {
        let reader = try CSVRecordReader(input: input, delimiter: delimiter)
        if profile.header == .none {
            while try reader.next() {
                guard reader.isBlank else {
                    let names = (1...max(reader.fieldCount, 1)).map { "column \($0)" }
                    let mapper = try CSVRowMapper(profile: profile, dateFormat: dateFormat, header: names,
                                                  normalizedHeader: names, fileName: input.name, headerLine: reader.line)
                    return Opened(reader: reader, mapper: mapper, headerLine: 0, pendingRecord: true)
                }
            }
            throw CofferError(.badInput, "the file has no rows", location: SourceLocation(file: input.name, line: 1))
        }
        let signature = profile.headerSignature
        while try reader.next() {
            if reader.line > CSVHeaderLocator.maxHeaderLine { break }
            let normalized = CSVHeaderLocator.normalizedCells(reader, encoding: profile.encoding)
            if CSVHeaderLocator.matches(normalized, signature: signature) {
                let names = (0..<reader.fieldCount).map { i in
                    reader.withField(i) { profile.encoding.decode($0).trimmingCharacters(in: .whitespaces) }
                }
                let mapper = try CSVRowMapper(profile: profile, dateFormat: dateFormat, header: names,
                                              normalizedHeader: normalized, fileName: input.name, headerLine: reader.line)
                return Opened(reader: reader, mapper: mapper, headerLine: reader.line, pendingRecord: false)
            }
        }
        throw noHeader(input)
    }

    /// Steps to the next record: the pending first one of a headerless file, then the reader's.
    private func advance(_ opened: inout Opened) throws -> Bool {
        if opened.pendingRecord {
            opened.pendingRecord = false
            return true
        }
        return try opened.reader.next()
    }

    /// The accounts the rows name, in order of first appearance (pass one of a file whose rows name accounts).
    private func rowAccounts(_ input: StatementInput, delimiter: UInt8) throws -> [String] {
        var opened = try open(input, delimiter: delimiter)
        let (reader, mapper) = (opened.reader, opened.mapper)
        var seen: Set<String> = []
        var order: [String] = []
        while try advance(&opened) {
            if reader.isBlank || mapper.rules.isIgnored(reader, text: { mapper.text(reader, $0) }) { continue }
            let (skip, actions) = mapper.rules.evaluate { mapper.text(reader, $0) }
            if skip { continue }
            guard let number = mapper.accountNumber(reader, actions: actions) ?? fallbackNumber else {
                // A data row must say its account; other rows (a footer) are left to the statement passes.
                if reader.withField(mapper.indexes.date, { dateFormat.parse(bytes: $0) }) != nil {
                    let column = profile.account.numberFrom?.column ?? "the account column"
                    throw CofferError(.badInput, "expected an account number in '\(column)', found an empty cell "
                                      + "(and the profile gives no account.number to fall back on)",
                                      location: SourceLocation(file: input.name, line: reader.line,
                                                               column: mapper.indexes.account.map { $0 + 1 }))
                }
                continue
            }
            if seen.insert(number).inserted { order.append(number) }
        }
        return order
    }

    /// The profile's own number (or name), used when the file names none.
    private var fallbackNumber: String? { profile.account.number ?? profile.account.name }

    /// Emits one statement: `.begin`, the rows (of one account when `only` is set), the running balance, `.end`.
    /// `first` is the first statement of the file: rows without an account and the counts of skipped rows are
    /// reported there.
    private func statement(_ input: StatementInput, delimiter: UInt8, only: String?, first: Bool,
                           emit: (consuming StatementEvent) throws -> Void) throws {
        var opened = try open(input, delimiter: delimiter)
        let (reader, mapper) = (opened.reader, opened.mapper)
        let number = try only ?? fileAccountNumber(input, headerLine: opened.headerLine)
        var header = RawStatementHeader(account: profile.accountIdentity(number: number),
                                        location: SourceLocation(file: input.name, line: max(opened.headerLine, 1)))
        header.listsPending = profile.columns.status != nil
        let asOf = try fileAsOf(input, headerLine: opened.headerLine)
        header.asOf = asOf.date
        try emit(.begin(header))
        if first, let warning = asOf.warning { try emit(.warning(warning)) }
        var held: [(failure: CSVRowMapper.Failure, line: Int)] = []
        var warnedEncoding = false
        var running = RunningBalanceCheck()
        var firstBalance: (date: RawDate, balance: Decimal, line: Int)?
        var lastBalance: (date: RawDate, balance: Decimal, line: Int)?
        var ignored: (count: Int, line: Int) = (0, 0)
        var footerBalances: [RawBalance] = []
        var skipped: (count: Int, line: Int) = (0, 0)

        func badRow(_ failure: CSVRowMapper.Failure, line: Int) throws {
            let location = SourceLocation(file: input.name, line: line, column: failure.column)
            guard profile.skipBadRows else { throw CofferError(.badInput, failure.message, location: location) }
            try emit(.warning(ParseWarning("skipped the row: \(failure.message)", location: location, needsAttention: true)))
        }

        while try advance(&opened) {
            if reader.isBlank { continue }
            if mapper.rules.isIgnored(reader, text: { mapper.text(reader, $0) }) {
                if ignored.count == 0 { ignored.line = reader.line }
                ignored.count += 1
                continue
            }
            if let balance = mapper.footerBalance(reader) {
                footerBalances.append(balance)
                continue
            }
            var actions: [CSVProfile.Actions] = []
            if !mapper.rules.rules.isEmpty {
                let outcome = mapper.rules.evaluate { mapper.text(reader, $0) }
                if outcome.skip {
                    if skipped.count == 0 { skipped.line = reader.line }
                    skipped.count += 1
                    continue
                }
                actions = outcome.actions
            }
            if let only {
                let rowNumber = mapper.accountNumber(reader, actions: actions) ?? fallbackNumber
                guard rowNumber == only || (rowNumber == nil && first) else { continue }
            }
            switch Result(catching: { () throws(CSVRowMapper.Failure) in try mapper.map(reader, actions: actions) }) {
            case .success(let mapped):
                for (failure, line) in held { try badRow(failure, line: line) }
                held.removeAll()
                try emit(.transaction(mapped.transaction))
                if let fee = mapped.fee { try emit(.transaction(fee)) }
                if let balance = mapped.balance, let date = mapped.transaction.transactionDate {
                    if firstBalance == nil { firstBalance = (date, balance, reader.line) }
                    lastBalance = (date, balance, reader.line)
                    running.note(amount: Self.signed(mapped.transaction), fee: mapped.fee.map(Self.signed),
                                 balance: balance, line: reader.line)
                }
            case .failure(let failure):
                if failure.footerLike, held.count < Self.maxFooterRows {
                    held.append((failure, reader.line))
                } else {
                    for (heldFailure, line) in held { try badRow(heldFailure, line: line) }
                    held.removeAll()
                    try badRow(failure, line: reader.line)
                }
            }
            if !warnedEncoding, let line = mapper.invalidUTF8Line {
                warnedEncoding = true
                try emit(.warning(ParseWarning(
                    "the file is not valid UTF-8 as its profile says; read as Windows-1252 (first at line \(line))",
                    location: SourceLocation(file: input.name, line: line))))
            }
        }
        // What is still held came after the last data row: the footer.
        if first, ignored.count > 0 {
            try emit(.warning(ParseWarning("skipped \(ignored.count) row(s) that ignore_rows names",
                                           location: SourceLocation(file: input.name, line: ignored.line))))
        }
        if first, skipped.count > 0 {
            try emit(.warning(ParseWarning("skipped \(skipped.count) row(s) by the profile's rules",
                                           location: SourceLocation(file: input.name, line: skipped.line))))
        }
        if first, reader.nulPadding > 0, let padding = reader.paddingAtEnd {  // a lone Ctrl-Z is an old end-of-file mark
            try emit(.warning(ParseWarning(
                "the file ends in \(padding) byte\(padding == 1 ? "" : "s") of NUL padding after its last row, ignored: if it was "
                    + "downloaded, check that the download finished (a copy cut short and padded looks the same)",
                location: SourceLocation(file: input.name, line: reader.line), needsAttention: true)))
        }
        if only == nil || first {
            for balance in footerBalances { try emit(.balance(balance)) }
        }
        if let firstBalance, let lastBalance {
            // The newest row's running balance: files list oldest-first or newest-first.
            let oldestFirst = lastBalance.date.date >= firstBalance.date.date
            if let warning = running.warning(oldestFirst: oldestFirst, currency: profile.account.currency, file: input.name) {
                try emit(.warning(warning))
            }
            let latest = oldestFirst ? lastBalance : firstBalance
            try emit(.balance(RawBalance(kind: .booked, amount: latest.balance, currencyCode: profile.account.currency,
                                         asOf: latest.date, code: profile.columns.balance,
                                         location: SourceLocation(file: input.name, line: latest.line))))
        }
        try emit(.end)
    }

    /// A transaction's amount signed from the holder's side.
    static func signed(_ t: RawTransaction) -> Decimal {
        switch t.indicator {
        case .debit?: -t.amount
        case .credit?: t.amount
        case nil: t.amount
        }
    }

    /// The account number the file's name or preamble gives (`account.number_from`), nil when the profile takes
    /// it from neither; throws when it should and cannot, unless the profile has a number to fall back on.
    private func fileAccountNumber(_ input: StatementInput, headerLine: Int) throws -> String? {
        guard let source = profile.account.numberFrom, source.column == nil else { return nil }
        let pattern = source.fileName ?? source.preamble ?? ""
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        if source.fileName != nil {
            if let number = CSVProfile.NumberSource.number(in: input.fileName, regex: regex) { return number }
            if fallbackNumber != nil { return nil }
            throw CofferError(.badInput, "the file name '\(input.fileName)' does not match account.number_from.file_name "
                              + "'\(pattern)' of profile \(profile.id), so the account is unknown; rename the file or "
                              + "import it with another profile", location: SourceLocation(file: input.name))
        }
        for text in try preambleLines(input, headerLine: headerLine) {
            if let number = CSVProfile.NumberSource.number(in: text, regex: regex) { return number }
        }
        if fallbackNumber != nil { return nil }
        throw CofferError(.badInput, "no line before the header matches account.number_from.preamble '\(pattern)' of "
                          + "profile \(profile.id), so the account is unknown", location: SourceLocation(file: input.name, line: 1))
    }

    /// The lines before the header row, decoded as the profile says.
    private func preambleLines(_ input: StatementInput, headerLine: Int) throws -> [String] {
        let prefix = try input.prefix(CSVHeaderLocator.prefixSize)
        let lines = prefix.split(separator: 0x0A, omittingEmptySubsequences: false)
        return lines.prefix(max(headerLine - 1, 0)).enumerated().map { offset, line in
            var bytes = Array(line)
            if offset == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            if bytes.last == 0x0D { bytes.removeLast() }
            return profile.encoding.decode(bytes)
        }
    }

    /// The as-of date the file's name or preamble states (`as_of`), or a warning saying why there is none: the
    /// statement is then as of its latest row's day, as for a profile without `as_of`.
    private func fileAsOf(_ input: StatementInput, headerLine: Int) throws -> (date: RawDate?, warning: ParseWarning?) {
        guard let source = profile.asOf, let pattern = source.fileName ?? source.preamble,
              let regex = try? NSRegularExpression(pattern: pattern) else { return (nil, nil) }
        let formats = [source.dateFormat ?? profile.dateFormat, "yyyy-MM-dd"].compactMap { try? CSVDateFormat($0) }
        let texts = source.fileName != nil ? [input.fileName] : try preambleLines(input, headerLine: headerLine)
        let place = source.fileName != nil ? "the file name '\(input.fileName)'" : "no line before the header"
        for text in texts {
            guard let dateText = CSVProfile.capture("date", in: text, regex: regex) else { continue }
            if let date = formats.lazy.compactMap({ $0.parse(dateText) }).first { return (date, nil) }
            return (nil, ParseWarning("'\(dateText)' in \(source.fileName != nil ? "the file name" : "the preamble") is "
                                      + "not a date in \(formats.map(\.pattern).joined(separator: " or ")) (as_of of "
                                      + "profile \(profile.id)): the statement is taken as of its latest row's day",
                                      location: SourceLocation(file: input.name)))
        }
        let verb = source.fileName != nil ? "does not match" : "matches"
        return (nil, ParseWarning("\(place) \(verb) as_of.\(source.fileName != nil ? "file_name" : "preamble") '\(pattern)' "
                                  + "of profile \(profile.id): the statement is taken as of its latest row's day",
                                  location: SourceLocation(file: input.name)))
    }

    /// The delimiter to read with, after refusing empty, binary and UTF-16 input.
    private func checkedDelimiter(_ input: StatementInput) throws -> UInt8 {
        var prefix = try input.prefix(CSVHeaderLocator.prefixSize)
        let start = SourceLocation(file: input.name, line: 1, column: 1)
        // NUL padding that runs to the end of what was read is left to the reader (`CSVRecordReader.paddingAtEnd`).
        prefix = CSVHeaderLocator.withoutPadding(prefix)
        if let nul = prefix.firstIndex(of: 0) {
            let line = prefix[..<nul].reduce(1) { $1 == 0x0A ? $0 &+ 1 : $0 }
            throw CofferError(.badInput, "found a NUL byte: this is binary data, not a CSV text file",
                              location: SourceLocation(file: input.name, line: line))
        }
        let body = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(prefix.dropFirst(3)) : prefix
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw CofferError(.badInput, "the file is empty; expected a header row with \(expectedNames)", location: start)
        }
        guard let delimiter = CSVHeaderLocator.detectDelimiter(prefix: prefix, profile: profile) else {
            throw noHeader(input)
        }
        return delimiter
    }

    private var expectedNames: String {
        (profile.match.header ?? profile.columns.all.map(\.name)).map { "'\($0)'" }.joined(separator: ", ")
    }

    private func noHeader(_ input: StatementInput) -> CofferError {
        CofferError(.badInput, "no header row with \(expectedNames) in the first \(CSVHeaderLocator.maxHeaderLine) "
                    + "lines: not a \(profile.institution) export (profile \(profile.id))",
                    location: SourceLocation(file: input.name, line: 1))
    }
}
