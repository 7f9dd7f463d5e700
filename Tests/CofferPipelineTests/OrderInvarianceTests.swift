import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing
import CofferTestSupport

/// "Any import order gives the same store" (docs/dedupe.md), as a property: a ground-truth ledger of one account
/// is cut into overlapping statements of three formats (OFX with ids and times, a CSV export without ids, camt
/// with its own ids and a booking-date skew), imported through the real importer into real stores in random
/// orders; every final store must hold each true transaction exactly once, dated by the earliest date any
/// statement gives it, and every order must end in the same store (ids aside).
///
/// Covered: same-day twins, equal amounts at different merchants on one day, texts that differ by source, dates
/// with and without times, times late in the evening in a negative offset (the next day in UTC: the bank's own
/// day counts), posting skew up to 2 days, OFX downloads whose FITIDs are re-issued. Pending rows and statement
/// chronology (rows authorized, then booked with a tip or other words, or cancelled; camt.052 reports and a CSV
/// export with a status column beside OFX and camt.053; statements as of different days): the second property,
/// `anyImportOrderGivesTheSameStoreWithPendingRows`, in `OrderInvarianceTests+Pending.swift`; what a monitor sees
/// meanwhile: `MonitorPropertyTests`. Texts must agree across orders too (the newest statement's); posting dates
/// are not compared (docs/dedupe.md, "Not yet").
///
/// `COFFER_PROPERTY_CASES=2000 swift test --filter OrderInvarianceTests` runs more cases (150 and 80 by default);
/// a failure prints its seed and the order, `COFFER_PROPERTY_SEED=N` replays one case, and
/// `COFFER_PROPERTY_DUMP=DIR` writes its files (and the two CSV profiles) to replay with the CLI.
@Suite struct OrderInvarianceTests {
    typealias SplitMix = SplitMix64

    /// One true transaction.
    struct Truth {
        var index: Int
        var day: Int            // days after 2026-05-01
        var merchant: Int
        var cents: Int
        var credit: Bool
        var camtSkew: Int       // the camt booking date is this many days later
        var ofxTime: Int        // the OFX gives no time (0), 10:00 EST (1), or a late evening time, the next day in UTC (2)
        /// Booked from the start, or authorized on `day` (pending) and booked or cancelled later
        /// (`OrderInvarianceTests+Pending.swift`).
        var fate: Fate = .booked
        /// The pending amount (the booked one, `cents`, may add a tip of up to 20%).
        var pendingCents = 0
        /// The pending listing words it otherwise (`PREAUTH BLUE BOTTLE COFFEE`).
        var pendingText = false
    }

    enum Fate: Equatable {
        case booked
        case booksOn(Int)
        case cancelledOn(Int)
    }

    static let merchants = ["Blue Bottle Coffee", "Lakeside Parking", "Fairway Grocers", "Metro Transit",
                            "Corner Bakery", "Hollis Payroll", "City Water Utility"]
    static let base = CalendarDay.date(year: 2026, month: 5, day: 1)!

    /// A ledger: 14 days, 1–4 transactions a day; some days hold twins, some equal amounts at two merchants.
    /// One merchant's amount never repeats within 3 days (5 with pending rows) except as a same-day twin (a known
    /// ambiguity of matching across sources, docs/dedupe.md).
    /// With `pending`, a quarter of the purchases start pending (see `makePending`); without it the ledger is the one
    /// earlier versions generated for the same seed.
    static func ledger(_ rng: inout SplitMix, pending: Bool = false) -> [Truth] {
        var out: [Truth] = []
        var lastUse: [String: Int] = [:]
        for day in 0..<14 {
            let count = Int.random(in: 1...4, using: &rng)
            var today: [Truth] = []
            while today.count < count {
                let merchant = Int.random(in: 0..<merchants.count, using: &rng)
                let credit = merchant == 5
                var cents = credit ? 250_000 + Int.random(in: 0..<500, using: &rng) * 100 : Int.random(in: 150...9_000, using: &rng)
                if let other = today.last, Int.random(in: 0..<4, using: &rng) == 0, other.merchant != merchant, !other.credit, !credit {
                    cents = other.cents  // the $5.75 parking beside the $5.75 coffee
                }
                let key = "\(merchant)/\(cents)"
                // With pending rows, camt.052 beside camt.053 makes the 2-day skew meet the 3-day window more often:
                // no repeat within 5 days (A's listing on day a+2 is then more than 3 days from B's on b).
                if let used = lastUse[key], day - used <= (pending ? 5 : 3) { continue }
                lastUse[key] = day
                var t = Truth(index: out.count + today.count, day: day, merchant: merchant, cents: cents, credit: credit,
                              camtSkew: Int.random(in: 0...2, using: &rng), ofxTime: Int.random(in: 0...2, using: &rng))
                if pending {
                    if !credit, Int.random(in: 0..<4, using: &rng) == 0 { makePending(&t, &rng) }
                    if ambiguous(t, out + today) { continue }
                }
                today.append(t)
                if !credit, Int.random(in: 0..<5, using: &rng) == 0 {  // a twin: the same purchase again that day
                    var twin = t
                    twin.index = t.index + 1
                    today.append(twin)
                }
            }
            out.append(contentsOf: today)
        }
        return out
    }

    /// `csvStatus` (a CSV export with a status column) and `camt052` (an intraday report) list pending rows; they
    /// come only in cases with pending rows.
    enum Format: String, CaseIterable { case ofx, csv, camt, csvStatus, camt052 }

    struct Statement {
        var name: String
        var format: Format
        var from: Int
        var through: Int
        var text: String
        /// Cases with pending rows: what the statement lists (by truth index) and the as-of day and period the
        /// importer reads from it (a CSV's are its rows' first and last day).
        var listings: [Int: Listing] = [:]
        var asOf = 0
        var coverFrom = 0
        var coverThrough = 0
        var listsPending = false
    }

    static func day(_ offset: Int) -> (y: String, m: String, d: String) {
        let text = CalendarDay.string(base.addingTimeInterval(Double(offset) * 86_400))
        let parts = text.split(separator: "-").map(String.init)
        return (parts[0], parts[1], parts[2])
    }

    static func amount(_ cents: Int) -> String { String(format: "%d.%02d", cents / 100, cents % 100) }

    /// `idPrefix` is the FITID's prefix: `F` in every statement, or one of its own when the bank re-issues ids.
    static func ofx(_ rows: [Truth], from: Int, through: Int, idPrefix: String = "F") -> String {
        var body = ""
        for t in rows {
            let (y, m, d) = day(t.day)
            // Late evenings: 21:30 PST or 23:15 EST, both after midnight UTC.
            let evening = t.merchant % 2 == 0 ? "213000[-8:PST]" : "231500[-5:EST]"
            let posted = y + m + d + ["", "100000[-5:EST]", evening][t.ofxTime]
            let name = merchants[t.merchant].uppercased() + " #\(4000 + t.merchant)"
            body += "<STMTTRN><TRNTYPE>\(t.credit ? "CREDIT" : "DEBIT")<DTPOSTED>\(posted)<TRNAMT>\(t.credit ? "" : "-")"
                + "\(amount(t.cents))<FITID>\(idPrefix)\(t.index)<NAME>\(name)</STMTTRN>\n"
        }
        let (y1, m1, d1) = day(from), (y2, m2, d2) = day(through)
        return """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>\(y2)\(m2)\(d2)<FI><ORG>Prop Bank<FID>77</FI></SONRS></SIGNONMSGSRSV1>
            <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
            <BANKACCTFROM><BANKID>77<ACCTID>4400112233<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>\(y1)\(m1)\(d1)<DTEND>\(y2)\(m2)\(d2)
            \(body)</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

            """
    }

    static func csv(_ rows: [Truth]) -> String {
        var out = "Booking Date,Text,Value\n"
        for t in rows {
            let (y, m, d) = day(t.day)
            out += "\(y)-\(m)-\(d),\(merchants[t.merchant]),\(t.credit ? "" : "-")\(amount(t.cents))\n"
        }
        return out
    }

    static func camt(_ rows: [Truth]) -> String {
        var entries = ""
        for t in rows {
            let (y, m, d) = day(t.day + t.camtSkew)
            let party = t.credit ? "<Dbtr><Nm>\(merchants[t.merchant])</Nm></Dbtr>" : "<Cdtr><Nm>\(merchants[t.merchant]) GmbH</Nm></Cdtr>"
            entries += """
                <Ntry><Amt Ccy="USD">\(amount(t.cents))</Amt><CdtDbtInd>\(t.credit ? "CRDT" : "DBIT")</CdtDbtInd><Sts>BOOK</Sts>
                <BookgDt><Dt>\(y)-\(m)-\(d)</Dt></BookgDt><AcctSvcrRef>C\(t.index)</AcctSvcrRef>
                <NtryDtls><TxDtls><RltdPties>\(party)</RltdPties></TxDtls></NtryDtls></Ntry>

                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
            <GrpHdr><MsgId>M</MsgId><CreDtTm>2026-05-20T08:00:00Z</CreDtTm></GrpHdr>
            <Stmt><Id>S</Id><Acct><Id><Othr><Id>4400112233</Id></Othr></Id><Ccy>USD</Ccy></Acct>
            \(entries)</Stmt></BkToCstmrStmt></Document>
            """
    }

    static let profile = """
        id: prop-bank
        institution: Prop Bank
        match: {header: [Booking Date, Text, Value]}
        date_format: yyyy-MM-dd
        columns: {date: Booking Date, description: Text, amount: Value}
        account: {number: "4400112233", kind: asset, currency: USD}
        """

    /// 3–4 statements over overlapping windows of the 14 days, of random formats; together they cover every day.
    static func statements(_ truth: [Truth], _ rng: inout SplitMix) -> [Statement] {
        let count = Int.random(in: 3...4, using: &rng)
        var out: [Statement] = []
        for i in 0..<count {
            let from = i == 0 ? 0 : Int.random(in: 0...9, using: &rng)
            let through = i == count - 1 ? 13 : min(13, from + Int.random(in: 3...9, using: &rng))
            let format = [Format.ofx, .csv, .camt].randomElement(using: &rng)!
            let rows = truth.filter { $0.day >= from && $0.day <= through }
            let text: String
            switch format {
            case .ofx:
                // One OFX statement in three comes with re-issued FITIDs (a bank that changes them per download).
                let reissued = Int.random(in: 0..<3, using: &rng) == 0
                text = ofx(rows, from: from, through: through, idPrefix: reissued ? "R\(i)-" : "F")
            case .csv: text = csv(rows)
            case .camt: text = camt(rows)
            case .csvStatus, .camt052: preconditionFailure("only in cases with pending rows")
            }
            let ext = format == .camt ? "xml" : format.rawValue
            out.append(Statement(name: "s\(i)-\(format.rawValue).\(ext)", format: format, from: from, through: through, text: text))
        }
        if !out.contains(where: { $0.from == 0 && $0.through == 13 }) {
            // Make sure every day is listed at least once: a full-range CSV.
            out.append(Statement(name: "full.csv", format: .csv, from: 0, through: 13, text: csv(truth)))
        }
        return out
    }

    /// What a store must hold, order aside: (the bank's own day, signed cents) of every transaction, sorted.
    static func projection(_ transactions: [Transaction]) -> [String] {
        transactions.map { t in
            let cents = NSDecimalNumber(decimal: t.transactionAmount.amount * 100).intValue
            return "\(CalendarDay.string(day: t.localDay)) \(t.creditDebitIndicator == .debit ? -cents : cents)"
        }.sorted()
    }

    /// The truth under the rule: each transaction once, dated by the earliest day a statement listing it gives.
    static func expected(_ truth: [Truth], _ statements: [Statement]) -> [String] {
        truth.map { t in
            var days: [Int] = []
            for s in statements where t.day >= s.from && t.day <= s.through {
                days.append(s.format == .camt ? t.day + t.camtSkew : t.day)
            }
            let (y, m, d) = day(days.min() ?? t.day)
            return "\(y)-\(m)-\(d) \(t.credit ? t.cents : -t.cents)"
        }.sorted()
    }

    /// The shipped configuration plus the test profile, loaded once for every case.
    static let configuration: CofferConfiguration = {
        let bench = try! Workbench()
        try! profile.write(toFile: bench.folder + "/config/profiles/prop-bank.yaml", atomically: true, encoding: .utf8)
        try! statusProfile.write(toFile: bench.folder + "/config/profiles/prop-bank-status.yaml", atomically: true, encoding: .utf8)
        return try! CofferConfiguration.load(directory: bench.folder + "/config")
    }()

    static func importAll(_ statements: [Statement], order: [Int], seed: UInt64) async throws -> [String] {
        projection(try await importTransactions(statements, order: order, seed: seed))
    }

    /// Imports the statements in `order` into a fresh store and returns what it holds.
    static func importTransactions(_ statements: [Statement], order: [Int], seed: UInt64) async throws -> [Transaction] {
        let folder = NSTemporaryDirectory() + "coffer-order-tests/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try FinanceStore(path: folder + "/store.sqlite")
        let importer = Importer(store: store, configuration: configuration)
        for i in order {
            let path = folder + "/" + statements[i].name
            try statements[i].text.write(toFile: path, atomically: true, encoding: .utf8)
            let report = try await importer.importFile(path)
            // Two statements may come out byte for byte alike (same window, same format): skipped as imported.
            #expect(report.status == .imported || report.status == .alreadyImported,
                    "seed \(seed) order \(order) \(statements[i].name): \(report.error?.description ?? "")")
        }
        #expect(try await store.accounts(query: AccountQuery()).count == 1, "seed \(seed) order \(order): one account")
        return try await store.transactions(query: TransactionQuery())
    }

    /// With `COFFER_PROPERTY_DUMP=DIR`, writes the case's files, to replay with the CLI:
    /// `coffer import --config DIR FILES...` in the order printed.
    static func dump(_ statements: [Statement]) {
        guard let dump = ProcessInfo.processInfo.environment["COFFER_PROPERTY_DUMP"] else { return }
        try? FileManager.default.createDirectory(atPath: dump + "/profiles", withIntermediateDirectories: true)
        try? profile.write(toFile: dump + "/profiles/prop-bank.yaml", atomically: true, encoding: .utf8)
        try? statusProfile.write(toFile: dump + "/profiles/prop-bank-status.yaml", atomically: true, encoding: .utf8)
        for s in statements { try? s.text.write(toFile: dump + "/" + s.name, atomically: true, encoding: .utf8) }
    }

    static var cases: [UInt64] {
        if let seed = ProcessInfo.processInfo.environment["COFFER_PROPERTY_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = ProcessInfo.processInfo.environment["COFFER_PROPERTY_CASES"].flatMap(Int.init) ?? 150
        return (1...UInt64(count)).map { $0 }
    }

    @Test func anyImportOrderGivesTheSameStore() async throws {
        for seed in Self.cases {
            var rng = SplitMix(state: seed)
            let truth = Self.ledger(&rng)
            let statements = Self.statements(truth, &rng)
            let expected = Self.expected(truth, statements)
            Self.dump(statements)
            let orders = [Array(statements.indices), Array(statements.indices.reversed()),
                          Array(statements.indices).shuffled(using: &rng)]
            var firstTexts: [String]?
            for order in orders {
                let transactions = try await Self.importTransactions(statements, order: order, seed: seed)
                let stored = Self.projection(transactions)
                // Texts: the newest statement's, whichever order they came in (docs/dedupe.md, "Values").
                let texts = transactions.map { "\(CalendarDay.string(day: $0.localDay)) \($0.transactionAmount.amount) "
                    + "\($0.transactionDescription) | \($0.originalTransactionDescription) | \($0.merchantName ?? "-")" }.sorted()
                if let firstTexts, texts != firstTexts {
                    let differing = Set(texts).symmetricDifference(firstTexts).sorted()
                    Issue.record("seed \(seed) order \(order) (\(statements.map(\.name))): texts differ from order \(orders[0]): \(differing)")
                    return
                }
                firstTexts = texts
                if stored != expected {
                    var counts: [String: Int] = [:]
                    for row in expected { counts[row, default: 0] += 1 }
                    for row in stored { counts[row, default: 0] -= 1 }
                    let missing = counts.filter { $0.value > 0 }.map { "\($0.key) ×\($0.value)" }.sorted()
                    let extra = counts.filter { $0.value < 0 }.map { "\($0.key) ×\(-$0.value)" }.sorted()
                    Issue.record("seed \(seed) order \(order) (\(statements.map(\.name))): missing \(missing), extra \(extra)")
                    return
                }
            }
        }
    }
}
