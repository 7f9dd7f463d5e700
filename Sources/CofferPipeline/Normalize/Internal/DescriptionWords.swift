/// The word lists `DescriptionCleaner` works from: processor prefixes, noise labels, places, case exceptions.
///
/// They are data, not logic: adding a processor or a state is one line here.
enum DescriptionWords {
    /// Leading token sequences that name a card processor or a payment channel, not the merchant
    /// (`SQ *` Square, `TST*` Toast, `SP` Shopify, `PY *` Paymentus, `CKO*` Checkout.com, `IZ *` iZettle, …).
    /// `*` stands for the star token. Longer sequences come first. A prefix is stripped only when words follow.
    static let prefixes: [[String]] = [
        ["RECURRING", "PAYMENT", "AUTHORIZED", "ON"], ["PURCHASE", "AUTHORIZED", "ON"],
        ["DEBIT", "CARD", "PURCHASE"], ["SEPA", "LASTSCHRIFT"], ["RECURRING", "PAYMENT"],
        ["DEBIT", "CARD"], ["DEBIT", "PURCHASE"], ["CARD", "PURCHASE"], ["CHECK", "CARD"], ["ACH", "DEBIT"],
        ["ACH", "CREDIT"], ["DIRECT", "DEBIT"], ["BILL", "PAYMENT"], ["BILL", "PAY"],
        ["SQ", "*"], ["SQU", "*"], ["TST", "*"], ["PAYPAL", "*"], ["PP", "*"], ["SP", "*"], ["PY", "*"],
        ["GOOGLE", "*"], ["APL", "*"], ["CKO", "*"], ["FSP", "*"], ["IZ", "*"], ["DD", "*"], ["WPY", "*"],
        ["BT", "*"], ["SUMUP", "*"], ["ZETTLE", "*"], ["SP"], ["POS"], ["VISA"], ["PURCHASE"], ["CHECKCARD"],
        ["KARTENZAHLUNG"], ["GIROCARD"], ["CONTACTLESS"], ["LASTSCHRIFT"], ["SEPA-LASTSCHRIFT"],
        ["BASISLASTSCHRIFT"], ["FOLGELASTSCHRIFT"], ["ERSTLASTSCHRIFT"], ["BILLPAY"],
    ]

    /// Words that introduce a reference (`REF 8H3K2`, `TRANSACTION#: 123`, SEPA `EREF:`); the next token is
    /// dropped with them when it holds a digit.
    static let labels = WordSet([
        "REF", "REFERENCE", "TRANSACTION", "CONF", "CONFIRMATION", "AUTH", "TRACE", "TRN", "TXN", "ID", "EREF",
        "MREF", "KREF", "CRED", "MANDATE", "INV", "INVOICE", "ORDER",
    ])

    /// ACH entry classes that stand before `ID:` (`PPD ID: 1234567890`).
    static let achClasses = WordSet(["PPD", "WEB", "CCD", "TEL", "ARC", "BOC", "POP", "CTX", "IAT"])

    /// Words that precede a store number (`STORE 0456`, `No. 12`).
    static let storeWords = WordSet(["STORE", "NO", "NR", "NUMBER", "FILIALE", "FIL", "UNIT", "LOC", "SHOP"])

    /// Words after which a number is kept (`CHECK 1234`).
    static let checkWords = WordSet(["CHECK", "CHEQUE", "CHQ", "SCHECK", "CHECK#"])

    /// US state and territory codes (a trailing one after a city is a place, not part of the name).
    /// `CO` is left out: `ACME BOTTLING CO` is a company far more often than Colorado (a Colorado place after a
    /// store number is still dropped).
    static let states = WordSet([
        "AL", "AK", "AZ", "AR", "CA", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
        "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC",
        "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
        "PR",
    ])

    /// Country codes card networks append (`LONDON GBR`).
    static let countries = WordSet([
        "US", "USA", "GB", "GBR", "UK", "DE", "DEU", "NL", "NLD", "FR", "FRA", "IE", "IRL", "ES", "ESP", "IT",
        "ITA", "AT", "AUT", "BE", "BEL", "CH", "CHE", "LU", "LUX", "CAN", "AUS",
    ])

    /// First words of multi-word city names (`SAN FRANCISCO`, `ST LOUIS`).
    static let cityPrefixes = WordSet([
        "SAN", "SANTA", "LOS", "LAS", "NEW", "FORT", "FT", "ST", "SAINT", "PALO", "EL", "SALT", "NORTH", "SOUTH",
        "EAST", "WEST", "PORT", "MOUNT", "MT", "LONG", "GRAND", "BATON", "CORPUS", "DES", "LAKE", "LA", "CAPE",
        "BEVERLY", "CULVER", "REDWOOD", "DALY", "OKLAHOMA", "KANSAS", "JERSEY", "CARSON", "MENLO", "MOUNTAIN",
    ])

    /// Last words of multi-word city names (`REDWOOD CITY`, `MIAMI BEACH`).
    static let citySuffixes = WordSet([
        "CITY", "BEACH", "PARK", "HILLS", "FALLS", "SPRINGS", "HEIGHTS", "VALLEY", "VIEW", "ALTO", "VEGAS",
    ])

    /// Words a business name ends with: never taken for a city.
    static let businessWords = WordSet([
        "CO", "INC", "LLC", "LTD", "CORP", "GMBH", "AG", "KG", "PLC", "AND", "&", "THE", "OF", "MARKET", "STORE",
    ])

    /// Short words lowercased inside a title-cased text (`Online Transfer to Sav`).
    static let smallWords = WordSet([
        "A", "AN", "AND", "AT", "BY", "DE", "DER", "DIE", "DAS", "DU", "FOR", "IN", "OF", "ON", "OR", "THE", "TO",
        "UND", "VON", "ZU", "ZUR",
    ])

    /// Words kept uppercase.
    static let acronyms = WordSet([
        "ATM", "USA", "US", "UK", "EU", "UAE", "NYC", "IKEA", "KFC", "BP", "CVS", "DHL", "UPS", "USPS", "IBM", "HBO",
        "ESPN", "AMC", "BBC", "H&M", "AT&T", "TJ", "DB", "BVG", "HSBC", "RBC", "TD", "PNC", "ACH", "POS", "LLC",
        "AG", "KG", "SE", "OHG", "SA", "NV", "BV", "PLC", "NHS", "TFL", "HEB", "IHOP", "REWE", "ALDI", "LIDL",
        "EDEKA", "DM", "OBI", "BMW", "VW", "ADAC", "ARAL", "OMV", "SNCF", "KLM", "EE", "O2", "AA", "TV", "HMRC",
        "IRS", "APR", "IBAN", "SEPA", "PIN", "ID", "ATM", "QFC", "AMZN", "WWW", "GAP", "UBS", "ING", "N26",
    ])

    /// Words with a fixed spelling: uppercase form → display form.
    static let spellings = WordSet(pairs: [
        ("GMBH", "GmbH"), ("ST", "St"), ("DR", "Dr"), ("MR", "Mr"), ("MRS", "Mrs"), ("MT", "Mt"), ("FT", "Ft"),
        ("JR", "Jr"), ("CO", "Co"), ("INC", "Inc"), ("LTD", "Ltd"), ("CORP", "Corp"), ("MKTP", "Mktp"),
        ("MKTPLACE", "Mktplace"), ("EBAY", "eBay"), ("IPHONE", "iPhone"), ("ITUNES", "iTunes"),
        ("PAYPAL", "PayPal"), ("YOUTUBE", "YouTube"), ("SAV", "Sav"), ("CHK", "Chk"),
    ])

    /// Phrases (folded, whole words) that say the text is not a purchase from a merchant: transfers, interest,
    /// fees, salary, cash, card payments. `^` anchors a phrase at the start.
    static let nonMerchantPhrases: [String] = [
        "transfer", "transfers", "xfer", "uberweisung", "ueberweisung", "umbuchung", "interest", "zinsen",
        "habenzinsen", "sollzinsen", "fee", "fees", "service charge", "entgelt", "gebuhr", "gebuehr",
        "kontofuhrung", "kontofuehrung", "salary", "payroll", "gehalt", "lohn", "direct deposit", "dir dep",
        "deposit", "atm", "geldautomat", "bargeld", "bargeldauszahlung", "cash withdrawal", "withdrawal",
        "thank you", "autopay", "payment received", "dividend", "dividende", "dauerauftrag", "standing order",
        "cheque", "balance transfer", "cash advance", "adjustment", "loan payment", "mortgage payment",
        "tilgung", "darlehen", "abschluss", "rechnungsabschluss", "zelle", "^check", "^scheck",
    ]
}
