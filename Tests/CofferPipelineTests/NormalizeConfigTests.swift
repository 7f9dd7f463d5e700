import CofferModel
import CofferTestSupport
import Foundation
import Testing
@testable import CofferPipeline

@Suite("Normalize: configuration files")
struct NormalizeConfigTests {
    @Test func shippedFilesLoad() throws {
        let rules = try MerchantRules.load(defaults: NormalizeFixtures.merchantsFile, user: nil)
        #expect(rules.rules.count >= 80)
        #expect(rules.rules.allSatisfy { $0.merchantCategoryCode?.isKnown ?? true })
        let categories = try CategoryMCCTable.load(defaults: NormalizeFixtures.categoriesFile, user: nil)
        #expect(categories.code(forCategory: "Restaurants")?.rawValue == 5812)
        #expect(categories.code(forCategory: "food & drink")?.rawValue == 5812)
        #expect(categories.code(forCategory: "FOOD_AND_DRINK")?.rawValue == 5812)
        #expect(categories.code(forCategory: "  Eating out ")?.rawValue == 5812)
        #expect(categories.code(forCategory: "LEBENSMITTEL")?.rawValue == 5411)
        #expect(categories.code(forCategory: "Öffentliche Verkehrsmittel")?.rawValue == 4111)
        #expect(categories.code(forCategory: "Transfers") == nil)
        #expect(categories.code(forCategory: "no such category") == nil)
    }

    @Test func userRulesOverrideAndExtendDefaults() throws {
        let user = try NormalizeFixtures.temporaryFile("""
            merchants:
              - name: starbucks
                mcc: 5812
                contains: starbucks
              - name: Corner Bakery
                mcc: 5462
                contains: [corner bakery]
                type: pointOfSale
              - name: PayPal Transfer
                prefix: paypal inst xfer
                on: raw
                type: transfer
            """, name: "my-merchants.yaml")
        let rules = try MerchantRules.load(defaults: NormalizeFixtures.merchantsFile, user: user)
        #expect(rules.match(raw: "STARBUCKS #123", cleaned: "Starbucks")?.merchantCategoryCode?.rawValue == 5812)
        #expect(rules.match(raw: "SQ *CORNER BAKERY 12", cleaned: "Corner Bakery")?.name == "Corner Bakery")
        #expect(rules.match(raw: "PAYPAL INST XFER 1234", cleaned: "PayPal Inst Xfer")?.name == "PayPal Transfer")
        #expect(rules.match(raw: "NETFLIX.COM", cleaned: "Netflix.com")?.name == "Netflix")
    }

    @Test func longestPatternWinsAndWordsMatchWhole() {
        let rules = MerchantRules([
            MerchantRule(name: "Whole Foods", contains: ["whole foods"]),
            MerchantRule(name: "Whole Foods Market", contains: ["whole foods market"]),
            MerchantRule(name: "Shell", contains: ["shell"]),
            MerchantRule(name: "Anchored", prefixes: ["abc"]),
        ])
        #expect(rules.match(raw: "", cleaned: "WHOLE FOODS MARKET 123")?.name == "Whole Foods Market")
        #expect(rules.match(raw: "", cleaned: "Whole Foods")?.name == "Whole Foods")
        #expect(rules.match(raw: "SHELLFISH", cleaned: "Shellfish") == nil)
        #expect(rules.match(raw: "", cleaned: "ABC Store")?.name == "Anchored")
        #expect(rules.match(raw: "", cleaned: "Store ABC") == nil)
    }

    /// Each broken rules file, the line the error must point at, and words the message must contain.
    static let brokenRules: [(yaml: String, line: Int, words: [String])] = [
        ("merchants:\n  - name: Cafe\n    mcc: 5814\n    contian: [cafe]\n", 4, ["rule 1 (Cafe)", "unknown key 'contian'"]),
        ("merchants:\n  - name: A\n    contains: a\n  - name: B\n    mcc: abc\n    contains: b\n", 5,
         ["rule 2 (B)", "'mcc'", "'abc'"]),
        ("merchants:\n  - mcc: 5814\n    contains: x\n", 2, ["rule 1", "missing 'name'"]),
        ("merchants:\n  - name: Nothing\n    mcc: 5814\n", 2, ["rule 1 (Nothing)", "'contains' or 'prefix'"]),
        ("merchants:\n  - name: T\n    contains: t\n    type: purchase\n", 4, ["rule 1 (T)", "'type'", "'purchase'"]),
        ("merchants:\n  - name: P\n    contains: '***'\n", 3, ["rule 1 (P)", "no letters or digits"]),
        ("merchants:\n  - name: O\n    contains: o\n    on: both\n", 4, ["rule 1 (O)", "'on'"]),
        ("merchants: [\n  - name: X\n", 2, ["not valid YAML"]),
        ("rules:\n  - name: X\n", 1, ["unknown key 'rules'"]),
        ("merchants:\n  name: X\n", 2, ["'merchants' must be a list"]),
        ("- name: X\n", 1, ["expected a mapping"]),
        ("", 1, ["empty"]),
    ]

    @Test("broken rules files name the file, the line and the rule", arguments: 0..<brokenRules.count)
    func brokenRulesFile(_ index: Int) throws {
        let example = Self.brokenRules[index]
        let path = try NormalizeFixtures.temporaryFile(example.yaml, name: "merchants.yaml")
        do {
            _ = try MerchantRules.load(defaults: NormalizeFixtures.merchantsFile, user: path)
            Issue.record("expected an error for \(example.yaml)")
        } catch let error as CofferError {
            #expect(error.code == .badConfiguration)
            #expect(error.location?.file == path)
            #expect(error.location?.line == example.line)
            for word in example.words { #expect(error.message.contains(word), "\(error)") }
        }
    }

    @Test func brokenCategoriesFile() throws {
        let path = try NormalizeFixtures.temporaryFile("categories:\n  Groceries: 5411\n  Dining: 58120\n", name: "categories.yaml")
        let error = try #require(throws: CofferError.self) {
            try CategoryMCCTable.load(defaults: NormalizeFixtures.categoriesFile, user: path)
        }
        #expect(error.code == .badConfiguration)
        #expect(error.location?.file == path)
        #expect(error.location?.line == 3)
        #expect(error.message.contains("'Dining'") && error.message.contains("'58120'"))
    }

    @Test func userCategoriesOverride() throws {
        let path = try NormalizeFixtures.temporaryFile("categories:\n  Restaurants: 5814\n  Kaffee: 5814\n", name: "c.yaml")
        let table = try CategoryMCCTable.load(defaults: NormalizeFixtures.categoriesFile, user: path)
        #expect(table.code(forCategory: "restaurants")?.rawValue == 5814)
        #expect(table.code(forCategory: "Kaffee")?.rawValue == 5814)
        #expect(table.code(forCategory: "Grocery")?.rawValue == 5411)
    }

    @Test func missingFileIsAnIOError() {
        #expect(throws: CofferError.self) {
            try MerchantRules.load(defaults: "/nonexistent/merchants.yaml", user: nil)
        }
    }

    /// `trimmingWhitespace` trims what Foundation's `trimmingCharacters(in: .whitespaces)` trims, on seeded random
    /// texts of letters, ASCII and Unicode blanks (tab, no-break and other space separators, line breaks, which
    /// neither trims) at either end and inside.
    @Test func trimmingWhitespaceIsFoundationsTrim() {
        let pieces = ["a", "Z", "é", "日", "-", " ", "\t", "\u{A0}", "\u{2003}", "\u{3000}", "\n", "\r\n", "\u{200B}", "\u{FEFF}"]
        #expect("".trimmingWhitespace == "")
        for seed in UInt64(1)...3000 {
            var rng = SplitMix64(state: seed)
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespaces), "seed \(seed): \(text.unicodeScalars.map { $0.value })")
            let sub = text.dropFirst()
            #expect(sub.trimmingWhitespace == sub.trimmingCharacters(in: .whitespaces), "seed \(seed), substring")
        }
    }
}
