import Foundation
import Testing

/// Every report recomputed from what `coffer transactions --format json` (and `coffer accounts`, `coffer balances`)
/// print, by this test's own reading of the README's definitions, and compared figure by figure with the real
/// binary's `coffer report … --format json`: the reports add up what the store holds, no more, no less.
@Suite struct ReportRecomputeCLITests {
    struct Row {
        var id: String
        var account: String
        var amount: Decimal
        var currency: String
        var debit: Bool
        var type: String
        var status: String
        var day: String
        var mcc: Int?
        var text: String
    }

    static func rows(_ json: [[String: Any]]) -> [Row] {
        json.map { t in
            let money = t["transactionAmount"] as! [String: Any]
            return Row(id: t["id"] as! String, account: t["accountID"] as! String,
                       amount: Decimal(string: money["amount"] as! String, locale: Locale(identifier: "en_US_POSIX"))!,
                       currency: money["currencyCode"] as! String, debit: t["creditDebitIndicator"] as! String == "debit",
                       type: t["transactionType"] as! String, status: t["status"] as! String,
                       day: String((t["transactionDate"] as! String).prefix(10)), mcc: t["merchantCategoryCode"] as? Int,
                       text: (t["originalTransactionDescription"] as? String ?? "") + " " + (t["transactionDescription"] as? String ?? ""))
        }
    }

    static func dayNumber(_ day: String) -> Int {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return Int(formatter.date(from: day)!.timeIntervalSince1970 / 86_400)
    }

    /// Own transfers as the README defines them: a debit and a credit of two accounts, same amount and currency,
    /// at most 5 days apart, one text naming the other account (last four digits, institution) or a transfer type.
    static func ownTransfers(_ rows: [Row], accounts: [[String: Any]]) -> Set<String> {
        var digits: [String: String] = [:], institution: [String: String] = [:]
        for account in accounts {
            let id = account["id"] as! String
            let name = account["displayName"] as! String
            let tail = String(name.filter(\.isNumber).suffix(4))
            if tail.count == 4 { digits[id] = tail }
            institution[id] = (account["institutionName"] as! String).uppercased()
        }
        func names(_ row: Row, _ account: String) -> Bool {
            let text = row.text.uppercased()
            return digits[account].map { text.contains($0) } == true || institution[account].map { text.contains($0) } == true
        }
        var candidates: [(Row, Row, Int, Int)] = []
        for d in rows where d.debit && d.status != "rejected" {
            for c in rows where !c.debit && c.status != "rejected" && c.account != d.account && c.currency == d.currency && c.amount == d.amount {
                let days = abs(dayNumber(c.day) - dayNumber(d.day))
                guard days <= 5 else { continue }
                let strength = names(d, c.account) || names(c, d.account) ? 2 : (d.type == "transfer" || c.type == "transfer") ? 1 : 0
                if strength > 0 { candidates.append((d, c, strength, days)) }
            }
        }
        candidates.sort { ($0.2, -$0.3) > ($1.2, -$1.3) }
        var own = Set<String>()
        for (d, c, _, _) in candidates where !own.contains(d.id) && !own.contains(c.id) {
            own.insert(d.id)
            own.insert(c.id)
        }
        return own
    }

    static let spendingTypes: Set<String> = ["pointOfSale", "billPayment", "directDebit", "standingOrder", "check", "fee", "atm",
                                             "withdrawal", "unknown"]
    static let incomeTypes: Set<String> = ["directDeposit", "deposit", "interest", "dividend", "unknown"]

    /// [group: [currency: (figures by name)]] of one report kind, recomputed.
    static func recompute(_ kind: String, rows: [Row], own: Set<String>, statuses: Set<String>,
                          group: (Row) -> String) -> [String: [String: [String: Decimal]]] {
        var result: [String: [String: [String: Decimal]]] = [:]
        for row in rows where statuses.contains(row.status) && !own.contains(row.id) {
            var figures = result[group(row), default: [:]][row.currency, default: [:]]
            func add(_ name: String, _ value: Decimal) { figures[name, default: 0] += value }
            switch kind {
            case "spending":
                if row.debit, spendingTypes.contains(row.type) { add("amount", row.amount); add("count", 1) }
                else if !row.debit, row.type == "refund" { add("amount", -row.amount); add("count", 1) }
                else { continue }
            case "income":
                guard !row.debit, incomeTypes.contains(row.type) else { continue }
                add("amount", row.amount); add("count", 1)
            default:  // cashflow
                if row.debit { add("out", row.amount); add("net", -row.amount) }
                else if row.type == "refund" { add("out", -row.amount); add("net", row.amount) }
                else { add("in", row.amount); add("net", row.amount) }
                add("count", 1)
            }
            result[group(row), default: [:]][row.currency] = figures
        }
        return result
    }

    @Test func everyReportEqualsWhatTheTransactionsAddUpTo() throws {
        let fixture = try ReportCLITests.Fixture()
        let transactions = Self.rows(try jsonArray(try fixture.run(["transactions", "--format", "json"]).stdout))
        let accounts = try jsonArray(try fixture.run(["accounts", "--format", "json"]).stdout)
        let own = Self.ownTransfers(transactions, accounts: accounts)
        #expect(own.count == 4)   // checking → savings, checking → card: two pairs
        let names = Dictionary(uniqueKeysWithValues: accounts.map { ($0["id"] as! String, $0["displayName"] as! String) })
        let groupings: [(String, (Row) -> String)] = [
            ("month", { String($0.day.prefix(7)) }),
            ("day", { $0.day }),
            ("account", { names[$0.account]! }),
            ("mcc", { row in row.mcc.map { String(format: "%04d", $0) } ?? "none" }),
        ]
        var compared = 0
        for kind in ["spending", "income", "cashflow"] {
            for statuses in [["booked"], ["pending", "booked"]] {
                for (by, group) in groupings {
                    let document = try fixture.json(["report", kind, "--by", by, "--status", statuses.joined(separator: ",")])
                    let expected = Self.recompute(kind, rows: transactions, own: own, statuses: Set(statuses), group: group)
                    var seen = Set<String>()
                    for entry in document["groups"] as? [[String: Any]] ?? [] {
                        let key = by == "mcc" ? entry["key"] as! String : entry["label"] as! String
                        seen.insert(key)
                        for (currency, figures) in entry["totals"] as? [String: [String: Any]] ?? [:] {
                            let want = expected[key]?[currency] ?? [:]
                            for (name, value) in figures where ["amount", "count", "in", "out", "net"].contains(name) {
                                let got = Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX"))!
                                #expect(got == (want[name] ?? 0), "\(kind) by \(by) \(statuses): \(key) \(currency) \(name)")
                                compared += 1
                            }
                        }
                    }
                    // Every group the transactions give is in the report (periods without any are filled in too).
                    #expect(Set(expected.keys).isSubset(of: seen), "\(kind) by \(by): \(Set(expected.keys).subtracting(seen))")
                }
            }
        }
        #expect(compared > 300)
    }

    @Test func theBalanceReportEqualsStatementsPlusTransactions() throws {
        let fixture = try ReportCLITests.Fixture()
        let transactions = Self.rows(try jsonArray(try fixture.run(["transactions", "--format", "json"]).stdout))
        let balances = try jsonArray(try fixture.run(["balances", "--format", "json"]).stdout)
        let accounts = try jsonArray(try fixture.run(["accounts", "--format", "json"]).stdout)
        for account in accounts {
            let id = account["id"] as! String
            var anchors: [Int: Decimal] = [:]
            for balance in balances where balance["accountID"] as? String == id {
                let current = balance["currentBalance"] as! [String: Any]
                let booked = (current["booked"] ?? current["available"]) as! [String: Any]
                let money = booked["amount"] as! [String: Any]
                let value = Decimal(string: money["amount"] as! String, locale: Locale(identifier: "en_US_POSIX"))!
                anchors[Self.dayNumber(String((booked["asOfDate"] as! String).prefix(10)))] =
                    booked["creditDebitIndicator"] as! String == "credit" ? value : -value
            }
            let report = try fixture.run(["report", "balance", "--account", id, "--by", "day", "--format", "json"])
            guard let firstAnchor = anchors.keys.min() else {
                #expect(report.status == 64)
                continue
            }
            let document = try jsonObject(report.stdout)
            var moved: [Int: Decimal] = [:]
            for row in transactions where row.account == id && row.status == "booked" {
                moved[Self.dayNumber(row.day), default: 0] += row.debit ? -row.amount : row.amount
            }
            // Forward from the first statement, resetting at each; backward before it.
            func balance(at day: Int) -> Decimal {
                if day < firstAnchor {
                    var value = anchors[firstAnchor]!
                    for d in (day + 1)...firstAnchor { value -= moved[d] ?? 0 }
                    return value
                }
                let anchor = anchors.keys.filter { $0 <= day }.max()!
                var value = anchors[anchor]!
                if day > anchor { for d in (anchor + 1)...day { value += moved[d] ?? 0 } }
                return value
            }
            let points = document["points"] as? [[String: Any]] ?? []
            #expect(!points.isEmpty)
            for point in points {
                let day = Self.dayNumber(point["date"] as! String)
                let got = Decimal(string: point["balance"] as! String, locale: Locale(identifier: "en_US_POSIX"))!
                #expect(got == balance(at: day), "\(account["displayName"]!) on \(point["date"]!)")
            }
        }
    }
}
