@testable import CofferPipeline
@testable import CofferStore
import Foundation
import Testing

/// Issue 18: FinanceKit's saveOrder/containsOrder on the sample archives of Tests/Golden/orders
/// (scripts/make-sample-orders.py), the refusals, the signature with and without trust anchors, and the link to the
/// transaction that paid.
@Suite struct OrderTests {
    static let folder = repositoryRoot + "/Tests/Golden/orders/"
    static let greenleaf = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.greenleaf", orderIdentifier: "GL-2026-0301-7731")
    static let v1Updated = ISO8601DateFormatter().date(from: "2026-03-01T23:12:00Z")!
    static let v2Updated = ISO8601DateFormatter().date(from: "2026-03-03T14:00:00Z")!

    static func archive(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder + name + ".order"))
    }

    static func trust() throws -> OrderTrustAnchors {
        try OrderTrustAnchors(pem: String(contentsOfFile: folder + "trust/test-root.pem", encoding: .utf8))
    }

    // MARK: Results

    @Test func everyResultOfSaveAndContains() async throws {
        let bench = try Workbench()
        let store = bench.store
        #expect(try await store.containsOrder(matching: Self.greenleaf) == .notFound)
        #expect(try await store.saveOrder(signedArchive: Self.archive("greenleaf-v1")) == .added)
        #expect(try await store.containsOrder(matching: Self.greenleaf) == .exists)
        #expect(try await store.containsOrder(matching: Self.greenleaf, updatedDate: Self.v1Updated) == .exists)
        #expect(try await store.containsOrder(matching: Self.greenleaf, updatedDate: Self.v1Updated.addingTimeInterval(-60)) == .newerExists)
        #expect(try await store.containsOrder(matching: Self.greenleaf, updatedDate: Self.v2Updated) == .olderExists)
        var other = Self.greenleaf
        other.orderIdentifier = "GL-0000"
        #expect(try await store.containsOrder(matching: other) == .notFound)

        // The same version again, then the newer one, then the older one after it.
        #expect(try await store.saveOrder(signedArchive: Self.archive("greenleaf-v1")) == .newerExisting)
        let id = try #require(try await store.orders().first?.id)
        #expect(try await store.saveOrder(signedArchive: Self.archive("greenleaf-v2")) == .added)
        #expect(try await store.containsOrder(matching: Self.greenleaf, updatedDate: Self.v1Updated) == .newerExists)
        #expect(try await store.containsOrder(matching: Self.greenleaf, updatedDate: Self.v2Updated) == .exists)
        #expect(try await store.saveOrder(signedArchive: Self.archive("greenleaf-v1")) == .newerExisting)
        let orders = try await store.orders()
        #expect(orders.count == 1)
        #expect(orders.first?.id == id, "a newer version keeps the stored order's id")
        #expect(orders.first?.order.status == "completed")
        #expect(orders.first?.order.fulfillments.first?.trackingNumber == "HC123456789US")
        #expect(try await store.orderArchive(id: id) == Self.archive("greenleaf-v2"))
    }

    @Test func aRefusedConfirmationIsCancelledAndStoresNothing() async throws {
        let store = try Workbench().store
        let asked = Counter()
        let report = try await store.saveOrder(signedArchive: Self.archive("greenleaf-v1"), options: OrderSaveOptions { preview in
            asked.add()
            return preview.order.merchant.displayName != "Greenleaf Market"
        })
        #expect(report.result == .cancelled)
        #expect(report.orderID == nil)
        #expect(asked.value == 1)
        #expect(try await store.containsOrder(matching: Self.greenleaf) == .notFound)
        // Accepted, it is added; an archive that would not be stored is not asked about.
        let accepted = try await store.saveOrder(signedArchive: Self.archive("greenleaf-v1"), options: OrderSaveOptions { _ in true })
        #expect(accepted.result == .added)
        let again = try await store.saveOrder(signedArchive: Self.archive("greenleaf-v1"), options: OrderSaveOptions { _ in
            asked.add()
            return true
        })
        #expect(again.result == .newerExisting)
        #expect(asked.value == 1)
    }

    // MARK: Refusals

    @Test(arguments: [
        ("wrong-hash", "order.json", "manifest.json says"),
        ("unlisted-file", "notes.txt", "not listed in manifest.json"),
        ("path-traversal", "../escape.txt", "outside the archive"),
        ("zip-bomb", "padding.bin", "at most 8388608"),
        ("lying-zip-bomb", "padding.bin", "more than its declared 1000 bytes"),
        ("not-a-zip", nil, "not an order archive"),
    ] as [(String, String?, String)])
    func aDamagedArchiveIsRefusedWithItsReasonAndNothingStored(name: String, element: String?, reason: String) async throws {
        let store = try Workbench().store
        do {
            _ = try await store.saveOrder(signedArchive: Self.archive(name), options: OrderSaveOptions(archiveName: name + ".order"))
            Issue.record("\(name) was accepted")
        } catch let error as CofferError {
            #expect(error.code == .badInput)
            #expect(error.location?.file == name + ".order")
            #expect(error.location?.element == element)
            #expect(error.message.contains(reason), "\(error)")
        }
        #expect(try await store.orders().isEmpty)
    }

    @Test func aTamperedManifestPassesTheHashesButNotTheSignature() async throws {
        // Without trust anchors, the manifest matches its files: stored, and the verification says what was not checked.
        let open = try Workbench().store
        let report = try await open.saveOrder(signedArchive: Self.archive("tampered-manifest"), options: OrderSaveOptions())
        #expect(report.result == .added)
        #expect(report.verification.manifest)
        #expect(report.verification.signature == .notChecked)
        #expect(report.verification.summary.contains("signature NOT verified"))
        #expect(try await open.orders().first?.verification.signature == .notChecked)
        // With them, the signature no longer covers the rewritten manifest.
        let checked = try Workbench().store
        await #expect(throws: CofferError.self) {
            _ = try await checked.saveOrder(signedArchive: Self.archive("tampered-manifest"), options: OrderSaveOptions(trust: Self.trust()))
        }
        do {
            _ = try await checked.saveOrder(signedArchive: Self.archive("tampered-manifest"), options: OrderSaveOptions(trust: Self.trust()))
        } catch let error as CofferError {
            #expect(error.location?.element == "signature")
            #expect(error.message.contains("digest mismatch"), "\(error)")
        }
        #expect(try await checked.orders().isEmpty)
    }

    @Test func theSignatureIsVerifiedAgainstTheTrustAnchors() async throws {
        let store = try Workbench().store
        let report = try await store.saveOrder(signedArchive: Self.archive("greenleaf-v2"), options: OrderSaveOptions(trust: Self.trust()))
        #expect(report.result == .added)
        #expect(report.verification.signature == .verified)
        #expect(report.verification.signer?.contains("order.com.example.greenleaf") == true)
        for (name, reason) in [("untrusted", "does not chain to a configured trust anchor"), ("wrong-type", "not for this order's type")] {
            do {
                _ = try await Workbench().store.saveOrder(signedArchive: Self.archive(name), options: OrderSaveOptions(trust: Self.trust()))
                Issue.record("\(name) was accepted")
            } catch let error as CofferError {
                #expect(error.location?.element == "signature")
                #expect(error.message.contains(reason), "\(name): \(error)")
            }
        }
    }

    // MARK: The paying transaction

    @Test func theOrderIsLinkedToTheTransactionThatPaidIt() async throws {
        let bench = try Workbench()
        _ = try await bench.importer.importFile(repositoryRoot + "/feeds/ofx/creditcard-ofx2.qfx")
        let paying = try #require(try await bench.transactions().first { $0.merchantName == "Greenleaf Market" })
        let report = try await bench.store.saveOrder(signedArchive: Self.archive("greenleaf-v1"), options: OrderSaveOptions())
        #expect(report.transactionID == paying.id)
        let orderID = try #require(report.orderID)
        #expect(try await bench.store.order(id: orderID)?.transactionID == paying.id)
        let all = try await bench.transactions()
        let links = try await bench.store.orderIDs(forTransactionIDs: all.map(\.id))
        #expect(links == [paying.id: orderID], "\(links) \(paying.id) \(orderID)")
        // Nothing in EUR pays the Nordic order; the newer Greenleaf version keeps the link.
        let nordic = try await bench.store.saveOrder(signedArchive: Self.archive("nordic"), options: OrderSaveOptions())
        #expect(nordic.result == .added && nordic.transactionID == nil)
        #expect(try await bench.store.saveOrder(signedArchive: Self.archive("greenleaf-v2"), options: OrderSaveOptions()).transactionID == paying.id)
    }

    @Test func aStatementImportedAfterTheReceiptIsLinkedByLinkOrders() async throws {
        let bench = try Workbench()
        let report = try await bench.store.saveOrder(signedArchive: Self.archive("greenleaf-v1"), options: OrderSaveOptions())
        #expect(report.transactionID == nil)
        _ = try await bench.importer.importFile(repositoryRoot + "/feeds/ofx/creditcard-ofx2.qfx")
        #expect(try await bench.store.linkOrders() == 1)
        #expect(try await bench.store.linkOrders() == 0)
        let paying = try #require(try await bench.transactions().first { $0.merchantName == "Greenleaf Market" })
        #expect(try await bench.store.order(id: #require(report.orderID))?.transactionID == paying.id)
    }

    // MARK: Per-client visibility

    @Test func aClientSeesAndMatchesOnlyItsOwnOrders() async throws {
        let bench = try Workbench()
        let owner = bench.store
        _ = try await bench.importer.importFile(repositoryRoot + "/feeds/ofx/creditcard-ofx2.qfx")
        let account = try #require(try await owner.accounts(query: AccountQuery()).first?.id)
        var stores: [String: FinanceStore] = [:]
        for (name, types) in [("shop", [FinanceStore.ClientDataType.orders]), ("budget", [.orders, .transactions]),
                              ("reader", [.transactions])] as [(String, [FinanceStore.ClientDataType])] {
            let (client, _) = try owner.addClient(named: name)
            _ = try owner.authorizeClient(named: name, grant: FinanceStore.Grant(accounts: [.init(accountID: account)], dataTypes: types))
            stores[name] = owner.scoped(to: client.id)
        }
        let shop = try #require(stores["shop"]), budget = try #require(stores["budget"]), reader = try #require(stores["reader"])

        let saved = try await shop.saveOrder(signedArchive: Self.archive("greenleaf-v1"), options: OrderSaveOptions())
        #expect(saved.result == .added)
        #expect(saved.transactionID == nil, "the shop may not read transactions: the link is not shown to it")
        #expect(try await shop.containsOrder(matching: Self.greenleaf) == .exists)
        #expect(try await budget.containsOrder(matching: Self.greenleaf) == .notFound)
        #expect(try await owner.containsOrder(matching: Self.greenleaf, updatedDate: Self.v1Updated) == .exists)
        #expect(try await budget.orders().isEmpty)
        #expect(try await budget.order(id: #require(saved.orderID)) == nil)

        // The budget app saves its own copy; each sees one, the owner both.
        let own = try await budget.saveOrder(signedArchive: Self.archive("greenleaf-v2"), options: OrderSaveOptions())
        #expect(own.result == .added)
        #expect(own.transactionID != nil, "the budget app reads the account's transactions: it sees the link")
        #expect(try await budget.containsOrder(matching: Self.greenleaf, updatedDate: Self.v1Updated) == .newerExists)
        #expect(try await shop.containsOrder(matching: Self.greenleaf, updatedDate: Self.v1Updated) == .exists)
        #expect(try await owner.containsOrder(matching: Self.greenleaf, updatedDate: Self.v1Updated) == .newerExists)
        #expect(try await shop.orders().map(\.id) == [saved.orderID])
        #expect(try await budget.orders().map(\.id) == [own.orderID])
        #expect(Set(try await owner.orders().map(\.clientID)) == Set([try owner.client(named: "shop")?.id, try owner.client(named: "budget")?.id]))
        #expect(try await owner.orders().allSatisfy { $0.transactionID != nil })

        // A client without the orders type is refused, as FinanceKit restricts data.
        await #expect(throws: FinanceError.dataRestricted(.orders)) { _ = try await reader.containsOrder(matching: Self.greenleaf) }
        await #expect(throws: FinanceError.dataRestricted(.orders)) {
            _ = try await reader.saveOrder(signedArchive: Self.archive("nordic"))
        }
        _ = try owner.revokeClient(named: "shop")
        await #expect(throws: FinanceError.dataRestricted(.orders)) { _ = try await shop.orders() }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}

/// The payment policy alone: exact amount and currency, the date window, the merchant's text, one order per
/// transaction.
@Suite struct OrderPaymentTests {
    static let placed = ISO8601DateFormatter().date(from: "2026-03-10T15:00:00Z")!

    static func order(total: String = "42.50", currency: String = "EUR", merchant: String = "Nordic Outfitters") -> WalletOrder {
        WalletOrder(orderTypeIdentifier: "order.test", orderIdentifier: "1", status: "open", createdAt: placed, updatedAt: placed,
                    merchant: .init(displayName: merchant),
                    payment: .init(total: CurrencyAmount(amount: ExactDecimal.parse(total)!, currencyCode: currency)))
    }

    static func txn(_ amount: String, _ currency: String = "EUR", day: Int = 0, text: String = "NORDIC OUTFITTERS STOCKHOLM",
                    indicator: CreditDebitIndicator = .debit, foreign: CurrencyAmount? = nil, status: TransactionStatus = .booked,
                    id: UUID = UUID()) -> Transaction {
        Transaction(id: id, accountID: UUID(), transactionAmount: CurrencyAmount(amount: ExactDecimal.parse(amount)!, currencyCode: currency),
                    foreignCurrencyAmount: foreign, creditDebitIndicator: indicator, transactionDescription: text,
                    originalTransactionDescription: text, status: status,
                    transactionDate: CalendarDay.date(day: CalendarDay.dayNumber(placed) + day))
    }

    func pick(_ candidates: [Transaction], order: WalletOrder = order(), taken: Set<UUID> = []) -> Transaction? {
        OrderPayment.transaction(for: order, among: candidates, taken: taken)
    }

    @Test func theWindowRunsFromADayBeforeToFiveAfter() {
        for (day, pays) in [(-2, false), (-1, true), (0, true), (5, true), (6, false)] {
            #expect((pick([Self.txn("42.50", day: day)]) != nil) == pays, "day \(day)")
        }
    }

    @Test func theAmountAndCurrencyMustBeExact() {
        #expect(pick([Self.txn("42.51")]) == nil)
        #expect(pick([Self.txn("42.50", "USD")]) == nil)
        #expect(pick([Self.txn("42.5")]) != nil, "the same decimal, written shorter")
        // Bought abroad: the foreign amount is the order's total.
        let abroad = Self.txn("485.10", "SEK", foreign: CurrencyAmount(amount: ExactDecimal.parse("42.50")!, currencyCode: "EUR"))
        #expect(pick([abroad])?.id == abroad.id)
    }

    @Test func aRefundOrARejectedPaymentNeverPays() {
        #expect(pick([Self.txn("42.50", indicator: .credit)]) == nil)
        #expect(pick([Self.txn("42.50", status: .rejected)]) == nil)
    }

    @Test func theMerchantTextMustAgree() {
        #expect(pick([Self.txn("42.50", text: "CORNER BAKERY")]) == nil)
        #expect(pick([Self.txn("42.50", text: "NORDICOUTFIT*8842 SE")]) != nil, "a squashed, cut name")
        #expect(pick([Self.txn("42.50", text: "Card purchase Outfitters Nordic AB")]) != nil)
        #expect(pick([Self.txn("42.50", text: "NORDIC BANK ATM")]) != nil, "half the merchant's words agree")
    }

    @Test func theBestTextThenTheNearestDayWins() {
        let vague = Self.txn("42.50", day: 0, text: "NORDIC PAYMENTS")
        let named = Self.txn("42.50", day: 3, text: "NORDIC OUTFITTERS")
        #expect(pick([vague, named])?.id == named.id)
        let later = Self.txn("42.50", day: 4)
        let sooner = Self.txn("42.50", day: 1)
        #expect(pick([later, sooner])?.id == sooner.id)
    }

    @Test func aTransactionLinkedToAnotherOrderIsNotTaken() {
        let one = Self.txn("42.50", day: 1)
        #expect(pick([one], taken: [one.id]) == nil)
        let two = Self.txn("42.50", day: 2)
        #expect(pick([one, two], taken: [one.id])?.id == two.id)
    }

    @Test func anOrderWithoutATotalIsNotLinked() {
        var order = Self.order()
        order.payment = nil
        #expect(pick([Self.txn("42.50")], order: order) == nil)
    }
}

@Suite struct OrderAvailabilityTests {
    @Test func ordersAreAvailableWhereTheStoreIs() throws {
        let bench = try Workbench()
        #expect(FinanceStore.isDataAvailable(.orders, at: bench.store.path))
        #expect(FinanceStore.isDataAvailable(.financialData, at: bench.store.path))
        #expect(!FinanceStore.isDataAvailable(.orders, at: bench.folder + "/nothing.sqlite"))
    }
}
