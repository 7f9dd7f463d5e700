import CofferFormats
import CofferModel
import Testing
@testable import CofferPipeline

/// One realistic bank text and what normalization must make of it.
struct DescriptionCase: CustomTestStringConvertible, Sendable {
    var raw: String
    var indicator: CreditDebitIndicator = .debit
    var display: String
    var merchant: String?
    var mcc: Int16?
    var type: TransactionType
    var category: String?
    var typeCode: String?
    var feedMCC: Int16?
    var feedType: TransactionType?

    var testDescription: String { raw.isEmpty ? "<empty>" : raw }
}

private func c(_ raw: String, _ indicator: CreditDebitIndicator = .debit, display: String, merchant: String?,
               mcc: Int16? = nil, _ type: TransactionType, category: String? = nil, typeCode: String? = nil,
               feedMCC: Int16? = nil, feedType: TransactionType? = nil) -> DescriptionCase {
    DescriptionCase(raw: raw, indicator: indicator, display: display, merchant: merchant, mcc: mcc, type: type,
                    category: category, typeCode: typeCode, feedMCC: feedMCC, feedType: feedType)
}

let descriptionCases: [DescriptionCase] = [
    // Card processors and store numbers (US)
    c("SQ *BLUE BOTTLE COFFEE #0123 OAKLAND CA", display: "Blue Bottle Coffee", merchant: "Blue Bottle Coffee", .unknown),
    c("TST* SHAKE SHACK 1234", display: "Shake Shack", merchant: "Shake Shack", mcc: 5814, .pointOfSale),
    c("PAYPAL *NETFLIX 4029357733", display: "Netflix", merchant: "Netflix", mcc: 4899, .pointOfSale),
    c("CHECKCARD 0314 STARBUCKS STORE 05519 SEATTLE WA", display: "Starbucks", merchant: "Starbucks", mcc: 5814, .pointOfSale),
    c("AMZN Mktp US*2K4AB12C3", display: "Amazon Marketplace", merchant: "Amazon Marketplace", mcc: 5999, .pointOfSale),
    c("Amazon.com*RT4YH7ZK2 Amzn.com/bill WA", display: "Amazon", merchant: "Amazon", mcc: 5942, .pointOfSale),
    c("Amazon Prime*2K4AB12C3", display: "Amazon Prime", merchant: "Amazon Prime", mcc: 5968, .pointOfSale),
    c("UBER *TRIP HELP.UBER.COM CA", display: "Uber", merchant: "Uber", mcc: 4121, .pointOfSale),
    c("UBER *EATS PENDING", display: "Uber Eats", merchant: "Uber Eats", mcc: 5814, .pointOfSale),
    c("LYFT *RIDE SUN 4PM", display: "Lyft", merchant: "Lyft", mcc: 4121, .pointOfSale),
    c("APL*APPLE.COM/BILL 866-712-7753 CA", display: "Apple", merchant: "Apple", mcc: 5818, .pointOfSale),
    c("GOOGLE *YOUTUBE PREMIUM G.CO/HELPPAY#", display: "YouTube", merchant: "YouTube", mcc: 5815, .pointOfSale),
    c("SPOTIFY USA 877-778-1161 NY", display: "Spotify", merchant: "Spotify", mcc: 5815, .pointOfSale),
    c("MCDONALD'S F12345 CHICAGO IL", display: "McDonald's", merchant: "McDonald's", mcc: 5814, .pointOfSale),
    c("SHELL OIL 57442652101 HOUSTON TX", display: "Shell", merchant: "Shell", mcc: 5541, .pointOfSale),
    c("WHOLEFDS MKT #10234 AUSTIN TX", display: "Whole Foods Market", merchant: "Whole Foods Market", mcc: 5411, .pointOfSale),
    c("WAL-MART #1234 BENTONVILLE AR", display: "Walmart", merchant: "Walmart", mcc: 5311, .pointOfSale),
    c("TARGET 00012345 MINNEAPOLIS MN", display: "Target", merchant: "Target", mcc: 5310, .pointOfSale),
    c("COSTCO WHSE #0123 ISSAQUAH WA", display: "Costco", merchant: "Costco", mcc: 5300, .pointOfSale),
    c("NETFLIX.COM 866-579-7172 CA", display: "Netflix", merchant: "Netflix", mcc: 4899, .pointOfSale),
    c("AIRBNB HM4X2K9Y3Z SAN FRANCISCO CA", display: "Airbnb", merchant: "Airbnb", mcc: 7011, .pointOfSale),
    c("POS 7-ELEVEN 34567 DALLAS TX", display: "7-Eleven", merchant: "7-Eleven", mcc: 5499, .pointOfSale),
    c("PURCHASE AUTHORIZED ON 03/14 SAFEWAY #1234 SAN FRANCISCO CA S3820731234 CARD 1234", display: "Safeway",
      merchant: "Safeway", mcc: 5411, .pointOfSale),
    c("RECURRING PAYMENT AUTHORIZED ON 03/01 SPOTIFY USA", display: "Spotify", merchant: "Spotify", mcc: 5815, .pointOfSale),
    c("PP*EBAY ITEM 1234567890", display: "eBay", merchant: "eBay", mcc: 5999, .pointOfSale),
    c("TST*JOE & THE JUICE", display: "Joe & the Juice", merchant: "Joe & the Juice", .unknown),
    c("IZ *CAFE LUNA", display: "Cafe Luna", merchant: "Cafe Luna", .unknown),
    c("SP * ALLBIRDS", display: "Allbirds", merchant: "Allbirds", .unknown),
    c("SQ *JOE'S PIZZA", display: "Joe's Pizza", merchant: "Joe's Pizza", mcc: 5812, .pointOfSale, category: "Restaurants"),
    c("SHELLFISH SHACK PORTLAND OR", display: "Shellfish Shack", merchant: "Shellfish Shack", .unknown),
    // UK and Europe
    c("TESCO STORES 3217 LONDON GBR", display: "Tesco", merchant: "Tesco", mcc: 5411, .pointOfSale),
    c("Pret A Manger", display: "Pret A Manger", merchant: "Pret A Manger", mcc: 5814, .pointOfSale),
    c("DIRECT DEBIT BRITISH GAS", display: "British Gas", merchant: "British Gas", mcc: 4900, .directDebit),
    c("STANDING ORDER J SMITH RENT", display: "Standing Order J Smith Rent", merchant: nil, .standingOrder),
    c("KARTENZAHLUNG REWE MARKT GMBH//BERLIN/DE", display: "REWE", merchant: "REWE", mcc: 5411, .pointOfSale),
    c("LIDL SAGT DANKE", display: "Lidl", merchant: "Lidl", mcc: 5411, .pointOfSale),
    c("ALDI SUED SAGT DANKE 1234", display: "Aldi", merchant: "Aldi", mcc: 5411, .pointOfSale),
    c("EDEKA CENTER 4711 MUENCHEN", display: "EDEKA", merchant: "EDEKA", mcc: 5411, .pointOfSale),
    c("DB Vertrieb GmbH Frankfurt", display: "Deutsche Bahn", merchant: "Deutsche Bahn", mcc: 4112, .pointOfSale),
    c("SEPA-LASTSCHRIFT NETFLIX INTERNATIONAL B.V.", display: "Netflix", merchant: "Netflix", mcc: 4899, .directDebit),
    c("DAUERAUFTRAG MIETE JOHANNA BEISPIEL", display: "Dauerauftrag Miete Johanna Beispiel", merchant: nil, .standingOrder),
    c("ÜBERWEISUNG AN MAX MUSTERMANN", display: "Überweisung an Max Mustermann", merchant: nil, .transfer),
    c("ZINSEN", .credit, display: "Zinsen", merchant: nil, .interest),
    c("GEHALT MAERZ ACME GMBH", .credit, display: "Gehalt Maerz Acme GmbH", merchant: nil, .directDeposit),
    c("GELDAUTOMAT 1234 SPARKASSE", display: "Geldautomat", merchant: nil, .atm),
    c("ENTGELT KONTOFUEHRUNG", display: "Entgelt Kontofuehrung", merchant: nil, .fee),
    c("CAFÉ MÜLLER KÖLN", display: "Café Müller Köln", merchant: "Café Müller Köln", .unknown),
    c("Café de Flore", display: "Café de Flore", merchant: "Café de Flore", .unknown),
    c("SUMUP *BAECKEREI MUELLER", display: "Baeckerei Mueller", merchant: "Baeckerei Mueller", mcc: 5411, .pointOfSale,
      category: "Lebensmittel"),
    // Not merchants
    c("ONLINE TRANSFER TO SAV XXXXXX4521", display: "Online Transfer to Sav", merchant: nil, .transfer),
    c("ATM WITHDRAWAL 005678 MAIN ST NEW YORK NY", display: "ATM Withdrawal", merchant: nil, .atm),
    c("INTEREST PAID", .credit, display: "Interest Paid", merchant: nil, .interest),
    c("DIRECT DEPOSIT ACME CORP PAYROLL", .credit, display: "Direct Deposit Acme Corp Payroll", merchant: nil, .directDeposit),
    c("ACME CORP PAYROLL PPD ID: 9876543210", .credit, display: "Acme Corp Payroll", merchant: nil, .directDeposit),
    c("MONTHLY SERVICE FEE", display: "Monthly Service Fee", merchant: nil, .fee),
    c("CHECK 1234", display: "Check 1234", merchant: nil, .check),
    c("PAYMENT THANK YOU", .credit, display: "Payment Thank You", merchant: nil, .billPayment),
    c("AUTOMATIC PAYMENT - THANK YOU", .credit, display: "Automatic Payment Thank You", merchant: nil, .billPayment),
    c("DIVIDEND VANGUARD TOTAL STOCK", .credit, display: "Dividend Vanguard Total Stock", merchant: nil, .dividend),
    c("ZELLE PAYMENT TO JANE DOE JPM99ABC1234", display: "Zelle Payment to Jane Doe", merchant: nil, .transfer),
    c("REF 8H3K2LQ9 ONLINE BANKING TRANSFER", display: "Online Banking Transfer", merchant: nil, .transfer),
    c("ACH DEBIT COMCAST CABLE 8772661234", display: "Comcast Xfinity", merchant: "Comcast Xfinity", mcc: 4899, .directDebit),
    c("", display: "", merchant: nil, .unknown),
    // Refunds, and the feed's own values winning
    c("REFUND AMAZON.COM", .credit, display: "Amazon", merchant: "Amazon", mcc: 5942, .refund),
    c("STARBUCKS", display: "Starbucks", merchant: "Starbucks", mcc: 5812, .pointOfSale, feedMCC: 5812),
    c("AMAZON.COM", .credit, display: "Amazon", merchant: "Amazon", mcc: 5942, .refund, feedType: .refund),
    c("CASH 123 MAIN", display: "Cash", merchant: "Cash", .atm, typeCode: "ATM"),
    c("EDEKA", display: "EDEKA", merchant: "EDEKA", mcc: 5411, .pointOfSale, typeCode: "PMNT-CCRD-POSD"),
]

@Suite("Normalize: descriptions")
struct NormalizeDescriptionTests {
    @Test("realistic bank texts", arguments: descriptionCases)
    func normalizes(_ example: DescriptionCase) {
        let result = NormalizeFixtures.normalizer.normalize(
            text: example.raw, feedMCC: example.feedMCC.map(MerchantCategoryCode.init(rawValue:)),
            category: example.category, typeCode: example.typeCode, feedType: example.feedType,
            indicator: example.indicator)
        #expect(result.display == example.display)
        #expect(result.merchantName == example.merchant)
        #expect(result.merchantCategoryCode?.rawValue == example.mcc)
        #expect(result.transactionType == example.type)
    }

    @Test func cleanerAloneKeepsNamesAndDropsNoise() {
        let cleaner = DescriptionCleaner()
        #expect(cleaner.clean("SQ *BLUE BOTTLE COFFEE #0123 OAKLAND CA") == ("Blue Bottle Coffee", "Blue Bottle Coffee"))
        #expect(cleaner.clean("AMZN Mktp US*2K4AB12C3").display == "AMZN Mktp")  // trailing country code
        #expect(cleaner.clean("KARTENZAHLUNG REWE MARKT GMBH//BERLIN/DE").display == "REWE Markt GmbH")
        #expect(cleaner.clean("FOREVER 21 #0456").display == "Forever 21")
        #expect(cleaner.clean("COCA-COLA  BOTTLING   CO").display == "Coca-Cola Bottling Co")
        #expect(cleaner.clean("O'REILLY AUTO PARTS 1234").display == "O'Reilly Auto Parts")
        #expect(cleaner.clean("CVS/PHARMACY #01234").display == "CVS/Pharmacy")
        #expect(cleaner.clean("CARD 1234 TESCO EXPRESS").display == "Tesco Express")
        #expect(cleaner.clean("****1234").display == "****1234")  // nothing left: the text stays as sent
    }

    @Test func rawTransactionUsesNameMemoAndFeedMerchant() {
        let raw = RawTransaction(location: .init(file: "apple.csv", line: 2), amount: -12, name: "UBER *TRIP",
                                 memo: "help.uber.com", merchantName: "Uber", category: "Transportation")
        let result = NormalizeFixtures.normalizer.normalize(raw)
        #expect(result == NormalizedDescription(display: "Uber", merchantName: "Uber",
                                                merchantCategoryCode: MerchantCategoryCode(rawValue: 4121),
                                                transactionType: .pointOfSale))
        let unknown = RawTransaction(location: .init(file: "apple.csv", line: 3), amount: -4,
                                     name: "SQ *CORNER BAKERY 0042", merchantName: "Corner Bakery Cafe")
        #expect(NormalizeFixtures.normalizer.normalize(unknown).merchantName == "Corner Bakery Cafe")
    }
}
