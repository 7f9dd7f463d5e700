import Foundation
import Testing

@Suite struct ParseCLITests {
    @Test func parsePrintsWhatImportStoresAndTouchesNoStore() throws {
        let folder = try temporaryFolder()
        let file = "feeds/ofx/bank-ofx1-sgml.ofx"
        let parsed = try coffer(["parse", "--format", "ndjson", file], environment: ["HOME": folder])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let lines = parsed.stdout.split(separator: "\n").map { try? jsonObject(String($0)) }
        #expect(lines.count == 4 && lines.allSatisfy { $0 != nil })
        #expect(!FileManager.default.fileExists(atPath: folder + "/.local/share/coffer/coffer.sqlite"), "parse needs no store")

        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, file]).status == 0)
        let stored = try jsonArray(try coffer(["transactions", "--store", store, "--format", "json"]).stdout)
        // Same transactions, field for field, apart from the ids the store assigns.
        func comparable(_ t: [String: Any]?) -> String {
            var t = t ?? [:]
            t["id"] = nil
            t["accountID"] = nil
            let data = (try? JSONSerialization.data(withJSONObject: t, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(Set(lines.map(comparable)) == Set(stored.map(comparable)))
    }

    @Test func parseSaysWhenAProfileNamesAFixedAccount() throws {
        // Amex's export names no account: the profile's number is fixed, and parse says so. Chase's names it in
        // the file name: nothing to say.
        let amex = try coffer(["parse", "--format", "ndjson", "feeds/csv/activity.csv"])
        #expect(amex.status == 0, "\(amex.stderr)")
        #expect(amex.stderr.contains("profile amex names a fixed account"))
        let chase = try coffer(["parse", "--format", "ndjson", "feeds/csv/Chase1234_Activity_20260315.CSV"])
        #expect(chase.status == 0, "\(chase.stderr)")
        #expect(!chase.stderr.contains("fixed account"))
    }

    @Test func parseOfABadFileNamesItAndExitsOne() throws {
        let folder = try temporaryFolder()
        try "Date,Amount\nnot a date,1.00\n".write(toFile: folder + "/odd.csv", atomically: true, encoding: .utf8)
        let run = try coffer(["parse", folder + "/odd.csv"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("odd.csv") && run.stderr.contains("not a recognised statement"), "\(run.stderr)")
    }
}
