import CofferFormats
import CofferModel
import Foundation
import Testing
import CofferTestSupport
@testable import CofferPipeline

/// A configuration folder written for one test.
private struct Folder {
    let path: String

    init(_ files: [String: String]) throws {
        path = NSTemporaryDirectory() + "coffer-layer-tests/" + UUID().uuidString
        for (name, text) in files {
            let file = path + "/" + name
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    var layer: ConfigurationLayer { get throws { try ConfigurationLayer.folder(path) } }
}

private func merchant(_ configuration: CofferConfiguration, _ text: String, amount: Decimal = 4,
                      _ indicator: CreditDebitIndicator = .debit) -> NormalizedDescription {
    configuration.normalizer.normalize(text: text, indicator: indicator,
                                       context: MerchantRuleContext(amount: amount, indicator: indicator))
}

@Suite("Configuration: layers")
struct ConfigurationLayerTests {
    @Test func builtInDefaultsAreTheConfigFolder() throws {
        let config = repositoryRoot + "/config"
        let fm = FileManager.default
        let onDisk = try fm.contentsOfDirectory(atPath: config).filter { $0.hasSuffix(".yaml") }
            + fm.contentsOfDirectory(atPath: config + "/profiles").filter { $0.hasSuffix(".yaml") }.map { "profiles/" + $0 }
        let builtIn = ConfigurationLayer.builtIn.files
        let hint = "config/ changed: run `python3 scripts/generate-shipped-defaults.py` to rebuild ShippedDefaults.swift"
        #expect(Set(builtIn.map(\.name)) == Set(onDisk), Comment(rawValue: hint))
        for file in builtIn {
            let text = try String(contentsOfFile: config + "/" + file.name, encoding: .utf8)
            #expect(file.text == text, Comment(rawValue: "\(file.name) differs from the built-in copy; \(hint)"))
        }
    }

    /// The shipped profiles are decoded only when a CSV needs them; loading the configuration reads their id and
    /// institution from two lines. Those must be what decoding gives, for every shipped profile.
    @Test func eachShippedProfilesFactsAreWhatDecodingGives() throws {
        let shipped = ConfigurationLayer.builtIn.files.filter { $0.name.hasPrefix("profiles/") }
        #expect(shipped.count >= 8)
        for file in shipped {
            let profile = try CSVProfileSet.decode(yaml: file.text, file: file.source)
            let facts = ShippedProfileFacts(yaml: file.text)
            #expect(facts == ShippedProfileFacts(id: profile.id, institution: profile.institution), "\(file.name)")
            // A CSV import decodes them without the unknown-key check (checked here, just above): the same profile.
            #expect(try CSVProfileSet.decode(yaml: file.text, file: file.source, checkingKeys: false) == profile)
        }
        // And without the check an unknown key is let through, where the check names it.
        let text = try #require(shipped.first?.text) + "\nsurplus_key: 1\n"
        let error = #expect(throws: CofferError.self) { try CSVProfileSet.decode(yaml: text, file: "surplus.yaml") }
        #expect(error?.description.contains("surplus_key") == true, "\(String(describing: error))")
        let first = try CSVProfileSet.decode(yaml: shipped[0].text, file: shipped[0].source)
        #expect(try CSVProfileSet.decode(yaml: text, file: "surplus.yaml", checkingKeys: false) == first)
        let configuration = try CofferConfiguration.load(layers: [.builtIn])
        for file in shipped {
            let item = try #require(configuration.report.items.first { $0.source == file.source })
            let profile = try #require(configuration.profiles.profile(id: item.id), "\(file.name)")
            #expect(item.detail == profile.institution)
        }
        #expect(configuration.profiles.profiles.count == shipped.count)
    }

    /// What the facts refuse (the profile is then decoded at once) and what they read.
    /// `plainScalar` reads ASCII values by bytes; on seeded random ASCII values it gives what the rule by
    /// Characters (`isLetter`, `isNumber`) gives, which non-ASCII values still use.
    @Test func plainScalarsByBytesAreTheCharacterRule() {
        func byCharacters(_ text: Substring) -> String? {
            let value = text.trimmingPrefix(while: { $0 == " " })
            let trimmed = value.reversed().drop(while: { $0 == " " || $0 == "\r" }).reversed()
            let allowed = trimmed.allSatisfy { $0.isLetter || $0.isNumber || " -_.&()".contains($0) }
            guard allowed, let first = trimmed.first, first.isLetter || first.isNumber else { return nil }
            return String(trimmed)
        }
        let alphabet = Array("aZq09 -_.&()\r:#\"'!/\t")
        for seed in UInt64(1)...5000 {
            var rng = SplitMix64(state: seed)
            let text = String((0..<Int.random(in: 0...10, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            #expect(ShippedProfileFacts.plainScalar(text[...]) == byCharacters(text[...]), "seed \(seed): \(Array(text.utf8))")
        }
        #expect(ShippedProfileFacts.plainScalar(" Café Müller ") == "Café Müller")
    }

    @Test func shippedProfileFactsReadOnlyPlainOneLineValues() {
        let base = "version: 1\nmatch:\n  header: [a, b]\n  id: nested\n"
        #expect(ShippedProfileFacts(yaml: base + "id: my-bank\ninstitution: Müller & Söhne (Köln)  \n")
                == ShippedProfileFacts(id: "my-bank", institution: "Müller & Söhne (Köln)"))
        for refused in ["id: \"quoted\"\ninstitution: A\n", "id: a # comment\ninstitution: A\n", "id: a\n",
                        "id: a\ninstitution: A\nid: b\n", "id: a\ninstitution: 'A'\n", "id: &x a\ninstitution: A\n",
                        "id: a\ninstitution: A: B\n", "id:\ninstitution: A\n", "id: a\ninstitution: |\n  A\n"] {
            #expect(ShippedProfileFacts(yaml: base + refused) == nil, "\(refused)")
        }
    }

    @Test func builtInAloneHasTheShippedRulesProfilesAndInstitutions() throws {
        let configuration = try CofferConfiguration.load(layers: [.builtIn])
        #expect(merchant(configuration, "CHECKCARD 0314 STARBUCKS STORE 05519 SEATTLE WA").merchantCategoryCode?.rawValue == 5814)
        #expect(configuration.profiles.profiles.map(\.id).contains("chase-checking"))
        #expect(configuration.institutions.institutions.contains { $0.id == "amex" })
        #expect(configuration.normalizer.categories.code(forCategory: "Restaurants")?.rawValue == 5812)
        #expect(configuration.report.item(.rule, "starbucks")?.source == "built-in:merchants.yaml")
        #expect(configuration.directory == nil)
    }

    @Test func aLaterLayerAddsAndOverridesByID() throws {
        let mine = try Folder([
            "merchants.yaml": """
                merchants:
                  - {id: starbucks, name: Starbucks Reserve, mcc: 5814, contains: [starbucks]}
                  - {name: Corner Cafe, mcc: 5814, contains: corner cafe}
                """,
            "categories.yaml": "categories:\n  Restaurants: 5814\n",
            "profiles/mybank.yaml": Workbench.testProfile.replacingOccurrences(of: "test-bank", with: "mybank"),
        ])
        let configuration = try CofferConfiguration.load(layers: [.builtIn, mine.layer])
        #expect(merchant(configuration, "STARBUCKS #123").merchantName == "Starbucks Reserve")
        #expect(merchant(configuration, "CORNER CAFE BERLIN").merchantName == "Corner Cafe")
        // The shipped rules the layer does not name are still there: the "own profile dropped every rule".
        #expect(merchant(configuration, "DUNKIN #3321").merchantName == "Dunkin'")
        #expect(configuration.normalizer.categories.code(forCategory: "Restaurants")?.rawValue == 5814)
        #expect(configuration.normalizer.categories.code(forCategory: "Grocery")?.rawValue == 5411)
        #expect(configuration.profiles.profiles.count == 9)
        let rule = try #require(configuration.report.item(.rule, "starbucks"))
        #expect(rule.source == mine.path + "/merchants.yaml")
        #expect(rule.overrides == ["built-in:merchants.yaml"])
        #expect(configuration.report.item(.category, "restaurants")?.overrides == ["built-in:categories.yaml"])
        #expect(configuration.report.item(.profile, "mybank")?.source == mine.path + "/profiles/mybank.yaml")
        #expect(configuration.directory == mine.path)
    }

    @Test func layersApplyInOrderAndCofferConfigComesLast() throws {
        func rule(_ name: String) -> String { "merchants:\n  - {id: cafe, name: \(name), contains: cafe}\n" }
        let home = try Folder(["coffer/merchants.yaml": rule("From Home")])
        let first = try Folder(["merchants.yaml": rule("From First")])
        let second = try Folder(["merchants.yaml": rule("From Second")])
        let environmentLayer = try Folder(["merchants.yaml": rule("From Environment")])
        let name = { (directories: [String], environment: [String: String]) throws -> String? in
            let configuration = try CofferConfiguration.standard(directories: directories, environment: environment)
            return merchant(configuration, "CAFE").merchantName
        }
        let xdg = ["XDG_CONFIG_HOME": home.path, "HOME": "/nonexistent"]
        #expect(try name([], xdg) == "From Home")
        #expect(try name([first.path], xdg) == "From First")
        #expect(try name([first.path, second.path], xdg) == "From Second")
        #expect(try name([second.path, first.path], xdg) == "From First")
        #expect(try name([first.path, second.path], xdg.merging(["COFFER_CONFIG": environmentLayer.path]) { $1 }) == "From Environment")
        let configuration = try CofferConfiguration.standard(directories: [first.path, second.path],
                                                             environment: xdg.merging(["COFFER_CONFIG": environmentLayer.path]) { $1 })
        #expect(configuration.report.layers == ["built-in", home.path + "/coffer", first.path, second.path, environmentLayer.path])
        #expect(configuration.report.item(.rule, "cafe")?.overrides
                == [home.path + "/coffer/merchants.yaml", first.path + "/merchants.yaml", second.path + "/merchants.yaml"])
        // The user folder named again (as the systemd unit does) is read once.
        #expect(try CofferConfiguration.standard(directories: [home.path + "/coffer/", first.path], environment: xdg).report.layers
                == ["built-in", home.path + "/coffer", first.path])
        // No user folder: the built-in defaults alone; a named folder that does not exist is an error.
        #expect(try CofferConfiguration.standard(environment: ["HOME": "/nonexistent"]).report.layers == ["built-in"])
        #expect(throws: CofferError.self) { try CofferConfiguration.standard(directories: ["/nonexistent/coffer"], environment: [:]) }
    }

    @Test func localFilesAreALayerAboveTheirFile() throws {
        let mine = try Folder([
            "merchants.yaml": "merchants:\n  - {id: cafe, name: Plain Cafe, contains: cafe}\n",
            "merchants.local.yaml": "merchants:\n  - {id: cafe, name: Local Cafe, contains: cafe}\n",
            "institutions.local.yaml": "institutions:\n  - {id: amex, names: [AmEx Rewards]}\n",
        ])
        let configuration = try CofferConfiguration.load(layers: [.builtIn, mine.layer])
        #expect(merchant(configuration, "CAFE").merchantName == "Local Cafe")
        #expect(configuration.report.item(.rule, "cafe")?.overrides == [mine.path + "/merchants.yaml"])
        let amex = try #require(configuration.institutions.institutions.first { $0.id == "amex" })
        #expect(amex.names.contains("American Express") && amex.names.contains("AmEx Rewards"))
        #expect(configuration.report.item(.institution, "amex")?.overrides == [mine.path + "/institutions.local.yaml"])
    }

    @Test func disableTurnsOffEarlierItemsAndWarnsOfUnknownIDs() throws {
        let mine = try Folder([
            "disable.yaml": "disable: [starbucks, profile:amex, institution:chase, category:Grocery, no-such-rule]\n",
            "merchants.yaml": "merchants:\n  - {id: dunkin, name: My Dunkin, contains: dunkin}\n",
        ])
        let configuration = try CofferConfiguration.load(layers: [.builtIn, mine.layer])
        #expect(merchant(configuration, "STARBUCKS #123").merchantCategoryCode == nil)
        #expect(configuration.profiles.profile(id: "amex") == nil)
        #expect(!configuration.institutions.institutions.contains { $0.id == "chase" })
        #expect(configuration.normalizer.categories.code(forCategory: "Grocery") == nil)
        // A layer's own items come after its disable: it may replace a shipped item under the same id.
        #expect(merchant(configuration, "DUNKIN #3321").merchantName == "My Dunkin")
        let disabled = configuration.report.items.filter { $0.disabledBy != nil }
        #expect(Set(disabled.map { "\($0.kind.rawValue):\($0.id)" }) == ["rule:starbucks", "profile:amex", "institution:chase", "category:grocery"])
        #expect(disabled.allSatisfy { $0.disabledBy == mine.path + "/disable.yaml" })
        #expect(configuration.report.warnings.count == 1)
        #expect(configuration.report.warnings.first?.contains(mine.path + "/disable.yaml") == true)
        #expect(configuration.report.warnings.first?.contains("no-such-rule") == true)
    }

    @Test func mistakesNameTheFileAndLine() throws {
        let cases: [(String, String, String)] = [
            ("merchants.yaml", "merchants:\n  - {name: A, contains: a, amount: {min: 10, max: 5}}\n", "min 10 is more than max 5"),
            ("merchants.yaml", "merchants:\n  - {name: A, contains: a, direction: out}\n", "'direction' must be debit"),
            ("merchants.yaml", "merchants:\n  - {name: A, contains: a, amount: -5}\n", "expected a positive amount"),
            ("merchants.yaml", "merchants:\n  - {name: Cafe, contains: a}\n  - {name: CAFE, contains: b}\n", "its id 'cafe' is also rule 1's"),
            ("disable.yaml", "disable: [shop:x]\n", "names no kind of item"),
            ("disable.yaml", "disabled: [x]\n", "unknown key 'disabled'"),
        ]
        for (name, text, message) in cases {
            let folder = try Folder([name: text])
            let error = try #require(throws: CofferError.self) { try CofferConfiguration.load(layers: [.builtIn, folder.layer]) }
            #expect(error.code == .badConfiguration)
            #expect(error.location?.file == folder.path + "/" + name)
            #expect(error.message.contains(message), Comment(rawValue: error.description))
        }
    }
}

@Suite("Configuration: rules on any text, amount, direction and account")
struct MerchantRuleConditionTests {
    static let rules = """
        merchants:
          - {id: globex-salary, name: Globex Payroll, contains: globex corp dir dep, direction: credit, type: directDeposit}
          - {id: big-rent, name: Landlord, contains: rent, amount: {min: 500}, direction: debit}
          - {id: small-rent, name: Rent Share, contains: rent, amount: {max: 499.99}}
          - {id: giro-fee, name: Giro Fee, account: Test Giro, amount: 4.95, direction: debit}
        """

    @Test func aRuleAppliesToAPayrollCredit() throws {
        let mine = try Folder(["merchants.yaml": Self.rules])
        let configuration = try CofferConfiguration.load(layers: [.builtIn, mine.layer])
        let salary = merchant(configuration, "GLOBEX CORP DIR DEP 031426 PPD", amount: 3200, .credit)
        #expect(salary.merchantName == "Globex Payroll")
        #expect(salary.display == "Globex Payroll")
        #expect(salary.transactionType == .directDeposit)
        // A shipped rule (scope: purchases) leaves a shop's name in a payroll credit alone; a user rule does not.
        let shop = merchant(configuration, "STARBUCKS CORP PAYROLL DIR DEP", amount: 2100, .credit)
        #expect(shop.merchantName == nil && shop.merchantCategoryCode == nil)
        let own = try Folder(["merchants.yaml": "merchants:\n  - {name: Starbucks Pay, contains: starbucks corp payroll}\n"])
        #expect(merchant(try CofferConfiguration.load(layers: [.builtIn, own.layer]), "STARBUCKS CORP PAYROLL DIR DEP",
                         amount: 2100, .credit).merchantName == "Starbucks Pay")
        // The same text as a debit is not a salary.
        #expect(merchant(configuration, "GLOBEX CORP DIR DEP 031426 PPD", amount: 3200, .debit).merchantName != "Globex Payroll")
    }

    @Test func amountRangesChooseBetweenRulesOfTheSameWords() throws {
        let mine = try Folder(["merchants.yaml": Self.rules])
        let configuration = try CofferConfiguration.load(layers: [.builtIn, mine.layer])
        #expect(merchant(configuration, "RENT MARCH", amount: 950).merchantName == "Landlord")
        #expect(merchant(configuration, "RENT MARCH", amount: 500).merchantName == "Landlord")
        #expect(merchant(configuration, "RENT MARCH", amount: 120).merchantName == "Rent Share")
        #expect(merchant(configuration, "RENT MARCH", amount: 950, .credit).merchantName != "Landlord")
    }

    @Test func accountRulesApplyOnlyToTheirAccount() throws {
        let mine = try Folder(["merchants.yaml": Self.rules])
        let configuration = try CofferConfiguration.load(layers: [.builtIn, mine.layer])
        let rules = configuration.normalizer.rules
        let giro = rules.accountMatches(id: UUID(), names: ["test giro"])
        let other = rules.accountMatches(id: UUID(), names: ["Savings"])
        func named(_ matches: [Bool], amount: Decimal) -> String? {
            configuration.normalizer.normalize(text: "KONTOFUEHRUNG", indicator: .debit,
                                               context: MerchantRuleContext(amount: amount, indicator: .debit, accountMatches: matches)).merchantName
        }
        #expect(named(giro, amount: 4.95) == "Giro Fee")
        #expect(named(giro, amount: 5) != "Giro Fee")
        #expect(named(other, amount: 4.95) != "Giro Fee")
        let id = UUID()
        #expect(MerchantRules([MerchantRule(name: "X", accounts: [id.uuidString])]).accountMatches(id: id, names: []) == [true])
    }

    @Test func anImportAppliesAccountRulesAndUsageCountsThem() async throws {
        let bench = try Workbench()
        let mine = try Folder([
            "merchants.yaml": Self.rules + "\n  - {id: savings-only, name: Savings Rent, contains: rent, account: [Savings]}\n",
            "profiles/test-bank.yaml": Workbench.testProfile,
        ])
        let configuration = try CofferConfiguration.load(layers: [.builtIn, mine.layer])
        let importer = Importer(store: bench.store, configuration: configuration)
        let path = try bench.file("giro.csv", """
            Date,Description,Amount,Status
            2026-03-01,RENT MARCH,-950.00,booked
            2026-03-02,KONTOFUEHRUNG,-4.95,booked
            2026-03-03,GLOBEX CORP DIR DEP 030326,3200.00,booked
            2026-03-04,STARBUCKS STORE 123,-4.50,booked
            """)
        #expect(try await importer.importFile(path).status == .imported)
        let byText = Dictionary(uniqueKeysWithValues: try await bench.transactions().map { ($0.originalTransactionDescription, $0) })
        #expect(byText["RENT MARCH"]?.merchantName == "Landlord")
        #expect(byText["KONTOFUEHRUNG"]?.merchantName == "Giro Fee")
        #expect(byText["GLOBEX CORP DIR DEP 030326"]?.merchantName == "Globex Payroll")
        #expect(byText["STARBUCKS STORE 123"]?.merchantCategoryCode?.rawValue == 5814)

        let usage = try await MerchantRuleUsage.measure(configuration.normalizer, in: bench.store)
        let byID = Dictionary(uniqueKeysWithValues: usage.map { ($0.rule.id, $0) })
        #expect(byID["big-rent"]?.matches == 1)
        #expect(byID["giro-fee"]?.matches == 1)
        #expect(byID["globex-salary"]?.matches == 1)
        #expect(byID["starbucks"]?.matches == 1)
        #expect(byID["small-rent"]?.matches == 0)
        #expect(byID["small-rent"]?.textMatches == 1)
        #expect(byID["small-rent"]?.reasons.contains { $0.contains("its words match 1 transaction, but not with its amount") } == true)
        let savings = try #require(byID["savings-only"])
        #expect(savings.matches == 0)
        #expect(savings.reasons.contains { $0.contains("names account 'Savings', which is no stored account's id or name") })
        #expect(byID["dunkin"]?.reasons == ["no stored transaction's text has 'dunkin' or 'dunkin donuts'"])
    }
}
