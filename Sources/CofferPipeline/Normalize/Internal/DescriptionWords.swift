/// The word lists `DescriptionCleaner` works from: processor prefixes, noise labels, places, case exceptions.
///
/// They are data, not logic: adding a processor or a state is one line here.
enum DescriptionWords {
    /// Leading token sequences that name a card processor or a payment channel, not the merchant
    /// (`SQ *` Square, `TST*` Toast, `SP` Shopify, `PY *` Paymentus, `CKO*` Checkout.com, `IZ *` iZettle, …).
    /// `*` stands for the star token. Longer sequences come first. A prefix is stripped only when words follow.
    static let prefixes: [[String]] = [
        ["SEPA", "INCASSO", "ALGEMEEN", "DOORLOPEND"], ["FASTER", "PAYMENT", "RECEIVED", "FROM"],
        ["VIR", "SEPA", "RECU", "DE"], ["PAIEMENT", "PAR", "CARTE"], ["FASTER", "PAYMENT", "TO"],
        ["CARD", "PAYMENT", "TO"], ["PRLV", "SEPA"], ["VIR", "SEPA"], ["ADDEBITO", "SDD"], ["COMPRA", "TARJ."],
        ["COMPRA", "TARJETA"], ["CB", "*"],
        ["RECURRING", "PAYMENT", "AUTHORIZED", "ON"], ["PURCHASE", "AUTHORIZED", "ON"],
        ["DEBIT", "CARD", "PURCHASE"], ["SEPA", "LASTSCHRIFT"], ["RECURRING", "PAYMENT"],
        ["DEBIT", "CARD"], ["DEBIT", "PURCHASE"], ["CARD", "PURCHASE"], ["CHECK", "CARD"], ["ACH", "DEBIT"],
        ["ACH", "CREDIT"], ["DIRECT", "DEBIT"], ["BILL", "PAYMENT"], ["BILL", "PAY"],
        ["SQ", "*"], ["SQU", "*"], ["TST", "*"], ["PAYPAL", "*"], ["PP", "*"], ["SP", "*"], ["PY", "*"],
        ["GOOGLE", "*"], ["APL", "*"], ["CKO", "*"], ["FSP", "*"], ["IZ", "*"], ["DD", "*"], ["WPY", "*"],
        ["BT", "*"], ["SUMUP", "*"], ["ZETTLE", "*"], ["SP"], ["POS"], ["VISA"], ["PURCHASE"], ["CHECKCARD"],
        ["KARTENZAHLUNG"], ["GIROCARD"], ["CONTACTLESS"], ["LASTSCHRIFT"], ["SEPA-LASTSCHRIFT"],
        ["BASISLASTSCHRIFT"], ["FOLGELASTSCHRIFT"], ["ERSTLASTSCHRIFT"], ["BILLPAY"],
        ["CB"], ["PRLV"], ["DD"], ["BEA"], ["RECIBO"], ["BETALINGSSERVICE"], ["KORTKÖP"], ["DANKORT-KØB"],
    ]

    /// Words that introduce a reference (`REF 8H3K2`, `TRANSACTION#: 123`, SEPA `EREF:`); the next token is
    /// dropped with them when it holds a digit.
    static let labels = WordSet([
        "REF", "REFERENCE", "TRANSACTION", "CONF", "CONFIRMATION", "AUTH", "TRACE", "TRN", "TXN", "ID", "EREF",
        "KREF", "CRED", "ORDER", "ACCOUNT", "ACCT", "INCASSANT", "KENMERK", "TERMINAL",
    ])

    /// Words that introduce a number the account holder needs (`INVOICE 556677`, `Vertrag 4711`, `POLICY NO.
    /// 12-AB-3`): kept with their value in the display text, left out of the merchant name.
    static let detailLabels = WordSet([
        "INVOICE", "INV", "RECHNUNG", "RECHNUNGSNR", "FACTURE", "FACTURA", "FATTURA", "FACTUUR", "FACTUURNUMMER",
        "CONTRACT", "CONTRAT", "CONTRATTO", "CONTRATO", "VERTRAG", "VERTRAGSNR", "VERTRAGSNUMMER", "AFTALENR",
        "POLICY", "POLIS", "POLICE", "POLIZZA", "POLIZA", "VSNR", "MANDATE", "MANDAT", "MACHTIGING", "MANDATSREF",
        "KUNDENNR", "KUNDENNUMMER", "PRET", "PRESTAMO", "DARLEHEN", "LOAN",
    ])

    /// Words between a detail label and its number (`POLICY NO. 123`).
    static let numberWords = WordSet(["NO", "NR", "NUMBER", "NUM", "NUMMER", "N°", "#"])

    /// Field names of structured texts, dropped alone (the words after them stay): Dutch `Naam:` `Omschrijving:`.
    static let fieldNames = WordSet(["NAAM", "OMSCHRIJVING", "VERWENDUNGSZWECK", "BETREFF"])

    /// Words a counter follows (`INSTALLMENT 2/24`, `Rate 12 von 48`, `ECHEANCE 5/12`).
    static let counterWords = WordSet([
        "INSTALLMENT", "INSTALLMENTS", "INSTALMENT", "INSTALMENTS", "RATE", "RATA", "TERMIJN", "ECHEANCE",
        "ÉCHÉANCE", "CUOTA", "AVDRAG", "AFDRAG", "TEILZAHLUNG", "PAYMENT", "PAYMENTS", "TERMIN",
    ])

    /// The word between a counter's two numbers (`5 OF 12`, `12 von 48`, `7 av 120`).
    static let counterOf = WordSet(["OF", "VON", "AV", "AF", "DE", "SUR", "VAN", "DI", "SU"])

    /// Month names (a year after one is a period: `März 2026`).
    static let months = WordSet([
        "JAN", "JANUARY", "JANUAR", "JANVIER", "ENERO", "GENNAIO", "JANUARI", "FEB", "FEBRUARY", "FEBRUAR",
        "FEVRIER", "FÉVRIER", "FEBRERO", "FEBBRAIO", "FEBRUARI", "MAR", "MARCH", "MÄRZ", "MAERZ", "MARS", "MARZO",
        "MAART", "APR", "APRIL", "AVRIL", "ABRIL", "APRILE", "MAY", "MAI", "MAYO", "MAGGIO", "MEI", "JUN", "JUNE",
        "JUNI", "JUIN", "JUNIO", "GIUGNO", "JUL", "JULY", "JULI", "JUILLET", "JULIO", "LUGLIO", "AUG", "AUGUST",
        "AOUT", "AOÛT", "AGOSTO", "AUGUSTUS", "SEP", "SEPT", "SEPTEMBER", "SEPTEMBRE", "SEPTIEMBRE", "SETTEMBRE",
        "OCT", "OKT", "OCTOBER", "OKTOBER", "OCTOBRE", "OCTUBRE", "OTTOBRE", "NOV", "NOVEMBER", "NOVEMBRE",
        "NOVIEMBRE", "DEC", "DEZ", "DECEMBER", "DEZEMBER", "DECEMBRE", "DÉCEMBRE", "DICIEMBRE", "DICEMBRE",
    ])

    /// SEPA field tags German banks write before a value with `+` (`EREF+`, `SVWZ+`). The purpose (`SVWZ`) stays,
    /// the mandate (`MREF`) goes to the end of the display text, the rest (end-to-end and customer references,
    /// creditor id, IBAN, BIC, purpose code, ultimate parties, amounts) go.
    static let sepaTags = WordSet([
        "EREF", "MREF", "CRED", "SVWZ", "KREF", "ABWA", "ABWE", "PURP", "IBAN", "DEBT", "COAM", "OAMT", "SQTP", "BREF",
        "RREF",
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
        "IRS", "APR", "IBAN", "SEPA", "PIN", "ID", "ATM", "QFC", "AMZN", "WWW", "GAP", "UBS", "ING", "N26", "MREF",
        "ICA", "EDF", "VGZ", "TDC", "SNCB", "RATP",
    ])

    /// Words with a fixed spelling: uppercase form → display form.
    static let spellings = WordSet(pairs: [
        ("GMBH", "GmbH"), ("ST", "St"), ("DR", "Dr"), ("MR", "Mr"), ("MRS", "Mrs"), ("MT", "Mt"), ("FT", "Ft"),
        ("JR", "Jr"), ("CO", "Co"), ("INC", "Inc"), ("LTD", "Ltd"), ("CORP", "Corp"), ("MKTP", "Mktp"),
        ("MKTPLACE", "Mktplace"), ("EBAY", "eBay"), ("IPHONE", "iPhone"), ("ITUNES", "iTunes"),
        ("PAYPAL", "PayPal"), ("YOUTUBE", "YouTube"), ("SAV", "Sav"), ("CHK", "Chk"), ("MKT", "Mkt"),
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
        "tilgung", "darlehen", "abschluss", "rechnungsabschluss", "zelle", "^check", "^scheck", "faster payment",
        "^vir sepa", "virement", "prestamo", "ratenkredit", "avdrag",
    ]
}
