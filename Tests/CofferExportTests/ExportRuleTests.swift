@testable import CofferExport
import CofferModel
import Foundation
import Testing

/// The rules each format's text follows, one at a time, on the hand-made store.
@Suite struct ExportRuleTests {
    @Test func beancountNamesAreCapitalizedLettersDigitsAndDashes() {
        #expect(JournalText.account("Assets:Bank:Musterbank Köln eG:Konto (Köln) ••••2051", for: .beancount)
                == "Assets:Bank:Musterbank-Koln-eG:Konto-Koln-2051")
        #expect(JournalText.account("Assets:Bank:quill & ledger:straße", for: .beancount) == "Assets:Bank:Quill-ledger:Strasse")
        #expect(JournalText.account("Assets:Bank:Quill & Ledger; [x]:A  B", for: .hledger) == "Assets:Bank:Quill & Ledger x:A B")
    }

    @Test func commoditiesAreISOCodesOrMadeAcceptable() {
        #expect(JournalText.commodity("USD", for: .beancount) == "USD")
        #expect(JournalText.commodity("x1", for: .beancount) == "X1")
        #expect(JournalText.commodity("BTC2", for: .hledger) == "\"BTC2\"")
    }

    @Test func eachTransactionIsWrittenOnceWithItsIdAndTexts() {
        let text = ExportFixture.render(.beancount).text
        for t in ExportFixture.transactions where t.status == .booked {
            #expect(text.components(separatedBy: "coffer-id: \"\(t.id.uuidString)\"").count == 2, "\(t.transactionDescription)")
        }
        #expect(text.contains(#"original: "CAFE \"LE PETIT\" \\ BAR PARIS""#))
        #expect(!text.contains("Parking"), "pending rows only with includePending")
        #expect(ExportFixture.render(.beancount, includePending: true).text.contains("2026-03-08 ! \"Parking\""))
    }

    @Test func hledgerDescriptionsLoseOnlyTheirSeparators() {
        let text = ExportFixture.render(.hledger).text
        #expect(text.contains("2026-03-03 * Payroll / ACME, March\n"))
        #expect(text.contains("; original: ACME CORP PAYROLL; REF 7|2\n"), "inside a comment, ; and | are text")
        #expect(ExportFixture.render(.ledger).text.contains("2026/03/03 * Payroll | ACME, March\n"))
    }

    @Test func anOwnTransferIsOneTransactionBetweenTheTwoAccounts() {
        let text = ExportFixture.render(.hledger).text
        #expect(!text.contains("Expenses:Uncategorized                        500.00 USD"))
        #expect(text.contains("    Assets:Bank:Birchwood Bank:Savings 9911       500.00 USD  ; date:2026-03-06\n"))
        // Half of it alone (the other account not exported) goes to the transfers account.
        var options = ExportOptions(format: .hledger)
        options.accountIDs = [ExportFixture.checking]
        let alone = Exporter.render(accounts: ExportFixture.accounts, transactions: ExportFixture.transactions, balances: [],
                                    options: options, names: JournalAccountNames(), classifier: ExportFixture.classifier, resuming: nil).text
        #expect(squeezed(alone).contains(" Assets:Transfers 500.00 USD\n"))
    }

    @Test func balancesAreAssertedWhereTheToolsCheckThem() {
        let hledger = ExportFixture.render(.hledger).text
        #expect(hledger.contains("-500.00 USD = 2645.50 USD\n"), "on the last posting of the as-of day")
        #expect(hledger.contains("2026-03-04 * Statement balance\n    Assets:Bank:Birchwood Bank:Household checking   0.00 USD = 3145.50 USD\n"),
                "a day without a posting: a zero posting of its own")
        let beancount = ExportFixture.render(.beancount).text
        #expect(beancount.contains("2026-03-06 balance Assets:Bank:Birchwood-Bank:Household-checking  2645.50 USD\n"),
                "beancount: the day after the as-of day")
        #expect(beancount.contains("2026-03-10 balance Liabilities:Card:Summit-Travel-Card:Summit-Card  -60.25 USD\n"),
                "a card's debt is negative")
    }

    @Test func aBalanceTheTransactionsDoNotReachIsACommentAndAWarning() {
        let output = ExportFixture.render(.beancount)
        #expect(output.text.contains("; 2026-02-28 balance Assets:Bank:Musterbank-Koln-eG:Konto-Koln  480.00 EUR\n"))
        #expect(output.warnings.count == 1)
        #expect(output.warnings.first?.contains("480.00 EUR") == true)
    }

    @Test func theMappingFileNamesAccountsAndCategories() throws {
        var names = JournalAccountNames()
        try names.read(yaml: """
            accounts:
              \(ExportFixture.checking.uuidString): Assets:Checking
            expenses:
              dining: Expenses:Food:Eating-Out
            opening: Equity:Start
            """, file: "export.yaml")
        let text = squeezed(ExportFixture.render(.hledger, names: names).text)
        #expect(text.contains(" Assets:Checking -4.50 USD\n"))
        #expect(text.contains(" Expenses:Food:Eating-Out 4.50 USD\n"), "Blue Bottle's MCC 5814 is dining")
        #expect(text.contains(" Income:Salary -2150.00 USD\n"), "the default for a category without an entry")
        #expect(text.contains(" Equity:Start -1000.00 USD\n"))
    }

    @Test func aBadMappingFileSaysWhereAndWhat() {
        var names = JournalAccountNames()
        #expect {
            try names.read(yaml: "accounts:\n  not-an-id: Assets:X\n", file: "export.yaml")
        } throws: { error in
            let e = error as? CofferError
            return e?.code == .badConfiguration && e?.location?.line == 2 && e?.message.contains("not an account id") == true
        }
        #expect {
            try names.read(yaml: "opening: Capital:Start\n", file: "export.yaml")
        } throws: { error in
            (error as? CofferError)?.message.contains("must start with one of Assets") == true
        }
    }

    @Test func anIncrementalExportWritesOnlyWhatIsNew() throws {
        let first = Array(ExportFixture.transactions.prefix(2))
        let one = ExportFixture.render(.beancount, transactions: first, state: ExportState(format: .beancount))
        let state = try #require(one.state)
        #expect(state.exported == Set(first.map(\.id)))
        let two = ExportFixture.render(.beancount, state: state)
        #expect(!two.text.contains("Written by coffer export"), "the header only once")
        #expect(!two.text.contains(first[0].id.uuidString))
        #expect(two.text.contains(ExportFixture.transactions[2].id.uuidString))
        #expect(!two.text.contains("open Expenses:Dining"), "accounts opened once")
        #expect(two.text.contains("open Expenses:Uncategorized"), "an account first used now is opened now")
        #expect(two.state?.exported.count == ExportFixture.transactions.filter { $0.status == .booked }.count)
        let three = ExportFixture.render(.beancount, state: two.state)
        #expect(three.transactionCount == 0 && three.assertionCount == 0)
    }
}

/// The text with runs of spaces as one (the columns' alignment aside).
func squeezed(_ text: String) -> String {
    text.replacingOccurrences(of: " +", with: " ", options: .regularExpression)
}
