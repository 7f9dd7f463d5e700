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
public struct CSVStatementParser: StatementParser {
    public let profile: CSVProfile
    let dateFormat: CSVDateFormat
    /// Rows after the data that may be a footer before they count as bad rows.
    static let maxFooterRows = 20

    public init(profile: CSVProfile) throws {
        self.profile = profile
        do { dateFormat = try CSVDateFormat(profile.dateFormat) } catch {
            throw CofferError(.badConfiguration, "profile \(profile.id): key 'date_format': \(error.description)")
        }
    }

    public func parse(_ input: StatementInput, emit: (StatementEvent) throws -> Void) throws {
        let delimiter = try checkedDelimiter(input)
        let reader = try CSVRecordReader(input: input, delimiter: delimiter)
        let signature = profile.headerSignature
        var header: (line: Int, names: [String], normalized: [String])?
        while header == nil, try reader.next() {
            if reader.line > CSVHeaderLocator.maxHeaderLine { break }
            let normalized = CSVHeaderLocator.normalizedCells(reader, encoding: profile.encoding)
            if CSVHeaderLocator.matches(normalized, signature: signature) {
                let names = (0..<reader.fieldCount).map { i in
                    reader.withField(i) { profile.encoding.decode($0).trimmingCharacters(in: .whitespaces) }
                }
                header = (reader.line, names, normalized)
            }
        }
        guard let header else { throw noHeader(input) }
        let mapper = try CSVRowMapper(profile: profile, dateFormat: dateFormat, header: header.names,
                                      normalizedHeader: header.normalized, fileName: input.name, headerLine: header.line)
        try emit(.begin(RawStatementHeader(account: profile.accountIdentity,
                                           location: SourceLocation(file: input.name, line: header.line))))
        var held: [(failure: CSVRowMapper.Failure, line: Int)] = []
        var warnedEncoding = false
        var first: (date: RawDate, balance: Decimal, line: Int)?
        var last: (date: RawDate, balance: Decimal, line: Int)?

        func badRow(_ failure: CSVRowMapper.Failure, line: Int) throws {
            let location = SourceLocation(file: input.name, line: line, column: failure.column)
            guard profile.skipBadRows else { throw CofferError(.badInput, failure.message, location: location) }
            try emit(.warning(ParseWarning("skipped the row: \(failure.message)", location: location)))
        }

        while try reader.next() {
            if reader.isBlank { continue }
            switch Result(catching: { () throws(CSVRowMapper.Failure) in try mapper.map(reader) }) {
            case .success(let (transaction, balance)):
                for (failure, line) in held { try badRow(failure, line: line) }
                held.removeAll()
                try emit(.transaction(transaction))
                if let balance, let date = transaction.transactionDate {
                    if first == nil { first = (date, balance, reader.line) }
                    last = (date, balance, reader.line)
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
        if let first, let last {
            // The newest row's running balance: files list oldest-first or newest-first.
            let latest = last.date.date >= first.date.date ? last : first
            try emit(.balance(RawBalance(kind: .booked, amount: latest.balance, currencyCode: profile.account.currency,
                                         asOf: latest.date, code: profile.columns.balance,
                                         location: SourceLocation(file: input.name, line: latest.line))))
        }
        try emit(.end)
    }

    /// The delimiter to read with, after refusing empty, binary and UTF-16 input.
    private func checkedDelimiter(_ input: StatementInput) throws -> UInt8 {
        let prefix = try input.prefix(CSVHeaderLocator.prefixSize)
        let start = SourceLocation(file: input.name, line: 1, column: 1)
        if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) {
            throw CofferError(.badInput, "the file is UTF-16 text; expected UTF-8, Windows-1252 or Latin-1 "
                              + "(export it again as plain CSV)", location: start)
        }
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
