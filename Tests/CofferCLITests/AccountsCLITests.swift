import Foundation
import Testing

/// `coffer accounts` lists; `coffer accounts rename` names an account as the person wants, in history, and later
/// imports keep the name.
@Suite struct AccountsCLITests {
    @Test func renameIsAnAccountUpdateThatImportsKeep() throws {
        let folder = try temporaryFolder()
        let store = folder + "/s.sqlite"
        #expect(try coffer(["import", "--store", store, "feeds/ofx/bank-ofx1-sgml.ofx"]).status == 0)
        let listed = try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout)
        #expect(listed.count == 1)
        let before = try coffer(["history", "--store", store, "--kind", "accounts"]).stdout
            .split(separator: "\n").compactMap { try? jsonObject(String($0)) }
        let token = try #require(before.last?["token"] as? String)

        let renamed = try coffer(["accounts", "rename", "--store", store, "Maple", "Household checking"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let names = try jsonArray(try coffer(["accounts", "list", "--store", store, "--format", "json"]).stdout)
            .compactMap { $0["displayName"] as? String }
        #expect(names == ["Household checking"])

        // One update in account history since the token.
        let batches = try coffer(["history", "--store", store, "--kind", "accounts", "--since", token]).stdout
            .split(separator: "\n").compactMap { try? jsonObject(String($0)) }
        #expect(batches.flatMap { ($0["updated"] as? [Any]) ?? [] }.count == 1)

        // The next download of the account does not rename it back.
        #expect(try coffer(["import", "--store", store, "--force", "feeds/ofx/bank-ofx1-sgml.ofx"]).status == 0)
        let after = try jsonArray(try coffer(["accounts", "--store", store, "--format", "json"]).stdout)
        #expect(after.compactMap { $0["displayName"] as? String } == ["Household checking"])

        let unknown = try coffer(["accounts", "rename", "--store", store, "nothing-like-it", "X"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no account matches"))
    }
}
