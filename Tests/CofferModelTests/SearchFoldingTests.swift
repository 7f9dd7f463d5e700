@testable import CofferModel
import CofferTestSupport
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

/// The fast paths (ASCII, Latin-1 by table) fold exactly as Foundation's folding with Coffer's letters does.
@Suite struct SearchFoldingFastPathTests {
    @Test func everyLatin1LetterFoldsAsFoundationFoldsIt() {
        for value in UInt32(0xA0)...0xFF {
            let letter = String(Character(Unicode.Scalar(value)!))
            for text in [letter, "x" + letter + "Y", letter + letter.uppercased() + " " + letter] {
                #expect(SearchFolding.fold(text) == SearchFolding.foldWithFoundation(text), "U+\(String(value, radix: 16)) in \(text)")
            }
        }
        for text in ["Bäckerei Schäfer Filiale 12", "MÜLLER & SÖHNE GMBH", "Crème brûlée  à\u{00A0}Paris", "Ærø Øst Ål",
                     "Straße\tNr.\n5", "Café°", "€ 5", "İzmir", "ÿ", "\u{7F}x"] {
            #expect(SearchFolding.fold(text) == SearchFolding.foldWithFoundation(text), "\(text)")
        }
    }

    /// Random texts of ASCII, Latin-1 letters, blanks and the odd character outside Latin-1 (which sends the whole
    /// text to Foundation): the fast paths fold each as Foundation does. A failure prints its seed.
    @Test func randomTextsFoldAsFoundationFoldsThem() {
        let alphabet: [String] = ["a", "Z", "0", " ", "  ", "\t", "\n", "\u{7F}", "-", "*", "é", "Ü", "ß", "Æ", "ÿ", "×",
                                  "÷", "\u{00A0}", "Ø", "þ", "Ð", "°", "€", "ł", "İ", "e\u{0301}"]
        for seed in UInt64(1)...500 {
            var rng = SplitMix64(state: seed)
            let text = (0..<Int.random(in: 0...24, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
            #expect(SearchFolding.fold(text) == SearchFolding.foldWithFoundation(text), "seed \(seed): \(text.debugDescription)")
        }
    }
}
