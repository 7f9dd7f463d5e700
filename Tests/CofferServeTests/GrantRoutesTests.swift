import CofferModel
import CofferStore
import Foundation
import Testing

extension ServeTests {
    /// A client over HTTP sees exactly its grant: its accounts, from each one's earliest date, and its data types;
    /// what lies outside answers exactly as what does not exist.
    @Suite("coffer serve: routes through the grant")
    struct GrantRoutesTests {
        /// Two accounts of 40 transactions each over 40 days.
        static func twoAccounts() async throws -> (TestServer, a: UUID, b: UUID) {
            let server = try await TestServer.start()
            try await server.importStatement(ofx(account: "1111", lines("a", count: 40)))
            try await server.importStatement(ofx(account: "2222", lines("b", count: 40)))
            let accounts = try await server.owner.accounts(query: AccountQuery())
            let a = try #require(accounts.first { $0.displayName.hasSuffix("1111") }).id
            let b = try #require(accounts.first { $0.displayName.hasSuffix("2222") }).id
            return (server, a, b)
        }

        @Test func aClientSeesItsAccountsFromTheirEarliestDatesAndNothingElse() async throws {
            let (server, a, b) = try await Self.twoAccounts()
            let earliest = try #require(CalendarDay.parse("2026-01-21"))
            let token = try await server.client("budget", accounts: [FinanceStore.GrantedAccount(accountID: a, earliestDate: earliest)],
                                                types: [.accounts, .transactions])

            let accounts = try await server.get("/v1/accounts", token: token).list("accounts")
            #expect(accounts.compactMap { $0["id"] as? String } == [a.uuidString])

            // The oracle: the owner's transactions, filtered by hand.
            let all = try await server.owner.transactions(query: TransactionQuery())
            let expected = Set(all.filter { $0.accountID == a && $0.localDay >= CalendarDay.dayNumber(earliest) }.map(\.id.uuidString))
            #expect(expected.count == 20)
            let listed = try await server.get("/v1/transactions?limit=1000", token: token).list("transactions")
            #expect(Set(listed.compactMap { $0["id"] as? String }) == expected)
            #expect(listed.count == expected.count)

            // History from nil is the same set as inserted.
            let history = try await server.get("/v1/history/transactions?limit=5000", token: token).object()
            #expect(Set(ChangeIDs(history).inserted) == expected)
            #expect(history["hasMore"] as? Bool == false)

            // Naming what is outside the grant finds nothing, as an id that never existed finds nothing.
            let other = try await server.get("/v1/transactions?account=\(b.uuidString)", token: token).list("transactions")
            let nowhere = try await server.get("/v1/transactions?account=\(UUID().uuidString)", token: token).list("transactions")
            #expect(other.isEmpty && nowhere.isEmpty)
            let hidden = try await server.get("/v1/accounts/\(b.uuidString)", token: token)
            let missing = try await server.get("/v1/accounts/\(UUID().uuidString)", token: token)
            #expect(hidden.status == 404 && missing.status == 404)
            #expect(hidden.body == missing.body)
            #expect(hidden.contentType == "application/problem+json")
            let granted = try await server.get("/v1/accounts/\(a.uuidString)", token: token)
            #expect(granted.status == 200)
            #expect(try granted.object()["id"] as? String == a.uuidString)

            // A type not granted is a 403, on the list and on its history.
            #expect(try await server.get("/v1/balances", token: token).status == 403)
            #expect(try await server.get("/v1/history/accountBalances", token: token).status == 403)
            try await server.stop()
        }

        @Test func tokensThatAreNotAClientsAre401AndUndecidedClients403() async throws {
            let (server, _, _) = try await Self.twoAccounts()
            let undecided = try await server.client("waiting", authorize: false)
            let revoked = try await server.client("gone")
            _ = try server.owner.revokeClient(named: "gone")
            for token in [nil, "coffer_notatoken", revoked] {
                let reply = try await server.get("/v1/accounts", token: token)
                #expect(reply.status == 401, "\(token ?? "no token")")
                #expect(reply.contentType == "application/problem+json")
                #expect(reply.headers.first(name: "WWW-Authenticate") == #"Bearer realm="coffer""#)
            }
            #expect(try await server.get("/v1/transactions", token: undecided).status == 403)
            // The undecided client may ask: the request is recorded, and the answer stays notDetermined.
            let asked = try await server.request("/v1/authorization", token: undecided, method: .POST)
            #expect(asked.status == 200)
            #expect(try asked.object()["status"] as? String == "notDetermined")
            #expect(try server.owner.client(named: "waiting")?.isPending == true)
            _ = try server.owner.authorizeClient(named: "waiting", grant: FinanceStore.Grant(accounts: [], dataTypes: [.transactions]))
            let decided = try await server.get("/v1/authorization", token: undecided).object()
            #expect(decided["status"] as? String == "authorized")
            #expect(decided["dataTypes"] as? [String] == ["transactions"])
            // Authorized with no accounts: an empty list, not an error.
            #expect(try await server.get("/v1/transactions", token: undecided).list("transactions").isEmpty)
            try await server.stop()
        }

        /// Following `nextCursor` walks every row once, in the order one big page has them, for each sort.
        @Test(arguments: ["date", "-date", "amount:desc", "posted"])
        func pagesFollowTheCursorWithoutLossOrRepeat(sort: String) async throws {
            let (server, _, _) = try await Self.twoAccounts()
            let token = try await server.client("pager")
            let whole = try await server.get("/v1/transactions?limit=1000&sort=\(sort)", token: token).list("transactions")
                .compactMap { $0["id"] as? String }
            #expect(whole.count == 80)
            var walked: [String] = []
            var after: String?
            repeat {
                let query = "/v1/transactions?limit=7&sort=\(sort)" + (after.map { "&after=\($0)" } ?? "")
                let page = try await server.get(query, token: token).object()
                walked += (page["transactions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                after = page["nextCursor"] as? String
            } while after != nil && walked.count <= 200
            #expect(walked == whole)
            try await server.stop()
        }

        @Test func filtersAreTheCLIsAndBadValuesAre400sNamingTheParameter() async throws {
            let (server, a, _) = try await Self.twoAccounts()
            let token = try await server.client("filters")
            let debits = try await server.get("/v1/transactions?limit=1000&direction=debit&account=\(a.uuidString)&from=2026-01-05&to=2026-01-20&min=20",
                                              token: token).list("transactions")
            let all = try await server.owner.transactions(query: TransactionQuery())
            let expected = all.filter {
                $0.accountID == a && $0.creditDebitIndicator == .debit && $0.localDay >= CalendarDay.dayNumber(CalendarDay.parse("2026-01-05")!)
                    && $0.localDay <= CalendarDay.dayNumber(CalendarDay.parse("2026-01-20")!) && $0.transactionAmount.amount >= 20
            }
            #expect(!expected.isEmpty)
            #expect(Set(debits.compactMap { $0["id"] as? String }) == Set(expected.map(\.id.uuidString)))

            let bad: [(String, String)] = [
                ("/v1/transactions?limit=0", "limit"), ("/v1/transactions?limit=abc", "limit"), ("/v1/transactions?from=March", "from"),
                ("/v1/transactions?status=settled", "status"), ("/v1/transactions?mcc=54111", "mcc"), ("/v1/transactions?min=ten", "min"),
                ("/v1/transactions?sort=name", "sort"), ("/v1/transactions?direction=out", "direction"),
                ("/v1/transactions?acount=1", "acount"), ("/v1/transactions?limit=1&limit=2", "limit"),
                ("/v1/balances?latest=yes", "latest"), ("/v1/history/accounts?account=\(a.uuidString)", "account"),
                ("/v1/transactions?after=garbage", "cursor"),
            ]
            for (path, named) in bad {
                let reply = try await server.get(path, token: token)
                #expect(reply.status == 400, "\(path): \(reply.text)")
                #expect(reply.contentType == "application/problem+json", "\(path)")
                #expect((try reply.object()["detail"] as? String)?.contains(named) == true, "\(path): \(reply.text)")
            }
            try await server.stop()
        }

        /// The JSON of each model is the CLI's: a transaction byte for byte `coffer transactions --format ndjson`'s
        /// line, accounts and balances what `--format json` holds.
        @Test func theJSONIsTheCLIs() async throws {
            let server = try await TestServer.start()
            for folder in ["ofx", "camt", "csv"] {
                let files = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/feeds/" + folder)
                    .filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".md") }.sorted()
                for file in files { _ = try await server.importFile(packageRoot + "/feeds/\(folder)/\(file)") }
            }
            let token = try await server.client("mirror")
            let served = try await server.get("/v1/transactions?limit=1000", token: token)
            let cli = try coffer(["transactions", "--store", server.path, "--format", "ndjson", "--limit", "1000"])
            #expect(cli.status == 0, "\(cli.stderr)")
            let lines = cli.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count > 50)
            // Each item's bytes, cut out of the page body: the page is {"transactions":[line,line,…]}.
            let body = served.text
            #expect(body == "{\"transactions\":[" + lines.joined(separator: ",") + "]}")

            for (route, command, key) in [("/v1/accounts", ["accounts"], "accounts"), ("/v1/balances", ["balances"], "balances"),
                                          ("/v1/balances?latest=true", ["balances", "--latest"], "balances")] {
                let run = try coffer(command + ["--store", server.path, "--format", "json"])
                let cliJSON = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? NSArray)
                let servedJSON = try #require(try await server.get(route, token: token).object()[key] as? NSArray)
                #expect(servedJSON.count > 0)
                #expect(cliJSON == servedJSON, "\(route)")
            }
            try await server.stop()
        }
    }
}
