import CofferFormats
import CofferModel
import CofferStore
import Crypto
import Foundation

extension FinanceStore {
    /// Saves a signed Wallet order archive (FinanceKit's `saveOrder`): `.added` when stored (new, or newer than the
    /// stored version, which it replaces), `.newerExisting` when a version at least as new is already stored.
    ///
    /// For example:
    /// ```swift
    /// let result = try await store.saveOrder(signedArchive: try Data(contentsOf: URL(fileURLWithPath: "receipt.order")))
    /// ```
    /// The archive's manifest is always verified: every file listed with its SHA-256, nothing unlisted, no path outside
    /// the archive, within `OrderArchiveLimits`. The signature is not checked here (no trust anchors; see
    /// `saveOrder(signedArchive:options:)`). An archive that fails a check throws `CofferError(.badInput)` naming the
    /// file and the check, and nothing is stored. The order is linked to the transaction that paid for it, when one is
    /// stored (`OrderPayment`).
    public func saveOrder(signedArchive: Data) async throws -> SaveOrderResult {
        try await saveOrder(signedArchive: signedArchive, options: OrderSaveOptions()).result
    }

    /// Saves a signed order archive with trust anchors, a confirmation and limits, and reports what was verified
    /// (`OrderSaveReport.verification`), the stored order's id and the transaction it is linked to.
    public func saveOrder(signedArchive: Data, options: OrderSaveOptions) async throws -> OrderSaveReport {
        try await saveOrder(signedArchive: signedArchive, options: options, as: orderSaver)
    }

    /// `saveOrder(signedArchive:options:)` for `saver`.
    package func saveOrder(signedArchive: Data, options: OrderSaveOptions, as saver: OrderSaver) async throws -> OrderSaveReport {
        let name = options.archiveName
        let contents = try OrderArchiveReader.read(signedArchive, name: name, limits: options.limits)
        let order = try OrderDocument.decode(contents.orderJSON, archive: name)
        let verification = try await OrderSignature.verify(contents, orderTypeIdentifier: order.orderTypeIdentifier,
                                                           trust: options.trust, archive: name)
        let sha = SHA256.hash(data: signedArchive).lowercaseHex
        let fqoid = order.fullyQualifiedOrderIdentifier
        var report = OrderSaveReport(result: .newerExisting, fullyQualifiedOrderIdentifier: fqoid, updatedAt: order.updatedAt,
                                     verification: verification)
        let saved = try savedVersion(of: fqoid, by: saver)
        report.storedUpdatedAt = saved.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        if let saved, saved >= Int64((order.updatedAt.timeIntervalSince1970 * 1000).rounded()) {
            report.orderID = try await ownOrderID(fqoid, saver)
            return report
        }
        let payment = try await paymentTransaction(for: order)
        if let confirm = options.confirm {
            let preview = OrderPreview(order: order, verification: verification, replacing: report.storedUpdatedAt, transaction: payment)
            guard await confirm(preview) else {
                report.result = .cancelled
                return report
            }
        }
        let (result, stored) = try storeOrder(VerifiedOrder(order: order, archive: signedArchive, archiveSHA256: sha, verification: verification),
                                              by: saver, transactionID: payment?.id)
        report.result = result
        report.orderID = stored?.id
        report.transactionID = stored?.transactionID
        // A client is told of the link only when the transaction is in its grant.
        if saver != .owner, let id = report.orderID { report.transactionID = try await self.order(id: id, as: saver)?.transactionID }
        if result == .newerExisting { report.orderID = try await ownOrderID(fqoid, saver) }
        return report
    }

    /// Links every stored order that has no (live) transaction to the transaction that paid for it, when one is
    /// stored now: run after imports, since a receipt often arrives before the statement. Returns how many were linked.
    @discardableResult
    public func linkOrders() async throws -> Int {
        guard orderSaver == .owner else {
            throw CofferError(.usage, "\(path) is open as a client: only the store's owner links orders to transactions")
        }
        var linked = 0
        for stored in try unlinkedOrders() {
            guard let payment = try await paymentTransaction(for: stored.order) else { continue }
            try linkOrder(id: stored.id, toTransaction: payment.id)
            linked += 1
        }
        return linked
    }

    /// The stored transaction that paid for `order` (`OrderPayment`), leaving out those linked to other orders; looked
    /// for among all the owner's transactions, whoever saved the order.
    func paymentTransaction(for order: WalletOrder) async throws -> Transaction? {
        guard order.payment?.total != nil else { return nil }
        let window = OrderPayment.window(for: order)
        let candidates = try await ownerStore.transactions(query: TransactionQuery(predicate: TransactionQuery.predicate(
            fromDay: CalendarDay.date(day: window.lowerBound), throughDay: CalendarDay.date(day: window.upperBound))))
        guard !candidates.isEmpty else { return nil }
        let taken = try transactionsLinked(except: order.fullyQualifiedOrderIdentifier)
        return OrderPayment.transaction(for: order, among: candidates, taken: taken)
    }

    func ownOrderID(_ fqoid: FullyQualifiedOrderIdentifier, _ saver: OrderSaver) async throws -> UUID? {
        try await orders(as: saver).first { $0.fullyQualifiedOrderIdentifier == fqoid && $0.clientID == saver.clientID }?.id
    }
}
