import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// A parsed transaction with everything that does not need the store worked out: its normalized `Transaction`
/// (with a placeholder account id until the statement's account is resolved), its fingerprint and its encoded
/// amounts. Made on the import's parsing thread (see `ImportPipe`).
struct PreparedTransaction: Sendable {
    var raw: RawTransaction
    var transaction: Transaction
    var fingerprint: Fingerprint
    var amounts: EncodedAmounts
}

/// What flows from the parsing thread to the writing thread: the parser's events, transactions prepared.
enum PreparedEvent: Sendable {
    case begin(RawStatementHeader)
    case transaction(PreparedTransaction)
    case balance(RawBalance)
    case end
    case warning(ParseWarning)
}

/// The normalize stage: raw transaction → normalized `Transaction`, fingerprint and encoded amounts.
///
/// It assumes the currency the statement header names for its account when a transaction names none; the
/// writing side checks the assumption against the stored account and prepares again in the rare case it differs.
struct TransactionPreparer {
    let normalizer: DescriptionNormalizer
    private var headerCurrency: String?
    private var random = FastRandom()
    /// One clock reading per 10,000 transactions is enough for the time-ordered ids' millisecond part.
    private var now = Date()
    private var count = 0
    static let placeholderAccount = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    init(normalizer: DescriptionNormalizer) {
        self.normalizer = normalizer
    }

    mutating func prepare(_ event: StatementEvent) throws -> PreparedEvent {
        switch event {
        case .begin(let header):
            headerCurrency = header.account.currencyCode?.uppercased()
            return .begin(header)
        case .transaction(let raw):
            count += 1
            if count % 10_000 == 0 { now = Date() }
            let id = UUID.timeOrdered(at: now, using: &random)
            return .transaction(try Self.prepare(raw, id: id, accountID: Self.placeholderAccount,
                                                 accountCurrency: headerCurrency ?? "", normalizer: normalizer))
        case .balance(let raw): return .balance(raw)
        case .end: return .end
        case .warning(let warning): return .warning(warning)
        }
    }

    static func prepare(_ raw: RawTransaction, id: UUID, accountID: UUID, accountCurrency: String,
                        normalizer: DescriptionNormalizer) throws -> PreparedTransaction {
        guard let date = raw.transactionDate ?? raw.postedDate else {
            throw CofferError(.badInput, "the transaction has no date", location: raw.location)
        }
        let text = normalizer.normalize(raw)
        let currency = (raw.currencyCode ?? accountCurrency).uppercased()
        let foreign: CurrencyAmount? = {
            guard let amount = raw.foreignAmount, let code = raw.foreignCurrencyCode, code.uppercased() != currency else { return nil }
            return CurrencyAmount(amount: amount.magnitude, currencyCode: code.uppercased())
        }()
        let transaction = Transaction(
            id: id, accountID: accountID,
            transactionAmount: CurrencyAmount(amount: raw.amount.magnitude, currencyCode: currency),
            foreignCurrencyAmount: foreign, foreignCurrencyExchangeRate: foreign == nil ? nil : raw.exchangeRate,
            creditDebitIndicator: raw.resolvedIndicator, transactionDescription: text.display,
            originalTransactionDescription: DescriptionNormalizer.originalDescription(of: raw),
            merchantCategoryCode: text.merchantCategoryCode, merchantName: text.merchantName,
            transactionType: text.transactionType, status: raw.status ?? .booked,
            transactionDate: date.date, postedDate: raw.transactionDate == nil ? nil : raw.postedDate?.date)
        return PreparedTransaction(raw: raw, transaction: transaction, fingerprint: Fingerprint(transaction: transaction),
                                   amounts: EncodedAmounts(transaction))
    }
}
