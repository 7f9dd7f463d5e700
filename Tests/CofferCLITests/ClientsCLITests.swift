import Foundation
import Testing

/// `coffer clients` with the real binary (issue 17): the token is printed once and only its hash is stored; a
/// client reads its grant through coffer's own commands (`COFFER_CLIENT_TOKEN`) and nothing it may not.
@Suite struct ClientsCLITests {
    /// A store with the two-account sample (checking ••••6789 with four March rows, a card with two May rows).
    static func store() throws -> String {
        let store = try temporaryFolder() + "/s.sqlite"
        try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx", "feeds/ofx/foreign.ofx"])
        return store
    }

    @Test func theTokenIsPrintedOnceAndOnlyItsHashIsStored() throws {
        let store = try Self.store()
        let added = try coffer(["clients", "add", "budget", "--store", store])
        #expect(added.status == 0, "\(added.stderr)")
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("coffer_") && token.count == 50 && !token.contains("\n"))
        // Not in the store file, in any form a reader of the bytes could find; nor printed again.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: store + "-wal"))) ?? Data()
        #expect(bytes.range(of: Data(token.utf8)) == nil && wal.range(of: Data(token.utf8)) == nil)
        let secret = String(token.dropFirst("coffer_".count))
        #expect(bytes.range(of: Data(secret.utf8)) == nil)
        let list = try coffer(["clients", "list", "--store", store, "--format", "json"])
        let show = try coffer(["clients", "show", "budget", "--store", store])
        #expect(!list.stdout.contains(secret) && !show.stdout.contains(secret))
        let shown = try jsonArray(list.stdout)
        #expect(shown.count == 1 && shown[0]["status"] as? String == "notDetermined" && shown[0]["state"] as? String == "notDetermined")
        // A second client of that name is refused; two tokens are never alike.
        #expect(try coffer(["clients", "add", "budget", "--store", store]).status == 64)
        let other = try coffer(["clients", "add", "dashboard", "--store", store, "--json"])
        let otherToken = try #require(try jsonObject(other.stdout)["token"] as? String)
        #expect(otherToken != token && otherToken.hasPrefix("coffer_"))
    }

    @Test func aClientReadsItsGrantAndNothingElse() throws {
        let store = try Self.store()
        let token = try coffer(["clients", "add", "budget", "--store", store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let asClient = ["COFFER_CLIENT_TOKEN": token]
        // Undecided: nothing reads.
        let before = try coffer(["transactions", "--store", store, "--format", "json"], environment: asClient)
        #expect(before.status == 1 && before.stderr.contains("not authorized"))

        let authorized = try coffer(["clients", "authorize", "budget", "--store", store, "--accounts", "6789:2026-03-05",
                                     "--types", "transactions,accounts", "--json"])
        #expect(authorized.status == 0, "\(authorized.stderr)")
        let client = try jsonObject(authorized.stdout)
        #expect(client["status"] as? String == "authorized" && client["epoch"] as? Int == 2)
        let granted = try #require(client["accounts"] as? [[String: Any]])
        #expect(granted.count == 1 && granted[0]["earliestDate"] as? String == "2026-03-05")

        let owner = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        let seen = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"], environment: asClient).stdout)
        #expect(owner.count == 6)
        #expect(seen.map { $0["transactionDate"] as? String ?? "" } == ["2026-03-05", "2026-03-09", "2026-03-14"])
        let accounts = try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"], environment: asClient).stdout)
        #expect(accounts.count == 1)
        // The card is not there, exactly as an account that does not exist.
        let card = try coffer(["transactions", "--store", store, "--account", "3344"], environment: asClient)
        let nothing = try coffer(["transactions", "--store", store, "--account", "9999"], environment: asClient)
        #expect(card.status == nothing.status && card.stderr.replacingOccurrences(of: "3344", with: "9999") == nothing.stderr)
        // A type not granted; and the owner's commands are not the client's.
        #expect(try coffer(["balances", "--store", store], environment: asClient).status == 1)
        let authorize = try coffer(["clients", "authorize", "budget", "--store", store, "--accounts", "all"], environment: asClient)
        #expect(authorize.status == 64 && authorize.stderr.contains("COFFER_CLIENT_TOKEN"))
        #expect(try coffer(["import", "--store", store, "feeds/ofx/quirks.ofx"], environment: asClient).status == 1)

        // History as the client: a new grant refuses the old token; revoking ends the token.
        let history = try coffer(["history", "--store", store], environment: asClient)
        let lastToken = try #require(try jsonObject(String(history.stdout.split(separator: "\n").last ?? ""))["token"] as? String)
        #expect(try coffer(["history", "--store", store, "--since", lastToken], environment: asClient).status == 0)
        try coffer(["clients", "authorize", "budget", "--store", store, "--accounts", "all", "--types", "transactions"])
        let stale = try coffer(["history", "--store", store, "--since", lastToken], environment: asClient)
        #expect(stale.status == 1 && stale.stderr.contains("restart history"))
        #expect(try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"], environment: asClient).stdout).count == 6)
        #expect(try coffer(["clients", "revoke", "budget", "--store", store]).status == 0)
        let revoked = try coffer(["transactions", "--store", store], environment: asClient)
        #expect(revoked.status == 1 && revoked.stderr.contains("not one the store issued, or its client was revoked"))
        let shown = try jsonObject(try coffer(["clients", "show", "budget", "--store", store, "--format", "json"]).stdout)
        #expect(shown["status"] as? String == "denied" && shown["state"] as? String == "revoked" && shown["epoch"] as? Int == 4)
        #expect(try coffer(["clients", "authorize", "budget", "--store", store, "--accounts", "all"]).status == 64)
        #expect(try coffer(["clients", "remove", "budget", "--store", store]).status == 0)
        #expect(try jsonArray(try coffer(["clients", "list", "--store", store, "--format", "json"]).stdout).isEmpty)
    }

    @Test func badInputIsAClearError() throws {
        let store = try Self.store()
        try coffer(["clients", "add", "budget", "--store", store])
        let noAccounts = try coffer(["clients", "authorize", "budget", "--store", store])
        #expect(noAccounts.status == 64 && noAccounts.stderr.contains("--accounts is needed"))
        let badType = try coffer(["clients", "authorize", "budget", "--store", store, "--accounts", "all", "--types", "txns"])
        #expect(badType.status == 64 && badType.stderr.contains("accounts, accountBalances, transactions and/or orders"))
        let badDate = try coffer(["clients", "authorize", "budget", "--store", store, "--accounts", "6789:2026-13-01"])
        #expect(badDate.status == 64 && badDate.stderr.contains("YYYY-MM-DD"))
        let unknown = try coffer(["clients", "deny", "nobody", "--store", store])
        #expect(unknown.status == 64 && unknown.stderr.contains("no client named nobody (clients: budget)"))
        let badName = try coffer(["clients", "add", "two words", "--store", store])
        #expect(badName.status == 64 && badName.stderr.contains("letters, digits"))
        let denied = try coffer(["clients", "deny", "budget", "--store", store, "--json"])
        #expect(try jsonObject(denied.stdout)["status"] as? String == "denied")
    }
}
