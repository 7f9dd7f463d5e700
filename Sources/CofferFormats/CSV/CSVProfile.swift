import CofferModel
import Foundation

/// How one institution writes its CSV export: how to recognise it, read it, and which column means what.
///
/// Profiles live in `config/profiles/*.yaml`, one file per layout. For example:
/// ```yaml
/// id: apple-card
/// institution: Apple Card
/// match:
///   header: [Transaction Date, Clearing Date, Description, Merchant, Amount (USD), Purchased By]
///   file_name: "*Apple Card*.csv"
/// date_format: MM/dd/yyyy
/// sign: debit_positive            # purchases are positive on a card export
/// columns: { date: Transaction Date, posted_date: Clearing Date, description: Description,
///            merchant: Merchant, category: Category, type: Type, amount: Amount (USD) }
/// type_values: { Purchase: pointOfSale, Payment: billPayment }
/// account: { number: "Apple Card", kind: liability, currency: USD }
/// ```
/// `CSVProfileSet.load(directory:)` reads and checks them; a mistake throws `.badConfiguration` naming the file
/// and the key. Header names compare ignoring case and runs of spaces.
package struct CSVProfile: Codable, Sendable, Hashable {
    /// The profile's name for `--profile` and the import ledger: `apple-card`.
    package var id: String
    /// The institution's display name.
    package var institution: String
    package var match: Match
    /// `utf-8` (a byte order mark is skipped), `cp1252` or `latin-1`, read directly (valid UTF-8 is read as UTF-8
    /// whatever this says); `utf-8` too when `iconvEncoding` converts the file first.
    package var encoding: TextEncoding
    /// Any other encoding iconv knows (`cp1250`, `ISO-8859-15`, `MACINTOSH`): the file is converted to UTF-8 first.
    package var iconvEncoding: String?
    package var delimiter: Delimiter
    package var decimalMark: String
    /// Empty when the export never groups thousands.
    package var thousandsSeparator: String
    package var dateFormat: String
    package var sign: SignConvention
    package var columns: Columns
    /// For an amount plus an indicator column: which cell values mean debit and which credit.
    package var indicatorValues: IndicatorValues?
    /// Status cell value → status name (`Pending: pending`). Values are matched ignoring case.
    package var statusValues: [String: String]
    /// Type cell value → `TransactionType` case name (`Purchase: pointOfSale`). Matched ignoring case.
    package var typeValues: [String: String]
    package var account: AccountSpec
    /// Cell values that mark a summary row after the data (`Anfangssaldo`, `Endsaldo`) even though its date
    /// parses. Such rows, like rows that are not data at all, are only allowed after the last data row.
    package var footerMarkers: [String]
    /// When true, a row with a bad date or amount is reported as a warning and skipped instead of failing the file.
    package var skipBadRows: Bool
    /// Whether the file has a header row (`names`, found by `match.header`) or none (`none`: columns are given by
    /// their 1-based position, `date: 1`).
    package var header: HeaderMode
    /// Regular expressions over a row's cells joined by the delimiter: matching rows between data rows (banners,
    /// subtotals, "Pending transactions") are skipped and counted instead of failing the file.
    package var ignoreRows: [String]
    /// Per-row rules, applied in order: conditions on cells, actions that skip the row or set a value.
    package var rules: [Rule]
    /// Summary rows that state balances (`Anfangssaldo`, `Endsaldo`): read as the account's booked balances.
    package var footerBalances: FooterBalances?
    /// Where a file says when it was made (its statement's as-of date, docs/dedupe.md): without it, a file's as-of
    /// date is its latest row's day.
    package var asOf: AsOfSource?

    /// Where a file states its as-of date: exactly one of `fileName` and `preamble`, regular expressions anchored
    /// at the start with a group named `date` (`^Umsaetze_\d+_(?<date>\d{4}-\d{2}-\d{2})`), read with
    /// `dateFormat` (default: the profile's `date_format`, then `yyyy-MM-dd`).
    package struct AsOfSource: Codable, Sendable, Hashable {
        package var fileName: String?
        /// Matched against each line before the header, as written (quotes and delimiters included).
        package var preamble: String?
        package var dateFormat: String?

        package init(fileName: String? = nil, preamble: String? = nil, dateFormat: String? = nil) {
            self.fileName = fileName
            self.preamble = preamble
            self.dateFormat = dateFormat
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case fileName = "file_name", preamble, dateFormat = "date_format"
        }
    }

    /// The words that mark an opening and a closing balance row; the row's date and amount columns give the
    /// balance. An opening balance is the balance before its day's bookings: it is dated the day before.
    package struct FooterBalances: Codable, Sendable, Hashable {
        package var opening: String?
        package var closing: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case opening, closing }
    }
    /// With a `fee` column: `net` subtracts the fee from the amount; `separate` adds a second transaction of type
    /// fee.
    package var fee: FeeMode

    package enum HeaderMode: String, Codable, Sendable, Hashable, CaseIterable {
        case names, none
    }

    package enum FeeMode: String, Codable, Sendable, Hashable, CaseIterable {
        case net, separate
    }

    /// How a file of this layout is recognised: every header name present, and/or the file name matching a glob.
    package struct Match: Codable, Sendable, Hashable {
        package var header: [String]?
        package var fileName: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case header, fileName = "file_name" }
    }

    /// The field separator, or `auto` to pick the one that makes the header's names appear.
    package enum Delimiter: String, Codable, Sendable, Hashable, CaseIterable {
        case comma = ",", semicolon = ";", tab = "\t", pipe = "|", auto

        /// The byte, nil for `auto`.
        package var byte: UInt8? {
            switch self {
            case .comma: UInt8(ascii: ","); case .semicolon: UInt8(ascii: ";"); case .tab: 0x09
            case .pipe: UInt8(ascii: "|"); case .auto: nil
            }
        }

        init?(label: String) {
            switch label.lowercased() {
            case ",", "comma": self = .comma
            case ";", "semicolon": self = .semicolon
            case "\t", "tab", "\\t": self = .tab
            case "|", "pipe": self = .pipe
            case "auto": self = .auto
            default: return nil
            }
        }
    }

    /// Which sign a debit has in the amount column(s).
    package enum SignConvention: String, Codable, Sendable, Hashable, CaseIterable {
        /// Money in is positive, money out negative (bank accounts).
        case creditPositive = "credit_positive"
        /// A purchase is positive and a payment negative (most card exports).
        case debitPositive = "debit_positive"
    }

    /// Header names of the columns the profile reads. `date`, `description` and an amount form are required:
    /// `amount` (signed), or `debit` and `credit`, or `amount` with `indicator`.
    package struct Columns: Codable, Sendable, Hashable {
        package var date: String
        package var postedDate: String?
        package var description: String
        package var memo: String?
        package var merchant: String?
        package var amount: String?
        package var debit: String?
        package var credit: String?
        package var indicator: String?
        package var status: String?
        package var currency: String?
        package var category: String?
        package var mcc: String?
        package var type: String?
        package var id: String?
        package var balance: String?
        package var checkNumber: String?
        package var foreignAmount: String?
        package var foreignCurrency: String?
        /// A fee charged with the transaction, in the account's currency (see `CSVProfile.fee`).
        package var fee: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case date, postedDate = "posted_date", description, memo, merchant, amount, debit, credit, indicator
            case status, currency, category, mcc, type, id, balance, checkNumber = "check_number"
            case foreignAmount = "foreign_amount", foreignCurrency = "foreign_currency", fee
        }

        /// Every (key, value) pair the profile uses; a value is a header name, a 1-based position (`header:
        /// none`), or, for description, memo and merchant, a template of them (`"{Type} {Reference}"`).
        package var all: [(key: String, name: String)] {
            let pairs: [(CodingKeys, String?)] = [
                (.date, date), (.postedDate, postedDate), (.description, description), (.memo, memo),
                (.merchant, merchant), (.amount, amount), (.debit, debit), (.credit, credit),
                (.indicator, indicator), (.status, status), (.currency, currency), (.category, category),
                (.mcc, mcc), (.type, type), (.id, id), (.balance, balance), (.checkNumber, checkNumber),
                (.foreignAmount, foreignAmount), (.foreignCurrency, foreignCurrency), (.fee, fee),
            ]
            return pairs.compactMap { key, name in name.map { (key.rawValue, $0) } }
        }

        /// Every column the profile reads, templates expanded: (key, column name or position).
        package var referenced: [(key: String, name: String)] {
            all.flatMap { key, value in
                CSVTemplate(value).map { template in template.columns.map { (key, $0) } } ?? [(key, value)]
            }
        }
    }

    /// Indicator cell values meaning debit and credit (`DR`/`CR`, `S`/`H`, `Debit`/`Credit`).
    package struct IndicatorValues: Codable, Sendable, Hashable {
        package var debit: [String]
        package var credit: [String]
        enum CodingKeys: String, CodingKey, CaseIterable { case debit, credit }
    }

    /// The account the rows belong to.
    package struct AccountSpec: Codable, Sendable, Hashable {
        /// Defaults to the profile's `institution`.
        package var institution: String?
        /// The institution's own identifier (a BIC, a routing number), when known.
        package var institutionID: String?
        /// The account number or IBAN; or a stable name when the export has no number (`name`). With
        /// `numberFrom`, the number used when the file does not give one.
        package var number: String?
        package var name: String?
        /// Where the file itself says the number: a column, the file name, or a preamble line.
        package var numberFrom: NumberSource?
        /// The number shows only some digits (`XXXX-XXXXXX-71004`): it identifies the account only together with
        /// the institution. Numbers under 8 characters are treated so whatever this says.
        package var masked: Bool
        /// The fixed number this profile named before it took the number from the file: the account stored under
        /// it (every file of the layout landed there) is adopted by the first account a file names.
        package var formerNumber: String?
        package var kind: AccountKind
        package var currency: String
        package var displayName: String?
        /// The institution's word for the account (`CHECKING`, `CREDITCARD`).
        package var type: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case institution, institutionID = "institution_id", number, name, numberFrom = "number_from", masked
            case formerNumber = "former_number", kind, currency, displayName = "display_name", type
        }
    }

    /// Where a file says its account number: exactly one of the three. `fileName` and `preamble` are regular
    /// expressions anchored at the start, with a group named `number`: `^Chase(?<number>\d{4})_`.
    package struct NumberSource: Codable, Sendable, Hashable {
        /// A column holding each row's account number (`Card No.`): rows are grouped by account over the file.
        package var column: String?
        /// Matched against the file's name.
        package var fileName: String?
        /// Matched against each line before the header, as written (quotes and delimiters included).
        package var preamble: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case column, fileName = "file_name", preamble }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, institution, match, encoding, delimiter, decimalMark = "decimal_mark"
        case thousandsSeparator = "thousands_separator", dateFormat = "date_format", sign, columns
        case indicatorValues = "indicator_values", statusValues = "status_values", typeValues = "type_values"
        case account, footerMarkers = "footer_markers", skipBadRows = "skip_bad_rows"
        case header, ignoreRows = "ignore_rows", rules, fee, footerBalances = "footer_balances", asOf = "as_of"
    }

    /// Memberwise, for profiles made in code (`coffer profile draft`, tests).
    package init(id: String, institution: String, match: Match, encoding: TextEncoding = .utf8,
                iconvEncoding: String? = nil, delimiter: Delimiter = .auto, decimalMark: String = ".",
                thousandsSeparator: String = ",", dateFormat: String, sign: SignConvention = .creditPositive,
                columns: Columns, indicatorValues: IndicatorValues? = nil, statusValues: [String: String] = [:],
                typeValues: [String: String] = [:], account: AccountSpec, footerMarkers: [String] = [],
                skipBadRows: Bool = false, header: HeaderMode = .names, ignoreRows: [String] = [], rules: [Rule] = [],
                fee: FeeMode = .net, footerBalances: FooterBalances? = nil, asOf: AsOfSource? = nil) {
        self.id = id
        self.institution = institution
        self.match = match
        self.encoding = encoding
        self.iconvEncoding = iconvEncoding
        self.delimiter = delimiter
        self.decimalMark = decimalMark
        self.thousandsSeparator = thousandsSeparator
        self.dateFormat = dateFormat
        self.sign = sign
        self.columns = columns
        self.indicatorValues = indicatorValues
        self.statusValues = statusValues
        self.typeValues = typeValues
        self.account = account
        self.footerMarkers = footerMarkers
        self.skipBadRows = skipBadRows
        self.header = header
        self.ignoreRows = ignoreRows
        self.rules = rules
        self.fee = fee
        self.footerBalances = footerBalances
        self.asOf = asOf
    }

    /// The account identity `.begin` carries, for `number` (the file's own, else the profile's).
    package func accountIdentity(number fileNumber: String? = nil) -> RawAccountIdentity {
        var identity = RawAccountIdentity(
            institutionName: account.institution ?? institution, institutionID: account.institutionID,
            accountNumber: fileNumber ?? account.number ?? account.name, accountType: account.type,
            kind: account.kind, currencyCode: account.currency,
            displayName: fileNumber.map { number in
                let digits = number.filter { $0.isLetter || $0.isNumber }
                return (account.displayName ?? account.name ?? account.institution ?? institution) + " ••••" + digits.suffix(4)
            } ?? account.displayName ?? account.name)
        identity.isMasked = account.masked
        if fileNumber != nil { identity.formerNumber = account.formerNumber }
        return identity
    }

    /// The account identity when the file names none (the profile's own number or name).
    package var accountIdentity: RawAccountIdentity { accountIdentity() }
}
