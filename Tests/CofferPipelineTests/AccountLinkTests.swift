import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// `coffer accounts link KEEP OTHER`: one card Coffer could not join by itself (an institution it does not know by
/// both names) becomes one account, with nothing doubled, history exact for a monitor, later imports of either
/// source landing on the kept account, and the link undone exactly.
@Suite struct AccountLinkTests {
    typealias Identity = AccountIdentityTests

    /// The OFX download and the CSV export of one Lakeside card, imported apart: two accounts. The CSV words
    /// texts its own way, dates one charge a day later, and both hold two identical $1.49 charges on one day.
    static func twoAccounts() async throws -> (Workbench, Importer, ofx: Account, csv: Account) {
        let bench = try Workbench()
        let importer = try Identity.importer(bench, files: [
            "profiles/lakeside.yaml": Identity.cardProfile(id: "lakeside", institution: "Lakeside Credit Union")])
        let ofxRows = [("2026-03-03", "PAYPAL *SPOTIFY", "11.99", "L1"), ("2026-03-05", "SQ *BLUE BOTTLE COFFEE", "1.49", "L2"),
                       ("2026-03-05", "SQ *BLUE BOTTLE COFFEE", "1.49", "L3"), ("2026-03-09", "DELTA AIR LINES ATLANTA", "412.60", "L4")]
        let csvRows = [("2026-03-04", "PayPal Spotify", "11.99", ""), ("2026-03-05", "Blue Bottle Coffee", "1.49", ""),
                       ("2026-03-05", "Blue Bottle Coffee", "1.49", ""), ("2026-03-09", "Delta Air Lines", "412.60", ""),
                       ("2026-03-12", "Whole Foods Market", "54.10", "")]
        #expect(try Identity.run(importer, bench, "lscu.ofx", Identity.amexOFX(number: "4111000022221004", org: "LSCU",
                                                                             fid: "55123", rows: ofxRows)).status == .imported)
        #expect(try Identity.run(importer, bench, "lakeside-03.csv", Identity.amexCSV(csvRows)).status == .imported)
        let accounts = try await Identity.accounts(bench)
        try #require(accounts.count == 2)
        let ofx = try #require(accounts.first { $0.institutionName != "Lakeside Credit Union" })
        let csv = try #require(accounts.first { $0.institutionName == "Lakeside Credit Union" })
        return (bench, importer, ofx, csv)
    }

    static func rows(_ ts: [Transaction]) -> [String] {
        ts.map { "\($0.accountID) \(CalendarDay.string($0.transactionDate)) \($0.transactionAmount.amount) \($0.transactionDescription)" }.sorted()
    }

    static func history(_ store: FinanceStore, account: UUID, since token: HistoryToken?) async throws -> (inserted: [UUID], updated: [UUID], deleted: [UUID]) {
        var out: ([UUID], [UUID], [UUID]) = ([], [], [])
        for try await c in store.transactionHistory(forAccountID: account, since: token, isMonitoring: false) {
            out.0 += c.inserted.map(\.id)
            out.1 += c.updated.map(\.id)
            out.2 += c.deleted
        }
        return out
    }

    @Test func linkingMergesWithoutDoublesAndUndoRestoresBoth() async throws {
        let (bench, importer, ofx, csv) = try await Self.twoAccounts()
        let store = bench.store
        let before = Self.rows(try await bench.transactions())
        let token = try await bench.token()
        let csvRowsBefore = try await bench.transactions().filter { $0.accountID == csv.id }
        let ofxRowsBefore = try await bench.transactions().filter { $0.accountID == ofx.id }

        let dry = try store.linkAccounts(keep: ofx.id, other: csv.id, dryRun: true)
        #expect((dry.moved, dry.matched) == (1, 4))
        #expect(Self.rows(try await bench.transactions()) == before, "a dry run changes nothing")

        let report = try store.linkAccounts(keep: ofx.id, other: csv.id)
        #expect((report.moved, report.matched, report.redated) == (1, 4, 0))
        let after = try await bench.transactions()
        #expect(after.count == 5, "4 charges both sources list (the twins stay two) + the one only the CSV has")
        #expect(after.allSatisfy { $0.accountID == ofx.id })
        #expect(try await Identity.accounts(bench).map(\.id) == [ofx.id])
        // History: the moved charge is a deletion in the CSV account's stream and an insertion (same id) in the
        // kept one's; the CSV's copies of the four are deletions there; the kept account's own rows are untouched.
        let moved = try #require(csvRowsBefore.first { $0.transactionDescription.contains("Whole Foods") })
        let keptStream = try await Self.history(store, account: ofx.id, since: token)
        #expect(keptStream.inserted == [moved.id] && keptStream.updated.isEmpty && keptStream.deleted.isEmpty)
        let otherStream = try await Self.history(store, account: csv.id, since: token)
        #expect(Set(otherStream.deleted) == Set(csvRowsBefore.map(\.id)) && otherStream.inserted.isEmpty)
        var accountDeletes: [UUID] = []
        for try await c in store.accountHistory(since: nil, isMonitoring: false) { accountDeletes += c.deleted }
        #expect(accountDeletes == [], "from the start, the removed account never shows")
        #expect(FinanceStore.doctor(path: store.path).ok)
        // The statements recorded for the two accounts are the kept one's now (coffer reconcile).
        #expect(try await store.reconcile(accountID: ofx.id).first?.statements.count == 2)

        // A later export of the card lands on the kept account; the old export again changes nothing.
        let april = try Identity.run(importer, bench, "lakeside-04.csv",
                                     Identity.amexCSV([("2026-03-12", "Whole Foods Market", "54.10", ""),
                                                       ("2026-04-02", "PayPal Spotify", "11.99", "")]))
        #expect((april.status, april.accountsAdded, april.inserted, april.unchanged) == (.imported, 0, 1, 1))
        let again = try await importer.importFile(bench.folder + "/lakeside-03.csv", options: ImportOptions(force: true))
        #expect((again.inserted, again.updated, again.deleted) == (0, 0, 0))
        #expect(try await Identity.accounts(bench).count == 1)

        // Undo the April import and the link: both accounts as they were, the CSV's rows back with their ids.
        let ledger = try await store.imports()
        let link = try #require(ledger.first { $0.kind == .link })
        #expect(throws: CofferError.self) { try store.undoImport(link.id) }  // the April import wrote into it
        let undo = try store.undoImport(link.id, cascade: true)
        #expect(undo.reverted.count == 3, "the link, the April import and the forced re-import (both found the card through the link)")
        let undone = Self.rows(try await bench.transactions())
        #expect(undone == before, "\(undone) vs \(before) \(undo)")
        #expect(Set(try await bench.transactions().filter { $0.accountID == csv.id }.map(\.id)) == Set(csvRowsBefore.map(\.id)))
        #expect(Set(try await bench.transactions().filter { $0.accountID == ofx.id }.map(\.id)) == Set(ofxRowsBefore.map(\.id)))
        #expect(Set(try await Identity.accounts(bench).map(\.id)) == [ofx.id, csv.id])
        #expect(try await store.reconcile(accountID: ofx.id).first?.statements.count == 1)
        #expect(try await store.reconcile(accountID: csv.id).first?.statements.count == 1)
        #expect(FinanceStore.doctor(path: store.path).ok)
        // And the CSV source lands on its own account again.
        let redo = try Identity.run(importer, bench, "lakeside-04.csv",
                                    Identity.amexCSV([("2026-03-12", "Whole Foods Market", "54.10", ""),
                                                      ("2026-04-02", "PayPal Spotify", "11.99", "")]))
        #expect((redo.accountsAdded, redo.inserted) == (0, 1))
        #expect(try await bench.transactions().filter { $0.accountID == csv.id }.count == 6)
    }

    @Test func accountsThatCannotBeOneAreRefused() async throws {
        let (bench, _, ofx, _) = try await Self.twoAccounts()
        #expect(throws: CofferError.self) { try bench.store.linkAccounts(keep: ofx.id, other: ofx.id) }
        #expect(throws: CofferError.self) { try bench.store.linkAccounts(keep: ofx.id, other: UUID()) }
        let eur = try Identity.importer(bench, files: ["profiles/lakeside-eur.yaml": Identity.cardProfile(
            id: "eurocard", institution: "Lakeside Credit Union", currency: "EUR")])
        #expect(try Identity.run(eur, bench, "eurocard-1.csv", Identity.amexCSV()).status == .imported)
        let euro = try #require(try await Identity.accounts(bench).first { $0.currencyCode == "EUR" })
        #expect(throws: CofferError.self) { try bench.store.linkAccounts(keep: ofx.id, other: euro.id) }
        #expect(try await Identity.accounts(bench).count == 3)
    }
}
