@testable import CofferPipeline
import CofferModel
import Foundation
import Testing

/// A transaction as reports see it, built by hand.
func reportTransaction(_ text: String, _ amount: String, _ indicator: CreditDebitIndicator = .debit, day: String = "2026-03-14",
                       currency: String = "USD", account: UUID = UUID(), mcc: Int16? = nil, type: TransactionType = .pointOfSale,
                       status: TransactionStatus = .booked, merchant: String? = nil) -> Transaction {
    Transaction(id: UUID(), accountID: account,
                transactionAmount: CurrencyAmount(amount: ExactDecimal.parse(amount)!, currencyCode: currency),
                creditDebitIndicator: indicator, transactionDescription: text, originalTransactionDescription: text,
                merchantCategoryCode: mcc.map { MerchantCategoryCode(rawValue: $0) }, merchantName: merchant,
                transactionType: type, status: status, transactionDate: CalendarDay.parse(day)!)
}

@Suite struct CategoriesTests {
    let shipped = try! CofferConfiguration.load(layers: [.builtIn]).categorizer

    @Test func theShippedTableGroupsCodesAsCardNetworksDo() {
        func category(_ code: Int16) -> String? { shipped.table.category(for: MerchantCategoryCode(rawValue: code)) }
        #expect(category(5411) == "groceries")
        #expect(category(5812) == "dining")
        #expect(category(5814) == "dining")
        #expect(category(3005) == "travel")        // an airline's own code
        #expect(category(3640) == "travel")        // a hotel chain's
        #expect(category(7011) == "travel")
        #expect(category(4121) == "transport")
        #expect(category(5541) == "car")
        #expect(category(4900) == "utilities")
        #expect(category(5912) == "health")        // inside shopping's 5832-5999, the narrower entry wins
        #expect(category(5311) == "shopping")
        #expect(category(7832) == "entertainment")
        #expect(category(6011) == "cash")
        #expect(category(1) == nil)
    }

    @Test func everyCodeOfTheISOListHasACategory() {
        let missing = MerchantCategoryCode.allKnown.filter { shipped.table.category(for: $0) == nil && $0.rawValue < 9700 }
        #expect(missing.map(\.code) == [])
    }

    @Test func mccThenRulesThenTypeThenUncategorized() throws {
        let rules = MerchantRules([MerchantRule(name: "Blue Bottle", contains: ["blue bottle"])].map { var r = $0; r.category = "coffee"; return r })
        var categoryRule = MerchantRule(name: "gym", contains: ["city gym"])
        categoryRule.category = "health"
        let categorizer = Categorizer(table: MCCCategoryTable([.init(category: "dining", ranges: [5811...5814])]),
                                      merchantRules: rules, categoryRules: MerchantRules([categoryRule]),
                                      typeCategories: [.fee: "fees"])
        // A merchant rule's category wins, even over the MCC.
        #expect(categorizer.categorize(reportTransaction("BLUE BOTTLE COFFEE #12", "4.50", mcc: 5814))
                == .init(category: "coffee", source: .merchantRule, ruleID: "blue-bottle"))
        #expect(categorizer.categorize(reportTransaction("SOME CAFE", "4.50", mcc: 5814)).source == .mcc)
        // No MCC: a category rule, then the type, then uncategorized.
        #expect(categorizer.category(of: reportTransaction("CITY GYM MONTHLY", "39.00", type: .directDebit)) == "health")
        #expect(categorizer.category(of: reportTransaction("MONTHLY FEE", "5.00", type: .fee)) == "fees")
        #expect(categorizer.categorize(reportTransaction("XYZ 123", "5.00")) == .init(category: "uncategorized", source: .none))
        // An MCC no range holds falls through to the rules.
        #expect(categorizer.category(of: reportTransaction("CITY GYM", "39.00", mcc: 9999)) == "health")
    }

    @Test func rulesWithConditionsSeeTheAmountDirectionAndAccount() {
        let checking = Account.asset(AssetAccount(id: UUID(), displayName: "Household checking", institutionName: "Bank", currencyCode: "USD"))
        var rule = MerchantRule(name: "rent", contains: ["maple properties"], direction: .debit, accounts: ["household checking"])
        rule.category = "home"
        let categorizer = Categorizer(categoryRules: MerchantRules([rule]))
        let paid = reportTransaction("MAPLE PROPERTIES", "1500.00", account: checking.id)
        let refunded = reportTransaction("MAPLE PROPERTIES", "1500.00", .credit, account: checking.id)
        #expect(categorizer.category(of: paid, account: checking) == "home")
        #expect(categorizer.category(of: refunded, account: checking) == "uncategorized")
        #expect(categorizer.category(of: paid, account: nil) == "uncategorized")
        #expect(categorizer.categories(of: [paid, refunded], accounts: [checking]) == [paid.id: "home", refunded.id: "uncategorized"])
    }

    @Test func aUserLayerOverridesCodesCategoriesRulesAndTypes() throws {
        let folder = NSTemporaryDirectory() + "coffer-categories-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
            categories:
              coffee: [5814]
              travel: [4511]
            rules:
              - {contains: [corner roastery], category: coffee}
            types:
              fee: bank charges
            """.write(toFile: folder + "/mcc-categories.yaml", atomically: true, encoding: .utf8)
        try """
            merchants:
              - {name: Corner Deli, contains: [corner deli], category: groceries}
            """.write(toFile: folder + "/merchants.yaml", atomically: true, encoding: .utf8)
        let configuration = try CofferConfiguration.load(layers: [.builtIn, .folder(folder)])
        let c = configuration.categorizer
        #expect(c.table.category(for: MerchantCategoryCode(rawValue: 5814)) == "coffee")  // taken out of dining
        #expect(c.table.category(for: MerchantCategoryCode(rawValue: 5812)) == "dining")
        #expect(c.table.category(for: MerchantCategoryCode(rawValue: 4511)) == "travel")
        #expect(c.table.category(for: MerchantCategoryCode(rawValue: 3005)) == nil)         // travel replaced: only 4511 now
        #expect(c.category(of: reportTransaction("CORNER ROASTERY", "3.00")) == "coffee")
        #expect(c.category(of: reportTransaction("CORNER DELI 42", "8.00")) == "groceries")
        #expect(c.category(of: reportTransaction("OVERDRAFT FEE", "25.00", type: .fee)) == "bank charges")
        #expect(c.category(of: reportTransaction("ATM WITHDRAWAL", "60.00", type: .atm)) == "cash")  // the built-in type entry
        // The same folder alone (load(directory:)) reads its own files the same way.
        let alone = try CofferConfiguration.load(directory: folder).categorizer
        #expect(alone.category(of: reportTransaction("CORNER ROASTERY", "3.00")) == "coffee")
        #expect(alone.table.category(for: MerchantCategoryCode(rawValue: 5812)) == nil)
    }

    @Test func mistakesNameTheFileLineAndEntry() {
        func message(_ yaml: String) -> String {
            do {
                _ = try MCCCategoryFile.parse(yaml: yaml, file: "mine.yaml")
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(message("categories:\n  dining: [5811-58x4]\n").contains("mine.yaml:2"))
        #expect(message("categories:\n  dining: [5811-58x4]\n").contains("'5811-58x4' is not a merchant category code"))
        #expect(message("categories:\n  dining: [5814-5811]\n").contains("the lower first"))
        #expect(message("rules:\n  - {contains: [x]}\n").contains("missing 'category'"))
        #expect(message("rules:\n  - {contains: [x], category: a, mcc: 5411}\n").contains("unknown key 'mcc'"))
        #expect(message("types:\n  salary: income\n").contains("'salary' is not a transaction type"))
        #expect(message("colors: {}\n").contains("unknown key 'colors'"))
    }

    @Test func merchantRulesTakeACategory() throws {
        let rules = try MerchantRules.parse(yaml: "merchants:\n  - {name: Blue Bottle, contains: blue bottle, category: coffee}\n", file: "m.yaml")
        #expect(rules.first?.category == "coffee")
        #expect(throws: CofferError.self) {
            try MerchantRules.parse(yaml: "merchants:\n  - {name: X, contains: x, category: [a, b]}\n", file: "m.yaml")
        }
    }
}
