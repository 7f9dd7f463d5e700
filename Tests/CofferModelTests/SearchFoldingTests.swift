import CofferModel
import Foundation
import Testing

/// `SearchFolding`: what a search box user types finds the text a bank wrote, in German, French, Nordic and
/// Turkish, on Linux as on Apple platforms.
@Suite struct SearchFoldingTests {
    @Test(arguments: [
        ("Café Müller", "cafe muller"), ("KÖLN HBF", "koln hbf"), ("Straße", "strasse"), ("STRASSE", "strasse"),
        ("GROẞHANDEL", "grosshandel"), ("Œuvre d'Art", "oeuvre d'art"), ("cœur", "coeur"), ("Crédit Agricole", "credit agricole"),
        ("Ålesund", "alesund"), ("Øresund Bro", "oresund bro"), ("Æblegård", "aeblegard"), ("Tórshavn", "torshavn"),
        ("Þingvellir", "thingvellir"), ("Reykjavík Ðorp", "reykjavik dorp"), ("İSTANBUL", "istanbul"),
        ("ıspanak", "ispanak"), ("Selin Yılmaz", "selin yilmaz"), ("Łódź", "lodz"), ("Đakovo", "dakovo"),
        ("SQ *BLUE  BOTTLE\t#123", "sq *blue bottle #123"), ("50%_OFF", "50%_off"), ("", ""),
        ("Zürich\u{00A0}See", "zurich see"), ("e\u{0301}cole", "ecole"),
    ])
    func folds(_ text: String, _ expected: String) {
        #expect(SearchFolding.fold(text) == expected)
    }

    @Test func aQueryFindsTheTextWhateverItsCaseAndAccents() {
        #expect(SearchFolding.contains("Café Müller", "muller"))
        #expect(SearchFolding.contains("Café Müller", "MÜLLER"))
        #expect(SearchFolding.contains("café", "CAFE"))
        #expect(SearchFolding.contains("Bargeldauszahlung GA Köln Hbf", "koln"))
        #expect(SearchFolding.contains("ISTANBUL KEBAP", "İstanbul"))
        #expect(SearchFolding.contains("Selin Yılmaz", "YILMAZ"))
        #expect(SearchFolding.contains("anything", ""))
        // One letter for one letter: spelled-out forms are other words.
        #expect(!SearchFolding.contains("Müller", "mueller"))
        #expect(!SearchFolding.contains("Århus", "aarhus"))
    }

    @Test func aTransactionMatchesOnAnyOfItsThreeTexts() {
        let t = Transaction(id: UUID(), accountID: UUID(), transactionAmount: CurrencyAmount(amount: 4, currencyCode: "EUR"),
                            creditDebitIndicator: .debit, transactionDescription: "Bäckerei Körner",
                            originalTransactionDescription: "KARTENZAHLUNG BAECKEREI KOERNER", merchantName: "Körner Backwaren",
                            transactionType: .pointOfSale, status: .booked, transactionDate: Date(timeIntervalSince1970: 0))
        #expect(t.matchesSearchText("backerei"))
        #expect(t.matchesSearchText("baeckerei"))
        #expect(t.matchesSearchText("BACKWAREN"))
        #expect(!t.matchesSearchText("korner kartenzahlung"))
    }
}
