@testable import CofferPipeline
import CofferModel
import CofferStore
import Foundation
import Testing

/// `PriorRows`: what an account held before an import, by day, amount and direction. The matcher skips its look-ups
/// for a re-issued id and another source's record when it says "none", so it must never say "none" for a row that
/// could be found.
@Suite struct PriorRowsTests {
    /// `name` gives a row's NAME from its FITID (by default "SHOP" and the id).
    static func ofx(_ rows: [(id: String, date: String, amount: String)], name: (String) -> String = { "SHOP \($0)" }) -> String {
        let list = rows.map { "<STMTTRN><TRNTYPE>OTHER<DTPOSTED>\($0.date)<TRNAMT>\($0.amount)<FITID>\($0.id)<NAME>\(name($0.id))</STMTTRN>" }
        return """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
            <BANKACCTFROM><BANKID>121000358<ACCTID>99001122<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260301<DTEND>20260331
            \(list.joined(separator: "\n"))
            </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

            """
    }

    @Test func answersForEveryRowStoredBeforeAndOnlyForThem() async throws {
        let bench = try Workbench()
        let report = try bench.importing("march.ofx", Self.ofx([("A", "20260303", "-12.50"), ("B", "20260320", "100.00")]))
        #expect(report.inserted == 2, "\(report)")
        let stored = try await bench.transactions()
        let a = try #require(stored.first { $0.transactionAmount.amount == Decimal(string: "12.50") })
        let day = a.localDay
        try bench.store.write { writer in
            let prior = PriorRows(writer: writer, accountID: a.accountID, storedThrough: try writer.lastSequence())
            let amount = Decimal(string: "12.50")!
            // The row itself, from any window that holds its day, across a block boundary too.
            #expect(try prior.mayHold(fromDay: day, throughDay: day, amount: amount, indicator: .debit))
            #expect(try prior.mayHold(fromDay: day - 40, throughDay: day + 40, amount: amount, indicator: .debit))
            // Not another amount, direction or day.
            #expect(try !prior.mayHold(fromDay: day, throughDay: day, amount: Decimal(string: "12.51")!, indicator: .debit))
            #expect(try !prior.mayHold(fromDay: day, throughDay: day, amount: amount, indicator: .credit))
            #expect(try !prior.mayHold(fromDay: day + 1, throughDay: day + 10, amount: amount, indicator: .debit))
            // A row stored after the import began is this import's own: not a prior row.
            var own = a
            own.id = UUID()
            own.transactionAmount = CurrencyAmount(amount: Decimal(string: "7.25")!, currencyCode: "USD")
            try writer.insert(own, keys: DedupeKeys(externalID: "ofx:OWN"))
            let fresh = PriorRows(writer: writer, accountID: a.accountID, storedThrough: prior.storedThrough)
            #expect(try !fresh.mayHold(fromDay: day, throughDay: day, amount: Decimal(string: "7.25")!, indicator: .debit))
            // A prior row this import changed answers for its new values too, once its block was read.
            var changed = a
            changed.transactionAmount = CurrencyAmount(amount: Decimal(string: "13.00")!, currencyCode: "USD")
            #expect(try !fresh.mayHold(fromDay: day, throughDay: day, amount: Decimal(string: "13.00")!, indicator: .debit))
            fresh.note(changed)
            #expect(try fresh.mayHold(fromDay: day, throughDay: day, amount: Decimal(string: "13.00")!, indicator: .debit))
        }
    }

    @Test func blocksRoundDownBefore1970() {
        #expect(PriorRows.block(of: 0) == 0 && PriorRows.block(of: 31) == 0 && PriorRows.block(of: 32) == 1)
        #expect(PriorRows.block(of: -1) == -1 && PriorRows.block(of: -32) == -1 && PriorRows.block(of: -33) == -2)
    }

    /// A statement of many rows of a few amounts into an account already holding rows of those amounts on the same
    /// days, then one of those rows again under a new id: the re-issue is still found (the guarded look-up runs
    /// where a prior row of the amount is near), and no row is doubled.
    @Test func aReissuedIDIsStillFoundAmongManyRowsOfItsAmount() async throws {
        let bench = try Workbench()
        let names = ["P1": "HARBOR VIEW FUEL STATION", "P2": "LAKESIDE BOOKS AND MAPS"]
        _ = try bench.importing("prior.ofx", Self.ofx([("P1", "20260310", "-84.00"), ("P2", "20260311", "-23.45")]) { names[$0]! })
        var rows: [(id: String, date: String, amount: String)] = []
        for k in 0..<300 {
            rows.append(("N\(k)", String(format: "202603%02d", 5 + k % 10), k % 2 == 0 ? "-84.00" : "-23.45"))
        }
        let report = try bench.importing("dense.ofx", Self.ofx(rows) { _ in "QUICKMART GROCERY" })
        #expect(report.inserted == 300, "\(report)")
        // The bank re-issues P1's id (same day, amount and text) in a statement that states its period.
        let again = try bench.importing("again.ofx", Self.ofx([("P1-NEW", "20260310", "-84.00")]) { _ in names["P1"]! })
        #expect(again.inserted == 0, "\(again)")
        #expect(try await bench.transactions().count == 302)
    }
}
