import Foundation
import Testing

/// `coffer orders` with the real binary (issue 18), on the sample archives of Tests/Golden/orders.
@Suite struct OrdersCLITests {
    static let samples = "Tests/Golden/orders/"

    /// A store holding feeds/ofx/creditcard-ofx2.qfx, whose 2026-03-02 Greenleaf Market debit pays the Greenleaf order.
    static func store() throws -> String {
        let store = try temporaryFolder() + "/s.sqlite"
        try coffer(["import", "--store", store, "feeds/ofx/creditcard-ofx2.qfx"])
        return store
    }

    @Test func addListShowAndTheLinkInTransactions() throws {
        let store = try Self.store()
        let added = try coffer(["orders", "add", "--store", store, Self.samples + "greenleaf-v1.order"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added order.com.example.greenleaf/GL-2026-0301-7731"))
        #expect(added.stdout.contains("signature NOT verified: no trust anchors are configured"))

        let newer = try jsonObject(try coffer(["orders", "add", "--store", store, "--json", "--trust", Self.samples + "trust/test-root.pem",
                                               Self.samples + "greenleaf-v2.order"]).stdout)
        #expect(newer["result"] as? String == "added")
        let verification = try #require(newer["verification"] as? [String: Any])
        #expect(verification["signature"] as? String == "verified")
        let orderID = try #require(newer["orderID"] as? String)
        let transactionID = try #require(newer["transactionID"] as? String)

        let older = try coffer(["orders", "add", "--store", store, "--json", Self.samples + "greenleaf-v1.order"])
        #expect(older.status == 0)
        #expect(try jsonObject(older.stdout)["result"] as? String == "newerExisting")

        let list = try jsonArray(try coffer(["orders", "list", "--store", store, "--format", "json"]).stdout)
        #expect(list.count == 1)
        #expect(list.first?["id"] as? String == orderID && list.first?["transactionID"] as? String == transactionID)

        let show = try coffer(["orders", "show", "--store", store, "GL-2026-0301-7731"])
        #expect(show.status == 0, "\(show.stderr)")
        for text in ["Greenleaf Market", "Status       completed", "tracking HC123456789US", "Total: 63.27 USD",
                     "signature verified", "Paid by      \(transactionID): 2026-03-02 -63.27 USD Greenleaf Market"] {
            #expect(show.stdout.contains(text), "\(text) in \(show.stdout)")
        }
        let shown = try jsonObject(try coffer(["orders", "show", "--store", store, String(orderID.prefix(8)), "--format", "json"]).stdout)
        #expect((shown["transaction"] as? [String: Any])?["id"] as? String == transactionID)

        // The transaction carries the order's id beside FinanceKit's properties; the others carry none.
        let transactions = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        #expect(transactions.filter { $0["orderID"] != nil }.map { $0["id"] as? String } == [transactionID])
        #expect(transactions.first { $0["id"] as? String == transactionID }?["orderID"] as? String == orderID)
        let lines = try coffer(["transactions", "--store", store, "--format", "ndjson"]).stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("\"orderID\":\"\(orderID)\"") }.count == 1)
    }

    @Test func aRefusedArchiveIsNamedAndStoresNothing() throws {
        let store = try Self.store()
        for (name, located) in [("wrong-hash", "wrong-hash.order (order.json): SHA-256"),
                                ("unlisted-file", "unlisted-file.order (notes.txt): in the archive but not listed"),
                                ("path-traversal", "path-traversal.order (../escape.txt)"),
                                ("lying-zip-bomb", "lying-zip-bomb.order (padding.bin): unpacks to more than")] {
            let run = try coffer(["orders", "add", "--store", store, "--yes", Self.samples + name + ".order"])
            #expect(run.status == 1)
            #expect(run.stderr.contains(located), "\(run.stderr)")
        }
        let tampered = try coffer(["orders", "add", "--store", store, "--trust", Self.samples + "trust/test-root.pem",
                                   Self.samples + "tampered-manifest.order"])
        #expect(tampered.status == 1 && tampered.stderr.contains("tampered-manifest.order (signature)"))
        #expect(try jsonArray(try coffer(["orders", "list", "--store", store, "--format", "json"]).stdout).isEmpty)
        let missing = try coffer(["orders", "show", "--store", store, "nothing"])
        #expect(missing.status == 64 && missing.stderr.contains("no order nothing"))
    }

    @Test func aReceiptBeforeItsStatementIsLinkedByTheImport() throws {
        let store = try temporaryFolder() + "/s.sqlite"
        let added = try coffer(["orders", "add", "--store", store, Self.samples + "greenleaf-v1.order"])
        #expect(added.stdout.contains("no stored transaction pays it yet"))
        let imported = try coffer(["import", "--store", store, "--verbose", "feeds/ofx/creditcard-ofx2.qfx"])
        #expect(imported.stdout.contains("1 order(s) linked"), "\(imported.stdout)")
        let transactions = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        #expect(transactions.filter { $0["orderID"] != nil }.count == 1)
    }

    /// On a terminal, `add` asks; "n" gives cancelled and stores nothing, "y" saves. Run under script(1), which gives
    /// coffer a pseudo-terminal.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalAddAsksFirst() throws {
        let store = try Self.store()
        func onTerminal(_ answer: String) throws -> String {
            let command = "\(cofferBinary) orders add --store \(store) \(packageRoot)/\(Self.samples)greenleaf-v1.order"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(Data((answer + "\n").utf8))
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        let refused = try onTerminal("n")
        #expect(refused.contains("Save this order? [y/N]"), "\(refused)")
        #expect(refused.contains("paid by: 2026-03-02 -63.27 USD Greenleaf Market"))
        #expect(refused.contains("cancelled: order.com.example.greenleaf/GL-2026-0301-7731 was not saved"))
        #expect(try jsonArray(try coffer(["orders", "list", "--store", store, "--format", "json"]).stdout).isEmpty)
        let accepted = try onTerminal("y")
        #expect(accepted.contains("added order.com.example.greenleaf"), "\(accepted)")
        #expect(try jsonArray(try coffer(["orders", "list", "--store", store, "--format", "json"]).stdout).count == 1)
    }

    @Test func aClientSeesOnlyItsOwnOrders() throws {
        let store = try Self.store()
        var tokens: [String: [String: String]] = [:]
        for (name, types) in [("shop", "orders"), ("budget", "orders,transactions"), ("reader", "transactions")] {
            let token = try coffer(["clients", "add", name, "--store", store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let granted = try coffer(["clients", "authorize", name, "--store", store, "--accounts", "all", "--types", types])
            #expect(granted.status == 0, "\(granted.stderr)")
            tokens[name] = ["COFFER_CLIENT_TOKEN": token]
        }
        let saved = try coffer(["orders", "add", "--store", store, "--json", Self.samples + "greenleaf-v1.order"], environment: tokens["shop"]!)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try jsonObject(saved.stdout)["transactionID"] == nil, "the shop reads no transactions")
        #expect(try jsonArray(try coffer(["orders", "list", "--store", store, "--format", "json"], environment: tokens["shop"]!).stdout).count == 1)
        #expect(try jsonArray(try coffer(["orders", "list", "--store", store, "--format", "json"], environment: tokens["budget"]!).stdout).isEmpty)
        #expect(try coffer(["orders", "show", "--store", store, "GL-2026-0301-7731"], environment: tokens["budget"]!).status == 64)
        // The owner sees it, saved by the shop, and linked.
        let owner = try jsonArray(try coffer(["orders", "list", "--store", store, "--format", "json"]).stdout)
        #expect(owner.count == 1 && owner.first?["clientID"] != nil && owner.first?["transactionID"] != nil)
        // The budget app's transactions do not show the shop's order.
        let budget = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"], environment: tokens["budget"]!).stdout)
        #expect(!budget.isEmpty && budget.allSatisfy { $0["orderID"] == nil })
        // Without the orders type: refused.
        let reader = try coffer(["orders", "list", "--store", store], environment: tokens["reader"]!)
        #expect(reader.status == 1 && reader.stderr.contains("not authorized"), "\(reader.stderr)")
    }
}
