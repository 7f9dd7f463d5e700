import CofferStore
import Foundation
import GRDB
import Testing

/// `TransactionQuery.searchText` ignores case and diacritics (`txn.folded_text`, migration v15-folded-text), treats
/// `%` and `_` as plain characters, and follows a row's text when a later write changes it.
@Suite struct FoldedSearchTests {
    static let texts = ["Café Müller", "Bargeldauszahlung GA Köln Hbf", "STRASSENBAHN KÖLN", "Crème de la Crème Œuvre",
                        "Ålesund Fiskemarked", "Øresund Bro", "Selin Yılmaz", "İSTANBUL KEBAP", "Corner Cafe",
                        "50% OFF SALE", "500 OFF", "A_B TRADING", "AXB TRADING"]

    func storeWithTexts() throws -> (FinanceStore, [Transaction]) {
        let (store, _) = try makeStore()
        let account = try addAccount(store)
        let rows = Self.texts.enumerated().map { index, text in
            makeTransaction(account.id, "\(index + 1)", on: "2026-03-\(String(format: "%02d", index + 1))", text)
        }
        try insert(store, rows)
        return (store, rows)
    }

    func found(_ store: FinanceStore, _ text: String) async throws -> [String] {
        try await store.transactions(query: TransactionQuery(searchText: text)).map(\.transactionDescription)
    }

    @Test func germanFrenchNordicAndTurkishTextIsFoundWithoutItsAccents() async throws {
        let (store, _) = try storeWithTexts()
        #expect(try await found(store, "muller") == ["Café Müller"])
        #expect(try await found(store, "CAFE") == ["Café Müller", "Corner Cafe"])
        #expect(try await found(store, "koln") == ["Bargeldauszahlung GA Köln Hbf", "STRASSENBAHN KÖLN"])
        #expect(try await found(store, "Straße") == ["STRASSENBAHN KÖLN"])
        #expect(try await found(store, "creme de la") == ["Crème de la Crème Œuvre"])
        #expect(try await found(store, "oeuvre") == ["Crème de la Crème Œuvre"])
        #expect(try await found(store, "alesund") == ["Ålesund Fiskemarked"])
        #expect(try await found(store, "oresund") == ["Øresund Bro"])
        #expect(try await found(store, "yilmaz") == ["Selin Yılmaz"])
        #expect(try await found(store, "YILMAZ") == ["Selin Yılmaz"])
        #expect(try await found(store, "istanbul") == ["İSTANBUL KEBAP"])
        #expect(try await found(store, "ıstanbul") == ["İSTANBUL KEBAP"])
    }

    @Test func percentAndUnderscoreArePlainCharacters() async throws {
        let (store, _) = try storeWithTexts()
        #expect(try await found(store, "50%") == ["50% OFF SALE"])
        #expect(try await found(store, "%") == ["50% OFF SALE"])
        #expect(try await found(store, "a_b") == ["A_B TRADING"])
        #expect(try await found(store, "_") == ["A_B TRADING"])
        #expect(try await found(store, "\\") == [])
        #expect(try await found(store, "").count == Self.texts.count)
    }

    @Test func aRowUpdatedByALaterWriteIsFoundByItsNewTextOnly() async throws {
        let (store, rows) = try storeWithTexts()
        var changed = rows[0]
        changed.transactionDescription = "Konditorei Schäfer"
        changed.originalTransactionDescription = "KONDITOREI SCHÄFER"
        changed.merchantName = "Konditorei Schäfer"
        try store.write { try $0.update(changed, keys: DedupeKeys(externalID: changed.id.uuidString)) }
        #expect(try await found(store, "muller") == [])
        #expect(try await found(store, "schafer") == ["Konditorei Schäfer"])
    }

    /// An import folds the texts on its parsing thread (`EncodedAmounts`); a text changed after that is folded again.
    @Test func textsChangedAfterTheirAmountsWereEncodedAreFoldedAgain() async throws {
        let (store, _) = try makeStore()
        let account = try addAccount(store)
        let original = makeTransaction(account.id, "3.20", on: "2026-04-01", "Corner Bakery")
        let amounts = EncodedAmounts(original)
        var changed = original
        changed.transactionDescription = "Bäckerei Köln"
        changed.merchantName = "Bäckerei Köln"
        try store.write { try $0.insert(changed, keys: DedupeKeys(externalID: "X1"), amounts: amounts) }
        #expect(try await found(store, "backerei koln") == ["Bäckerei Köln"])
        #expect(try await found(store, "corner") == ["Bäckerei Köln"], "the original description is still CORNER BAKERY")
        try store.write { try $0.insert(makeTransaction(account.id, "4", on: "2026-04-02", "Øst Kiosk"), keys: DedupeKeys(externalID: "X2"),
                                        amounts: EncodedAmounts(makeTransaction(account.id, "4", on: "2026-04-02", "Øst Kiosk"))) }
        #expect(try await found(store, "ost kiosk") == ["Øst Kiosk"])
    }

    @Test func theSearchAgreesWithSwiftOnEveryText() async throws {
        let (store, rows) = try storeWithTexts()
        for query in ["e", "É", "cafe ", "  koln", "oe", "o", "ı", "i", "50", "ab", "crème de"] {
            let expected = rows.filter { $0.matchesSearchText(query) }.map(\.transactionDescription)
            #expect(try await found(store, query) == expected, "\(query)")
        }
    }
}
