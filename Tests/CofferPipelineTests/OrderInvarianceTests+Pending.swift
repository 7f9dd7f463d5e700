import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// Pending rows in the order property (docs/dedupe.md, "Statement chronology and pending rows"): a quarter of the
/// purchases are authorized on their day (pending) and either book 1–4 days later (a third of them with a tip of up
/// to 20%) or are cancelled 1–4 days later; a third of the pending listings word the purchase otherwise
/// (`PREAUTH BLUE BOTTLE COFFEE`). Each statement is a snapshot as of the last day of its period: a row pending on
/// day d that books on day b is listed pending by statements as of [d, b) that list pending rows (camt.052, a CSV
/// export with a status column), and booked, dated b, by every statement as of b or later whose period holds b; a
/// cancelled one is gone from statements as of its cancel day or later. OFX and camt.053 list booked rows only.
///
/// The expected store is computed from the set of statements by the rule (`expectedWithPending`), and every import
/// order must give it, and the same instants in each order.
extension OrderInvarianceTests {
    /// A truth row as one statement lists it: its day and amount there, pending or booked, and the local day the
    /// importer reads (camt.053 books some rows a day or two later).
    struct Listing {
        var row: Truth
        var pending: Bool
        var day: Int
    }

    /// Makes a purchase start pending: it books or is cancelled 1–4 days later.
    static func makePending(_ t: inout Truth, _ rng: inout SplitMix) {
        let lag = Int.random(in: 1...4, using: &rng)
        t.camtSkew = 0  // a row that was pending is booked on its booking day in every format
        t.pendingCents = t.cents
        t.pendingText = Int.random(in: 0..<3, using: &rng) == 0
        if Int.random(in: 0..<3, using: &rng) == 0 {
            t.fate = .cancelledOn(t.day + lag)
        } else {
            t.fate = .booksOn(t.day + lag)
            if Int.random(in: 0..<3, using: &rng) == 0 {
                t.cents = t.pendingCents + t.pendingCents * Int.random(in: 1...20, using: &rng) / 100
            }
        }
    }

    /// A pending row is its booked form when the merchant agrees and the amount is equal or up to 20% more within
    /// 10 days (docs/dedupe.md): two purchases at one merchant with amounts within 25% of each other, one of them
    /// pending, are that known ambiguity, and the ledger has none.
    static func ambiguous(_ t: Truth, _ others: [Truth]) -> Bool {
        func amounts(_ x: Truth) -> [Int] { x.fate == .booked ? [x.cents] : [x.cents, x.pendingCents] }
        return others.contains { o in
            guard o.merchant == t.merchant, o.fate != .booked || t.fate != .booked else { return false }
            return amounts(o).contains { a in amounts(t).contains { b in max(a, b) * 100 <= min(a, b) * 125 } }
        }
    }

    static func listsPending(_ format: Format) -> Bool { format == .csvStatus || format == .camt052 }

    /// How a statement of `format` for the days `from...through`, made on `through`, lists `t`, if it does.
    static func listing(_ t: Truth, format: Format, from: Int, through: Int) -> Listing? {
        func booked(_ day: Int) -> Listing? {
            guard day >= from, day <= through else { return nil }
            var row = t
            row.day = day
            return Listing(row: row, pending: false, day: format == .camt || format == .camt052 ? day + t.camtSkew : day)
        }
        switch t.fate {
        case .booked: return booked(t.day)
        case .booksOn(let b) where b <= through: return booked(b)
        case .cancelledOn(let c) where c <= through: return nil
        case .booksOn, .cancelledOn:
            guard listsPending(format), t.day >= from, t.day <= through else { return nil }
            var row = t
            row.cents = t.pendingCents
            return Listing(row: row, pending: true, day: t.day)
        }
    }

    static func pendingName(_ t: Truth) -> String? {
        t.pendingText ? "PREAUTH " + merchants[t.merchant].uppercased() : nil
    }

    static func statusCSV(_ listings: [Listing]) -> String {
        var out = "Date,Payee,Amount,Status\n"
        for l in listings {
            let (y, m, d) = day(l.row.day)
            let text = l.pending ? pendingName(l.row) ?? merchants[l.row.merchant] : merchants[l.row.merchant]
            out += "\(y)-\(m)-\(d),\(text),\(l.row.credit ? "" : "-")\(amount(l.row.cents)),\(l.pending ? "pending" : "booked")\n"
        }
        return out
    }

    /// A camt.053 statement (booked rows) or camt.052 report (booked and pending rows) made at midnight UTC of
    /// `through`, with its period: the same as-of instant as an OFX `DTSERVER` or a CSV's latest row of that day.
    static func camt(_ listings: [Listing], from: Int, through: Int, report: Bool, id: Int) -> String {
        var entries = ""
        for l in listings {
            let t = l.row
            if l.pending {
                let (y, m, d) = day(t.day)
                let name = pendingName(t) ?? merchants[t.merchant] + " GmbH"
                entries += """
                    <Ntry><Amt Ccy="USD">\(amount(t.cents))</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>PDNG</Sts>
                    <ValDt><Dt>\(y)-\(m)-\(d)</Dt></ValDt>
                    <NtryDtls><TxDtls><RltdPties><Cdtr><Nm>\(name)</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>

                    """
                continue
            }
            let (y, m, d) = day(t.day + t.camtSkew)
            let party = t.credit ? "<Dbtr><Nm>\(merchants[t.merchant])</Nm></Dbtr>" : "<Cdtr><Nm>\(merchants[t.merchant]) GmbH</Nm></Cdtr>"
            entries += """
                <Ntry><Amt Ccy="USD">\(amount(t.cents))</Amt><CdtDbtInd>\(t.credit ? "CRDT" : "DBIT")</CdtDbtInd><Sts>BOOK</Sts>
                <BookgDt><Dt>\(y)-\(m)-\(d)</Dt></BookgDt><AcctSvcrRef>C\(t.index)</AcctSvcrRef>
                <NtryDtls><TxDtls><RltdPties>\(party)</RltdPties></TxDtls></NtryDtls></Ntry>

                """
        }
        let (y1, m1, d1) = day(from), (y2, m2, d2) = day(through)
        let (message, element, version) = report ? ("BkToCstmrAcctRpt", "Rpt", "052") : ("BkToCstmrStmt", "Stmt", "053")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.\(version).001.02"><\(message)>
            <GrpHdr><MsgId>M\(id)</MsgId><CreDtTm>\(y2)-\(m2)-\(d2)T00:00:00Z</CreDtTm></GrpHdr>
            <\(element)><Id>S\(id)</Id><CreDtTm>\(y2)-\(m2)-\(d2)T00:00:00Z</CreDtTm>
            <FrToDt><FrDtTm>\(y1)-\(m1)-\(d1)T00:00:00Z</FrDtTm><ToDtTm>\(y2)-\(m2)-\(d2)T23:59:59Z</ToDtTm></FrToDt>
            <Acct><Id><Othr><Id>4400112233</Id></Othr></Id><Ccy>USD</Ccy></Acct>
            \(entries)</\(element)></\(message)></Document>
            """
    }

    /// The CSV export with a status column (the scenarios' profile).
    static var statusProfile: String { PendingChronologyTests.statusProfile }

    /// One statement of a case with pending rows, with what it lists and the as-of day and period the importer
    /// reads from it; nil for a CSV export that would list nothing.
    static func statement(_ truth: [Truth], index i: Int, format: Format, from: Int, through: Int,
                          reissued: Bool) -> Statement? {
        var listings: [Int: Listing] = [:]
        for t in truth {
            if let l = listing(t, format: format, from: from, through: through) { listings[t.index] = l }
        }
        let rows = listings.values.sorted { ($0.row.day, $0.row.index) < ($1.row.day, $1.row.index) }
        let text: String
        switch format {
        case .ofx: text = ofx(rows.map(\.row), from: from, through: through, idPrefix: reissued ? "R\(i)-" : "F")
        case .csv: text = csv(rows.map(\.row))
        case .csvStatus: text = statusCSV(rows)
        case .camt, .camt052: text = camt(rows, from: from, through: through, report: format == .camt052, id: i)
        }
        let ext = format == .camt || format == .camt052 ? "xml" : format == .ofx ? "ofx" : "csv"
        var s = Statement(name: "s\(i)-\(format.rawValue).\(ext)", format: format, from: from, through: through, text: text)
        s.listings = listings
        s.listsPending = listsPending(format)
        if format == .csv || format == .csvStatus {
            // A CSV export states neither period nor as-of time: its rows' first and last day are both.
            guard let first = rows.map(\.day).min(), let last = rows.map(\.day).max() else { return nil }
            (s.coverFrom, s.coverThrough, s.asOf) = (first, last, last)
        } else {
            (s.coverFrom, s.coverThrough, s.asOf) = (from, through, through)
        }
        return s
    }

    /// 3–5 statements of any of the five formats over overlapping windows of days 0–17 (the ledger's 14 days and
    /// the bookings after them), each made on its last day.
    static func pendingStatements(_ truth: [Truth], _ rng: inout SplitMix) -> [Statement] {
        let count = Int.random(in: 3...5, using: &rng)
        var out: [Statement] = []
        for i in 0..<count {
            let from = i == 0 ? 0 : Int.random(in: 0...11, using: &rng)
            let through = i == count - 1 ? 17 : min(17, from + Int.random(in: 2...9, using: &rng))
            let format = Format.allCases.randomElement(using: &rng)!
            let reissued = format == .ofx && Int.random(in: 0..<3, using: &rng) == 0
            if let s = statement(truth, index: i, format: format, from: from, through: through, reissued: reissued) {
                out.append(s)
            }
        }
        return out
    }

    /// The store the rule gives for a set of statements (docs/dedupe.md), as `projection(_:withStatus:)` writes it.
    /// A row some statement lists is there, dated by the earliest day a listing gives, with the amount and status of
    /// the newest listing (a booked one when any statement lists it booked), unless it was only ever listed pending
    /// and a statement strictly newer than every listing of it covers its day, does not list it, and either lists
    /// pending rows or ends 10 days or more after it.
    static func expectedWithPending(_ truth: [Truth], _ statements: [Statement]) -> [String] {
        truth.compactMap { t in
            let listed = statements.compactMap { s in s.listings[t.index].map { (s, $0) } }
            guard let newest = listed.max(by: { $0.0.asOf < $1.0.asOf }) else { return nil }
            let day = listed.map(\.1.day).min()!
            if listed.allSatisfy(\.1.pending) {
                let newestAsOf = newest.0.asOf
                let retired = statements.contains { s in
                    s.listings[t.index] == nil && s.asOf > newestAsOf && s.coverFrom <= day && day <= s.coverThrough
                        && (s.listsPending || s.coverThrough - day >= 10)
                }
                if retired { return nil }
            }
            let (y, m, d) = Self.day(day)
            let cents = newest.1.row.cents
            return "\(y)-\(m)-\(d) \(t.credit ? cents : -cents) \(newest.1.pending ? "pending" : "booked")"
        }.sorted()
    }

    /// A store as the truth is written: the bank's own day, the signed cents and, with `withStatus`, pending or
    /// booked (authorized counts as pending).
    static func projection(_ transactions: [Transaction], withStatus: Bool) -> [String] {
        guard withStatus else { return projection(transactions) }
        return transactions.map { t in
            let cents = NSDecimalNumber(decimal: t.transactionAmount.amount * 100).intValue
            let status = t.status == .booked ? "booked" : "pending"
            return "\(CalendarDay.string(day: t.localDay)) \(t.creditDebitIndicator == .debit ? -cents : cents) \(status)"
        }.sorted()
    }

    /// What two orders must agree on beyond the truth: the exact instant and offset of each row. (Texts and posting
    /// dates are not compared: across sources the first source's text stays, and a posting date is kept only when a
    /// later source moves a row earlier, docs/dedupe.md "Not yet".)
    static func instants(_ transactions: [Transaction]) -> [String] {
        transactions.map { t in
            let cents = NSDecimalNumber(decimal: t.transactionAmount.amount * 100).intValue
            return "\(t.transactionDate.timeIntervalSince1970) \(t.timeZoneOffset.map(String.init) ?? "-") \(cents) \(t.status)"
        }.sorted()
    }

    /// 80 cases by default (about 20 s), all of `COFFER_PROPERTY_CASES` when it is set.
    @Test func anyImportOrderGivesTheSameStoreWithPendingRows() async throws {
        for seed in Self.cases.prefix(ProcessInfo.processInfo.environment["COFFER_PROPERTY_CASES"] == nil ? 80 : Int.max) {
            var rng = SplitMix(state: seed &* 31 &+ 17)
            let truth = Self.ledger(&rng, pending: true)
            let statements = Self.pendingStatements(truth, &rng)
            let expected = Self.expectedWithPending(truth, statements)
            Self.dump(statements)
            let orders = [Array(statements.indices), Array(statements.indices.reversed()),
                          Array(statements.indices).shuffled(using: &rng)]
            var first: [String]?
            for order in orders {
                let rows = try await Self.importTransactions(statements, order: order, seed: seed)
                let stored = Self.projection(rows, withStatus: true)
                let context = "seed \(seed) order \(order) (\(statements.map { "\($0.name) \($0.coverFrom)-\($0.coverThrough)@\($0.asOf)" }))"
                if stored != expected {
                    Issue.record("\(context): \(UndoTests.difference(stored, expected))")
                    return
                }
                let exact = Self.instants(rows)
                if let first, exact != first {
                    Issue.record("\(context): the same rows at other instants than the first order's")
                    return
                }
                first = exact
            }
        }
    }
}
