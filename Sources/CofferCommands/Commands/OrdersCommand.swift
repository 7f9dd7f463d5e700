import ArgumentParser
import Coffer
import Foundation

/// `coffer orders`: Wallet orders (receipts with line items and tracking), FinanceKit's `saveOrder`/`containsOrder`.
struct OrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders", abstract: "Save Wallet order archives (.order) and list or show the orders stored.",
        discussion: """
            An order archive is a zip of order.json (Apple's Wallet Order format), manifest.json (each file's SHA-256) \
            and signature (a CMS signature of manifest.json). Adding one verifies the manifest always: every file \
            listed with its hash, nothing unlisted, no path outside the archive, within size limits. The signature's \
            certificate chain is verified only with trust anchors (--trust PEM, or $COFFER_ORDER_TRUST); without, \
            the output says the signature was NOT verified. A refused archive stores nothing.
            An order is linked to the transaction that paid for it: a debit of exactly its total in its currency, \
            dated 1 day before to 5 days after it was placed, whose merchant or description names its merchant. \
            coffer import links orders that a new statement pays.
              coffer orders add receipt.order [--yes] [--trust apple-wwdr.pem]
              coffer orders list [--format table|json|ndjson|csv]
              coffer orders show ID
            """,
        subcommands: [Add.self, List.self, Show.self],
        defaultSubcommand: List.self)

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Verify and save an order archive.",
            discussion: """
                Prints what it did: added (new, or newer than the stored version, which it replaces), cancelled \
                (the confirmation was refused) or newerExisting (a version at least as new is stored; nothing \
                changed), with what was verified. On a terminal it asks before saving, unless --yes. Exit status 0 \
                for all three; 1 when the archive is refused.
                """)

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: ArgumentHelp("The order archive.", valueName: "file.order")) var file: String
        @Flag(help: "Save without asking.") var yes = false
        @Option(help: ArgumentHelp("PEM certificates the signature must chain to (repeatable; $COFFER_ORDER_TRUST adds a file).",
                                   valueName: "pem"))
        var trust: [String] = []
        @Flag(help: "Print the outcome as JSON.") var json = false

        func run() async throws {
            try await guarded {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    throw CofferError(.io, "\(file): cannot be read (\(error.localizedDescription))")
                }
                let store = try storeOptions.open(.readWrite)
                let ask = !yes && isatty(STDIN_FILENO) == 1 && isErrorTerminal
                var options = OrderSaveOptions(trust: try OrderTrustFiles.anchors(trust), archiveName: file)
                if ask { options.confirm = { preview in Self.confirm(preview) } }
                let report = try await store.saveOrder(signedArchive: data, options: options)
                if json {
                    printLine(try JSON.document(report))
                    return
                }
                var lines: [String] = []
                let name = report.fullyQualifiedOrderIdentifier.description
                switch report.result {
                case .added:
                    lines.append("added \(name) as \(report.orderID?.uuidString ?? "?")"
                                 + (report.storedUpdatedAt.map { " (replaces the version of \(Text.date($0)))" } ?? ""))
                    lines.append(report.transactionID.map { "paid by transaction \($0.uuidString)" } ?? "no stored transaction pays it yet")
                case .cancelled:
                    lines.append("cancelled: \(name) was not saved")
                case .newerExisting:
                    lines.append("newerExisting: \(name) is stored as of \(report.storedUpdatedAt.map(Text.date) ?? "?"), "
                                 + "not older than this archive's \(Text.date(report.updatedAt)); nothing changed")
                }
                lines.append("verification: \(report.verification.summary)")
                printLine(lines.joined(separator: "\n"))
            }
        }

        /// Shows the order on stderr and reads y/N from the terminal.
        @Sendable static func confirm(_ preview: OrderPreview) -> Bool {
            let order = preview.order
            var text = "Order \(order.fullyQualifiedOrderIdentifier) from \(order.merchant.displayName), placed \(Text.date(order.createdAt))"
            if let total = order.payment?.total { text += ", total \(total.amountText) \(total.currencyCode)" }
            text += "\n  \(order.lineItems.count) item(s); status \(order.status)"
            if let replacing = preview.replacing { text += "; replaces the stored version of \(Text.date(replacing))" }
            if let t = preview.transaction {
                text += "\n  paid by: \(Text.date(t)) \(Text.signed(t.transactionAmount, t.creditDebitIndicator)) "
                    + "\(t.transactionAmount.currencyCode) \(t.transactionDescription)"
            }
            text += "\n  verification: \(preview.verification.summary)\nSave this order? [y/N] "
            FileHandle.standardError.write(Data(text.utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            return answer == "y" || answer == "yes"
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the stored orders, newest placed first (the default).")

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "table, json, ndjson or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await guarded {
                let store = try storeOptions.open(.readOnly)
                let orders = try await store.orders()
                try emit(orders, format: format) {
                    Table(headers: ["ID", "PLACED", "MERCHANT", "TOTAL", "CUR", "STATUS", "ORDER", "PAID BY", "SIGNATURE"],
                          rows: orders.map { stored in
                              let order = stored.order
                              return [stored.id.uuidString, Text.date(order.createdAt), order.merchant.displayName,
                                      order.payment?.total?.amountText ?? "", order.payment?.total?.currencyCode ?? "", order.status,
                                      stored.fullyQualifiedOrderIdentifier.description, stored.transactionID?.uuidString ?? "",
                                      stored.verification.signature.rawValue]
                          }, rightAligned: [3])
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one order: items, payment, fulfillments and tracking, verification, the paying transaction.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: ArgumentHelp("The order: its id (or a unique start of it), its order identifier, or TYPE/IDENTIFIER.",
                                     valueName: "id"))
        var id: String
        @Option(help: "table or json.") var format: OutputFormat = .table

        func validate() throws {
            guard format == .table || format == .json else { throw ValidationError("--format expects table or json for one order") }
        }

        func run() async throws {
            try await guarded {
                let store = try storeOptions.open(.readOnly)
                let stored = try await Self.resolve(id, in: store)
                let transaction = try await stored.transactionID.asyncMap { id in
                    try await store.transactions(query: TransactionQuery(predicate: #Predicate { $0.id == id })).first
                }
                if format == .json {
                    printLine(try JSON.document(OrderDetail(stored: stored, transaction: transaction ?? nil)))
                } else {
                    printLine(Self.render(stored, transaction ?? nil))
                }
            }
        }

        static func resolve(_ text: String, in store: FinanceStore) async throws -> StoredOrder {
            let orders = try await store.orders()
            let wanted = text.lowercased()
            let hits = orders.filter {
                $0.id.uuidString.lowercased() == wanted || $0.fullyQualifiedOrderIdentifier.description == text
                    || $0.order.orderIdentifier == text
            }
            let prefixed = hits.isEmpty && wanted.count >= 4 ? orders.filter { $0.id.uuidString.lowercased().hasPrefix(wanted) } : hits
            guard let first = prefixed.first else { throw CofferError(.usage, "no order \(text) (see coffer orders list)") }
            guard prefixed.count == 1 else {
                throw CofferError(.usage, "\(text) names \(prefixed.count) orders: \(prefixed.map(\.id.uuidString).joined(separator: ", ")); give the id")
            }
            return first
        }

        static func render(_ stored: StoredOrder, _ transaction: Transaction?) -> String {
            let order = stored.order
            var lines = [
                "Order        \(stored.fullyQualifiedOrderIdentifier)" + (order.orderNumber.map { " (number \($0))" } ?? ""),
                "ID           \(stored.id.uuidString)",
                "Merchant     \(order.merchant.displayName)" + (order.merchant.url.map { "  \($0)" } ?? ""),
                "Status       \(order.status)",
                "Placed       \(Text.date(order.createdAt))",
                "Updated      \(Text.date(order.updatedAt))",
                "Saved        \(Text.date(stored.savedAt)) by \(stored.clientID.map { "client \($0.uuidString)" } ?? "the owner")",
            ]
            if let url = order.orderManagementURL { lines.append("Manage at    \(url)") }
            if !order.lineItems.isEmpty {
                lines.append("Items")
                for item in order.lineItems {
                    let quantity = item.quantity.map { "\(ExactDecimal.text($0)) × " } ?? ""
                    let price = item.price.map { "  \($0.amountText) \($0.currencyCode)" } ?? ""
                    lines.append("  \(quantity)\(item.title)" + (item.subtitle.map { " (\($0))" } ?? "") + price)
                }
            }
            if let payment = order.payment {
                lines.append("Payment" + (payment.status.map { " (\($0))" } ?? ""))
                for item in payment.summaryItems { lines.append("  \(item.label): \(item.value.amountText) \(item.value.currencyCode)") }
                if let total = payment.total { lines.append("  Total: \(total.amountText) \(total.currencyCode)") }
                for method in payment.paymentMethods { lines.append("  Paid with \(method)") }
            }
            for fulfillment in order.fulfillments {
                var line = "Fulfillment  \(fulfillment.fulfillmentType), \(fulfillment.status)"
                if let carrier = fulfillment.carrier { line += ", \(carrier)" }
                if let number = fulfillment.trackingNumber { line += ", tracking \(number)" }
                if let url = fulfillment.trackingURL { line += "  \(url)" }
                if let at = fulfillment.estimatedDeliveryAt { line += ", expected \(Text.date(at))" }
                if let at = fulfillment.deliveredAt { line += ", delivered \(Text.date(at))" }
                lines.append(line)
            }
            lines.append("Verification \(stored.verification.summary)")
            if let t = transaction {
                lines.append("Paid by      \(t.id.uuidString): \(Text.date(t)) \(Text.signed(t.transactionAmount, t.creditDebitIndicator)) "
                             + "\(t.transactionAmount.currencyCode) \(t.transactionDescription)")
            } else {
                lines.append("Paid by      (no stored transaction matches yet)")
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// `coffer orders show --format json`: the stored order, and the transaction that paid for it under `transaction`.
struct OrderDetail: Encodable {
    var stored: StoredOrder
    var transaction: Transaction?

    enum CodingKeys: String, CodingKey { case transaction }

    func encode(to encoder: any Encoder) throws {
        try stored.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transaction, forKey: .transaction)
    }
}

/// `--trust` files and `$COFFER_ORDER_TRUST`, as the anchors a saved order's signature must chain to (`coffer orders
/// add` and `coffer serve`).
package enum OrderTrustFiles {
    package static func anchors(_ files: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> OrderTrustAnchors {
        var paths = files
        if let extra = environment["COFFER_ORDER_TRUST"], !extra.isEmpty { paths.append(extra) }
        var anchors = OrderTrustAnchors.none
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CofferError(.io, "\(path): the trust anchors cannot be read")
            }
            let text = String(decoding: data, as: UTF8.self)
            anchors = anchors.adding(text.contains("-----BEGIN")
                                     ? try OrderTrustAnchors(pem: text, source: path) : try OrderTrustAnchors(der: data, source: path))
        }
        return anchors
    }
}
