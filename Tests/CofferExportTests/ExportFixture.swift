@testable import CofferExport
import CofferModel
import CofferPipeline
import Foundation

/// A small store written by hand, with fixed ids: a checking and a savings account with a transfer between them on
/// two days, a card with a pending row and a foreign-currency purchase, and a euro account with a posting date and
/// a statement balance the transactions do not reach. Every text that needs quoting in some format is in it.
enum ExportFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let golden = root + "/Tests/Golden/export"

    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }
    static func day(_ text: String) -> Date { CalendarDay.parse(text)! }

    static let checking = id(1), savings = id(2), card = id(3), euro = id(4)

    static let accounts: [UUID: Account] = [
        checking: .asset(AssetAccount(id: checking, displayName: "Household checking", institutionName: "Birchwood Bank", currencyCode: "USD")),
        savings: .asset(AssetAccount(id: savings, displayName: "Birchwood Bank Savings ••••9911", institutionName: "Birchwood Bank",
                                     currencyCode: "USD")),
        card: .liability(LiabilityAccount(id: card, displayName: "Summit Card", institutionName: "Summit Travel Card", currencyCode: "USD")),
        euro: .asset(AssetAccount(id: euro, displayName: "Konto (Köln)", institutionName: "Musterbank Köln eG", currencyCode: "EUR")),
    ]

    static func tx(_ n: Int, _ account: UUID, _ date: String, _ indicator: CreditDebitIndicator, _ amount: String, _ currency: String,
                   _ text: String, original: String, merchant: String? = nil, mcc: Int16? = nil, type: TransactionType = .unknown,
                   status: TransactionStatus = .booked, posted: String? = nil, foreign: CurrencyAmount? = nil, rate: String? = nil) -> Transaction {
        Transaction(id: id(100 + n), accountID: account,
                    transactionAmount: CurrencyAmount(amount: ExactDecimal.parse(amount)!, currencyCode: currency),
                    foreignCurrencyAmount: foreign, foreignCurrencyExchangeRate: rate.flatMap { ExactDecimal.parse($0) },
                    creditDebitIndicator: indicator, transactionDescription: text, originalTransactionDescription: original,
                    merchantCategoryCode: mcc.map { MerchantCategoryCode(rawValue: $0) }, merchantName: merchant, transactionType: type,
                    status: status, transactionDate: day(date), postedDate: posted.map(day))
    }

    static let transactions: [Transaction] = [
        tx(1, checking, "2026-03-02", .debit, "4.50", "USD", "Blue Bottle Coffee #12", original: "SQ *BLUE BOTTLE COFFEE #12 OAKLAND, CA",
           merchant: "Blue Bottle", mcc: 5814, type: .pointOfSale),
        tx(2, checking, "2026-03-03", .credit, "2150.00", "USD", "Payroll | ACME; March", original: "ACME CORP PAYROLL; REF 7|2",
           type: .directDeposit),
        tx(3, checking, "2026-03-05", .debit, "500.00", "USD", "Transfer to savings", original: "ONLINE TRANSFER TO SAV 9911",
           type: .transfer),
        tx(4, savings, "2026-03-06", .credit, "500.00", "USD", "Transfer from checking", original: "ONLINE TRANSFER FROM CHK",
           type: .transfer),
        tx(5, card, "2026-03-04", .debit, "60.25", "USD", "Café \"Le Petit\" \\ Bar", original: "CAFE \"LE PETIT\" \\ BAR PARIS",
           merchant: "Café Le Petit", mcc: 5812, type: .pointOfSale,
           foreign: CurrencyAmount(amount: 55, currencyCode: "EUR"), rate: "1.0955"),
        tx(6, card, "2026-03-08", .debit, "12.00", "USD", "Parking", original: "CITY PARKING 0042", type: .pointOfSale, status: .pending),
        tx(7, euro, "2026-03-02", .debit, "89.90", "EUR", "Stadtwerke Köln", original: "Stadtwerke Köln\nAbschlag März",
           merchant: "Stadtwerke Köln", type: .directDebit, posted: "2026-03-03"),
    ]

    static func balance(_ n: Int, _ account: UUID, _ date: String, _ signed: String, _ kind: AccountKind, _ currency: String = "USD") -> AccountBalance {
        AccountBalance(id: id(200 + n), accountID: account, currentBalance: .booked(Balance(
            signedAmount: ExactDecimal.parse(signed)!, currencyCode: currency, asOfDate: day(date), accountKind: kind)))
    }

    static let balances: [AccountBalance] = [
        balance(1, checking, "2026-03-04", "3145.50", .asset),       // a day without a checking posting
        balance(2, checking, "2026-03-05", "2645.50", .asset),       // on the transfer's day
        balance(3, savings, "2026-03-06", "1500.00", .asset),
        balance(4, card, "2026-03-09", "60.25", .liability),          // owed: -60.25 from the holder's side
        balance(5, euro, "2026-02-27", "480.00", .asset, "EUR"),     // not reached: a statement missing
        balance(6, euro, "2026-03-01", "500.00", .asset, "EUR"),
        balance(7, euro, "2026-03-03", "410.10", .asset, "EUR"),
    ]

    /// The built-in categories and transfer rules (no user configuration).
    static let classifier = ExportClassifier(configuration: try! CofferConfiguration.load(layers: [.builtIn]))

    static func render(_ format: ExportFormat, includePending: Bool = false, names: JournalAccountNames = JournalAccountNames(),
                       transactions: [Transaction] = transactions, state: ExportState? = nil) -> ExportOutput {
        Exporter.render(accounts: accounts, transactions: transactions, balances: balances,
                        options: ExportOptions(format: format, includePending: includePending), names: names,
                        classifier: classifier, resuming: state)
    }
}
