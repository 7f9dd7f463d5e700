import CofferModel
import Foundation

/// Turns one CSV record into a `RawTransaction` under a profile, or says which cell is wrong and why.
///
/// For example, under Chase's profile the row `DEBIT,03/02/2026,"SQ *BLUE BOTTLE",-4.50,DEBIT_CARD,1234.56,,`
/// becomes a transaction of -4.50 on 2026-03-02 named `SQ *BLUE BOTTLE` with type code `DEBIT_CARD`.
final class CSVRowMapper {
    /// Why a row is not a transaction; `footerLike` when it may be a summary line after the data.
    struct Failure: Error {
        var message: String
        var column: Int
        var footerLike: Bool
    }

    struct Indexes {
        var date: Int
        var postedDate, amount, debit, credit, indicator, status, currency, category, mcc, type,
            id, balance, checkNumber, foreignAmount, foreignCurrency, fee, account: Int?
    }

    /// A text column: one cell, or a template of cells and literal text.
    enum TextSource {
        case cell(Int)
        case template([TemplatePart])
    }

    enum TemplatePart {
        case literal(String)
        case cell(Int)
    }

    /// A row's transaction, the fee as a transaction of its own (`fee: separate`), and the balance cell.
    struct Mapped {
        var transaction: RawTransaction
        var fee: RawTransaction?
        var balance: Decimal?
    }

    let profile: CSVProfile
    let indexes: Indexes
    let description: TextSource
    let memo: TextSource?
    let merchant: TextSource?
    let headerNames: [String]
    let dateFormat: CSVDateFormat
    let decimalMark: Character
    let thousands: Character?
    let statusMap: [String: TransactionStatus]
    let typeMap: [String: TransactionType]
    let debitValues: Set<String>
    let creditValues: Set<String>
    let footerMarkers: Set<String>
    let rules: CSVRowRules
    let fileName: String
    /// The first line where a cell under a UTF-8 profile was not valid UTF-8 (read as Windows-1252 instead).
    private(set) var invalidUTF8Line: Int?

    /// `header` holds the header row's names; for a file without a header, `column 1`, `column 2`, … as many as
    /// its first row has cells.
    init(profile: CSVProfile, dateFormat: CSVDateFormat, header: [String], normalizedHeader: [String],
         fileName: String, headerLine: Int) throws {
        let columnIndex = try CSVRowMapper.resolver(profile: profile, header: header, normalizedHeader: normalizedHeader,
                                                    fileName: fileName, headerLine: headerLine)
        func index(_ name: String?) throws -> Int? { try name.map(columnIndex) }
        func text(_ value: String?) throws -> TextSource? {
            guard let value else { return nil }
            guard let template = CSVTemplate(value) else { return .cell(try columnIndex(value)) }
            return .template(try template.parts.map { part in
                switch part {
                case .literal(let text): .literal(text)
                case .column(let name): .cell(try columnIndex(name))
                }
            })
        }
        let c = profile.columns
        indexes = Indexes(
            date: try columnIndex(c.date), postedDate: try index(c.postedDate),
            amount: try index(c.amount), debit: try index(c.debit), credit: try index(c.credit),
            indicator: try index(c.indicator), status: try index(c.status), currency: try index(c.currency),
            category: try index(c.category), mcc: try index(c.mcc), type: try index(c.type), id: try index(c.id),
            balance: try index(c.balance), checkNumber: try index(c.checkNumber),
            foreignAmount: try index(c.foreignAmount), foreignCurrency: try index(c.foreignCurrency),
            fee: try index(c.fee), account: try index(profile.account.numberFrom?.column))
        description = try text(c.description) ?? .cell(0)
        memo = try text(c.memo)
        merchant = try text(c.merchant)
        rules = try CSVRowRules(profile: profile, columnIndex: columnIndex)
        self.profile = profile
        self.headerNames = header
        self.dateFormat = dateFormat
        self.fileName = fileName
        decimalMark = profile.decimalMark.first ?? "."
        thousands = profile.thousandsSeparator.first
        func key(_ text: String) -> String { CSVProfile.normalizedName(text) }
        // Keyed by the value as written and normalized, so the common exact spelling skips normalizing.
        statusMap = Dictionary(profile.statusValues.flatMap { k, v in
            TransactionStatus(name: v).map { [(k, $0), (key(k), $0)] } ?? []
        }, uniquingKeysWith: { a, _ in a })
        typeMap = Dictionary(profile.typeValues.flatMap { k, v in
            TransactionType(name: v).map { [(k, $0), (key(k), $0)] } ?? []
        }, uniquingKeysWith: { a, _ in a })
        debitValues = Set((profile.indicatorValues?.debit ?? []).map(key))
        creditValues = Set((profile.indicatorValues?.credit ?? []).map(key))
        footerMarkers = Set(profile.footerMarkers.map(key))
    }

    /// How a column name (or, without a header, a 1-based position) becomes a cell index.
    static func resolver(profile: CSVProfile, header: [String], normalizedHeader: [String], fileName: String,
                         headerLine: Int) throws -> (String) throws -> Int {
        let location = SourceLocation(file: fileName, line: headerLine)
        if profile.header == .none {
            return { name in
                guard let position = Int(name), position >= 1 else {
                    throw CofferError(.badConfiguration, "profile \(profile.id): '\(name)' is not a column position")
                }
                guard position <= header.count else {
                    throw CofferError(.badInput, "profile \(profile.id) reads column \(position), but the first row has "
                                      + "\(header.count) cells", location: location)
                }
                return position - 1
            }
        }
        return { name in
            guard let found = normalizedHeader.firstIndex(of: CSVProfile.normalizedName(name)) else {
                throw CofferError(.badInput, "the header row has no column '\(name)' (profile \(profile.id))", location: location)
            }
            return found
        }
    }

    /// The account number a row names (its `number_from` column, or a rule's `set: {account:}`); nil when none.
    func accountNumber(_ r: CSVRecordReader, actions: [CSVProfile.Actions]) -> String? {
        if let number = actions.last(where: { $0.account != nil })?.account { return number }
        return indexes.account.flatMap { text(r, $0) }
    }

    /// The transaction in the reader's current record, and the balance cell when the profile has one.
    func map(_ r: CSVRecordReader, actions: [CSVProfile.Actions] = []) throws(Failure) -> Mapped {
        let ix = indexes
        let headerCount = headerNames.count
        if !footerMarkers.isEmpty {
            for index in 0..<r.fieldCount {
                if let cell = text(r, index), footerMarkers.contains(CSVProfile.normalizedName(cell)) {
                    throw Failure(message: "a summary row ('\(cell)') comes before data rows; summary rows belong after the last one",
                                  column: index + 1, footerLike: true)
                }
            }
        }
        guard let date = r.withField(ix.date, { dateFormat.parse(bytes: $0) }) else {
            let cell = text(r, ix.date) ?? ""
            let letters = cell.contains { $0.isLetter }
            let footerLike = r.fieldCount < headerCount || cell.isEmpty || !cell.contains { $0.isNumber }
                || (letters && !dateFormat.usesMonthNames)
            throw Failure(message: "expected a date like \(dateFormat.pattern) in '\(headerNames[ix.date])', found '\(cell)'",
                          column: ix.date + 1, footerLike: footerLike)
        }
        if r.fieldCount < headerCount {
            throw Failure(message: "the row has \(r.fieldCount) cells but the header has \(headerCount) (truncated row?)",
                          column: r.fieldCount + 1, footerLike: false)
        }
        if r.fieldCount > headerCount {
            for extra in headerCount..<r.fieldCount where r.withField(extra, { !$0.allSatisfy { $0 == 0x20 } }) {
                throw Failure(message: "the row has \(r.fieldCount) cells but the header has \(headerCount) "
                              + "(an unquoted delimiter inside a cell?)", column: extra + 1, footerLike: false)
            }
        }
        var postedDate: RawDate?
        if let index = ix.postedDate, let cell = text(r, index) {
            guard let parsed = dateFormat.parse(cell) else {
                throw Failure(message: "expected a date like \(dateFormat.pattern) in '\(headerNames[index])', found '\(cell)'",
                              column: index + 1, footerLike: false)
            }
            postedDate = parsed
        }
        var (amount, indicator) = try signedAmount(r)
        var balance: Decimal?
        if let index = ix.balance { balance = try decimal(r, index, required: false) }
        if profile.sign == .debitPositive, ix.indicator == nil, let value = balance { balance = -value }
        var feeAmount: Decimal?
        var formerAmount: (Decimal, CreditDebitIndicator?)?
        if let index = ix.fee, let fee = try decimal(r, index, required: false), fee != 0 {
            feeAmount = abs(fee)
            if profile.fee == .net {
                // The fee is money out on top of the amount: net = signed amount − fee. Versions before fee
                // columns stored the amount alone: `formerAmount` lets the import find and correct that row.
                formerAmount = (amount, indicator)
                let signed = (indicator == .debit ? -amount : amount) - abs(fee)
                if indicator != nil { indicator = signed < 0 ? .debit : .credit; amount = abs(signed) } else { amount = signed }
                feeAmount = nil
            }
        }
        let currency = ix.currency.flatMap { text(r, $0)?.uppercased() } ?? profile.account.currency
        var transaction = RawTransaction(
            location: SourceLocation(file: fileName, line: r.line), amount: amount, indicator: indicator,
            currencyCode: currency, transactionDate: date, postedDate: postedDate, name: text(r, description))
        transaction.externalID = ix.id.flatMap { text(r, $0) }
        transaction.memo = memo.flatMap { text(r, $0) }
        transaction.merchantName = merchant.flatMap { text(r, $0) }
        transaction.category = ix.category.flatMap { text(r, $0) }
        transaction.checkNumber = ix.checkNumber.flatMap { text(r, $0) }
        if let code = ix.type.flatMap({ text(r, $0) }) {
            transaction.typeCode = code
            transaction.transactionType = typeMap[code] ?? typeMap[CSVProfile.normalizedName(code)]
        }
        if let status = ix.status.flatMap({ text(r, $0) }) {
            transaction.status = statusMap[status] ?? statusMap[CSVProfile.normalizedName(status)]
                ?? TransactionStatus(name: status)
        }
        if let mcc = ix.mcc.flatMap({ text(r, $0) }) {
            transaction.merchantCategoryCode = MerchantCategoryCode(mcc)
        }
        if let index = ix.foreignAmount, let foreign = try decimal(r, index, required: false) {
            let foreignCurrency = ix.foreignCurrency.flatMap { text(r, $0)?.uppercased() }
            if foreignCurrency != currency {
                transaction.foreignAmount = abs(foreign)
                transaction.foreignCurrencyCode = foreignCurrency
            }
        }
        transaction.formerAmount = formerAmount
        for action in actions { CSVRowRules.apply(action, to: &transaction) }
        var fee: RawTransaction?
        if let feeAmount {
            fee = RawTransaction(location: transaction.location, amount: -feeAmount, currencyCode: currency,
                                 transactionDate: date, postedDate: postedDate,
                                 name: "Fee: " + (transaction.name ?? transaction.merchantName ?? "transaction"),
                                 typeCode: "FEE", transactionType: .fee, status: transaction.status)
            fee?.externalID = transaction.externalID.map { $0 + "/fee" }
        }
        return Mapped(transaction: transaction, fee: fee, balance: balance)
    }

    /// A text column's value: the cell, or the template with its cells filled in (an empty cell leaves no double
    /// space); nil when empty.
    func text(_ r: CSVRecordReader, _ source: TextSource) -> String? {
        switch source {
        case .cell(let index): return text(r, index)
        case .template(let parts):
            var out = ""
            for part in parts {
                switch part {
                case .literal(let literal): out += literal
                case .cell(let index): out += text(r, index) ?? ""
                }
            }
            let words = out.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.isEmpty ? nil : words.joined(separator: " ")
        }
    }

    /// The row's amount under the profile's amount form: signed from the holder's side, or a magnitude with its
    /// indicator.
    func signedAmount(_ r: CSVRecordReader) throws(Failure) -> (Decimal, CreditDebitIndicator?) {
        let ix = indexes
        var amount: Decimal
        var indicator: CreditDebitIndicator?
        if let index = ix.amount {
            amount = try decimal(r, index, required: true) ?? 0
            if let flagIndex = ix.indicator {
                let flag = CSVProfile.normalizedName(text(r, flagIndex) ?? "")
                if debitValues.contains(flag) { indicator = .debit } else if creditValues.contains(flag) { indicator = .credit } else {
                    let expected = (profile.indicatorValues.map { $0.debit + $0.credit } ?? []).joined(separator: ", ")
                    throw Failure(message: "expected one of \(expected) in '\(headerNames[flagIndex])', found '\(flag)'",
                                  column: flagIndex + 1, footerLike: false)
                }
                amount = abs(amount)
            } else if profile.sign == .debitPositive {
                amount = -amount
            }
        } else {
            var debit: Decimal?
            var credit: Decimal?
            if let index = ix.debit { debit = try decimal(r, index, required: false) }
            if let index = ix.credit { credit = try decimal(r, index, required: false) }
            guard debit != nil || credit != nil else {
                throw Failure(message: "expected an amount in '\(headerNames[ix.debit ?? 0])' or '\(headerNames[ix.credit ?? 0])', both are empty",
                              column: (ix.debit ?? 0) + 1, footerLike: false)
            }
            amount = abs(credit ?? 0) - abs(debit ?? 0)
        }
        return (amount, indicator)
    }

    /// A footer row that states a balance (`footer_balances`): its date and amount as the account's booked
    /// balance; nil for any other row.
    func footerBalance(_ r: CSVRecordReader) -> RawBalance? {
        guard let words = profile.footerBalances else { return nil }
        let opening = words.opening.map(CSVProfile.normalizedName)
        let closing = words.closing.map(CSVProfile.normalizedName)
        var isOpening: Bool?
        for index in 0..<r.fieldCount {
            guard let cell = text(r, index) else { continue }
            let word = CSVProfile.normalizedName(cell)
            if word == opening { isOpening = true; break }
            if word == closing { isOpening = false; break }
        }
        guard let isOpening, let date = r.withField(indexes.date, { dateFormat.parse(bytes: $0) }),
              let (amount, indicator) = try? signedAmount(r) else { return nil }
        // An opening balance is before its day's bookings: as of the end of the day before.
        let asOf = isOpening ? RawDate(date: date.date.addingTimeInterval(-86_400), isDateOnly: date.isDateOnly, utcOffset: date.utcOffset) : date
        return RawBalance(kind: .booked, amount: amount, indicator: indicator, currencyCode: profile.account.currency,
                          asOf: asOf, code: isOpening ? words.opening : words.closing,
                          location: SourceLocation(file: fileName, line: r.line))
    }

    /// The cell's amount; nil for an empty cell unless `required`.
    private func decimal(_ r: CSVRecordReader, _ index: Int, required: Bool) throws(Failure) -> Decimal? {
        let fast = r.withField(index) {
            AmountText.fastParse($0, decimalMark: decimalMark.asciiValue ?? 0x2E, thousands: thousands.map { $0.asciiValue ?? 0xFF })
        }
        if let fast { return fast }
        guard let cell = text(r, index) else {
            if !required { return nil }
            throw Failure(message: "expected an amount in '\(headerNames[index])', found an empty cell",
                          column: index + 1, footerLike: false)
        }
        guard let value = AmountText.parse(cell, decimalMark: decimalMark, thousandsSeparator: thousands) else {
            let example = decimalMark == "," ? "-1.234,56" : "-1,234.56"
            throw Failure(message: "expected an amount like \(example) in '\(headerNames[index])', found '\(cell)'",
                          column: index + 1, footerLike: false)
        }
        return value
    }

    /// The cell as text without surrounding spaces; nil when empty or missing.
    func text(_ r: CSVRecordReader, _ index: Int) -> String? {
        r.withField(index) { bytes -> String? in
            var start = 0
            var end = bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            guard start < end else { return nil }
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if !r.hasHighBytes || !slice.contains(where: { $0 >= 0x80 }) { return String(decoding: slice, as: UTF8.self) }
            if let text = String(validating: slice, as: UTF8.self) { return text }
            if profile.encoding == .utf8, invalidUTF8Line == nil { invalidUTF8Line = r.line }
            return Self.transcode(slice)
        }
    }

    /// Windows-1252 bytes (or Latin-1, read the same way: `TextEncoding.init(label:)`) as a String, through UTF-8
    /// bytes: the same text as `TextEncoding.decode`, several times faster than building it scalar by scalar.
    static func transcode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for b in bytes {
            if b < 0x80 { utf8.append(b); continue }
            let scalar = TextEncoding.cp1252Scalar(b)
            utf8.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
