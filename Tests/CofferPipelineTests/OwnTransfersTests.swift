@testable import CofferPipeline
import CofferModel
import Foundation
import Testing

@Suite struct OwnTransfersTests {
    let checking = Account.asset(AssetAccount(id: UUID(), displayName: "Everyday Checking", institutionName: "Birchwood Bank", currencyCode: "USD"))
    let savings = Account.asset(AssetAccount(id: UUID(), displayName: "Rainy Day", institutionName: "Harbor Credit Union", currencyCode: "USD"))
    let card = Account.liability(LiabilityAccount(id: UUID(), displayName: "Visa", institutionName: "Northwind Card Services",
                                                  currencyCode: "USD", creditInformation: AccountCreditInformation()))
    var accounts: [Account] { [checking, savings, card] }
    var masked: [UUID: String] { [checking.id: "••••5566", savings.id: "••••7788", card.id: "••••4321"] }

    @Test func bothSidesNamingTheOtherAccountPair() {
        let out = reportTransaction("ONLINE TRANSFER TO SAV XXXXXX7788", "500.00", day: "2026-03-02", account: checking.id, type: .unknown)
        let into = reportTransaction("DEPOSIT FROM CHECKING", "500.00", .credit, day: "2026-03-04", account: savings.id, type: .deposit)
        let coffee = reportTransaction("STARBUCKS", "500.00", day: "2026-03-02", account: checking.id)
        let found = OwnTransfers.find(in: [out, into, coffee], accounts: accounts, maskedNumbers: masked)
        #expect(found.pairs == [.init(debit: out.id, credit: into.id)])
        #expect(found.contains(out.id) && found.contains(into.id) && !found.contains(coffee.id))
        #expect(found.counterpart(of: into.id) == out.id)
    }

    @Test func aCardPaymentNamingTheCardsInstitutionPairs() {
        let payment = reportTransaction("NORTHWIND CARD SVCS AUTOPAY", "812.40", day: "2026-03-20", account: checking.id, type: .billPayment)
        let received = reportTransaction("PAYMENT THANK YOU", "812.40", .credit, day: "2026-03-21", account: card.id, type: .unknown)
        #expect(OwnTransfers.find(in: [payment, received], accounts: accounts, maskedNumbers: masked).pairs.count == 1)
    }

    @Test func aTransferTypeIsEnoughEvidence() {
        let out = reportTransaction("XFER 88121", "50.00", day: "2026-03-02", account: checking.id, type: .transfer)
        let into = reportTransaction("INCOMING 88121", "50.00", .credit, day: "2026-03-02", account: savings.id, type: .deposit)
        #expect(OwnTransfers.find(in: [out, into], accounts: accounts).pairs.count == 1)
    }

    @Test func whatIsNotAnOwnTransfer() {
        let out = reportTransaction("ONLINE TRANSFER TO SAV XXXXXX7788", "500.00", day: "2026-03-02", account: checking.id)
        // Six days apart, another amount, another currency, the same account, no evidence, rejected.
        let late = reportTransaction("DEPOSIT", "500.00", .credit, day: "2026-03-08", account: savings.id, type: .transfer)
        let other = reportTransaction("DEPOSIT", "500.01", .credit, day: "2026-03-02", account: savings.id, type: .transfer)
        let euro = reportTransaction("DEPOSIT", "500.00", .credit, day: "2026-03-02", currency: "EUR", account: savings.id, type: .transfer)
        let same = reportTransaction("DEPOSIT", "500.00", .credit, day: "2026-03-02", account: checking.id, type: .transfer)
        let refund = reportTransaction("AMAZON REFUND", "19.99", .credit, day: "2026-03-02", account: card.id, type: .refund)
        let purchase = reportTransaction("AMAZON", "19.99", day: "2026-03-01", account: checking.id)
        var rejected = reportTransaction("DEPOSIT FROM CHECKING", "500.00", .credit, day: "2026-03-02", account: savings.id)
        rejected.status = .rejected
        let found = OwnTransfers.find(in: [out, late, other, euro, same, refund, purchase, rejected], accounts: accounts, maskedNumbers: masked)
        #expect(found.pairs.isEmpty && found.ids.isEmpty)
    }

    @Test func eachTransactionPairsOnceTheNearestFirst() {
        let out = reportTransaction("TRANSFER TO RAINY DAY", "100.00", day: "2026-03-05", account: checking.id)
        let far = reportTransaction("FROM EVERYDAY CHECKING", "100.00", .credit, day: "2026-03-09", account: savings.id)
        let near = reportTransaction("FROM EVERYDAY CHECKING", "100.00", .credit, day: "2026-03-06", account: savings.id)
        let found = OwnTransfers.find(in: [out, far, near], accounts: accounts)
        #expect(found.pairs == [.init(debit: out.id, credit: near.id)])
        #expect(!found.contains(far.id))
    }

    @Test func aRuleMakesATransferOwnWithoutItsOtherSide() throws {
        let rules = MerchantRules(try MerchantRules.parseTransfers(yaml: """
            transfers:
              - {id: pension, contains: [vanguard buy], direction: debit}
            """, file: "transfers.yaml"))
        let buy = reportTransaction("VANGUARD BUY 4471", "250.00", account: checking.id)
        let sold = reportTransaction("VANGUARD BUY 4471", "250.00", .credit, account: checking.id)
        let found = OwnTransfers.find(in: [buy, sold], accounts: accounts, rules: rules)
        #expect(found.contains(buy.id) && found.unpaired == [buy.id] && !found.contains(sold.id))
        #expect(rules.rules.first?.id == "pension")
    }

    @Test func transferRulesComeFromTheLayers() throws {
        let folder = NSTemporaryDirectory() + "coffer-transfers-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "transfers:\n  - {name: Sweep, contains: [sweep to sav]}\n".write(toFile: folder + "/transfers.yaml", atomically: true, encoding: .utf8)
        let configuration = try CofferConfiguration.load(layers: [.builtIn, .folder(folder)])
        #expect(configuration.transferRules.rules.map(\.name) == ["Sweep"])
        #expect(try CofferConfiguration.load(directory: folder).transferRules.rules.count == 1)
        try "transfers:\n  - {name: Sweep}\n".write(toFile: folder + "/transfers.yaml", atomically: true, encoding: .utf8)
        #expect { try CofferConfiguration.load(layers: [.builtIn, .folder(folder)]) } throws: { error in
            "\(error)".contains("transfers.yaml:2") && "\(error)".contains("needs 'contains' or 'prefix'")
        }
    }
}
