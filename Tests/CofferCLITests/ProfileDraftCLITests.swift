import Foundation
import Testing

/// `coffer profile draft` on the real binary: draft, save under a configuration folder, parse with it.
@Suite struct ProfileDraftCLITests {
    static let drafts = packageRoot + "/Tests/Golden/csv-drafts"

    /// The real binary (CLISupport's `coffer`, which finds the one built beside this test bundle).
    static func run(_ arguments: [String]) throws -> Run { try coffer(arguments) }

    @Test func draftThenParseWithTheDraft() throws {
        let file = Self.drafts + "/lonestar-checking-2026-04.csv"
        let printed = try Self.run(["profile", "draft", file])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("date_format: \"MM/dd/yyyy\"") && printed.stdout.contains("balance: \"Running Bal.\""))
        #expect(printed.stderr.contains("drafted profile 'lonestar-checking'") && printed.stderr.contains("every data row as drafted"),
                "\(printed.stderr)")

        let config = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: config + "/profiles", withIntermediateDirectories: true)
        // The id comes from the output file's name.
        let out = config + "/profiles/lonestar.yaml"
        let written = try Self.run(["profile", "draft", file, "-o", out])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
        let saved = try String(contentsOfFile: out, encoding: .utf8)
        #expect(saved.contains("id: \"lonestar\"") && saved.contains("date_format: \"MM/dd/yyyy\""))

        let parsed = try Self.run(["parse", "--config", config, "--profile", "lonestar", "--format", "json", file])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let transactions = try jsonArray(parsed.stdout)
        #expect(transactions.count == 6)
        // Found by its header too, without --profile.
        let identified = try Self.run(["parse", "--config", config, "--format", "json", file])
        #expect(identified.status == 0 && (try? jsonArray(identified.stdout).count) == 6, "\(identified.stderr)")

        // A draft kept anywhere: --profile takes its path.
        let loose = try temporaryFolder() + "/draft.yaml"
        #expect(try Self.run(["profile", "draft", file, "-o", loose]).status == 0)
        let byPath = try Self.run(["parse", "--profile", loose, "--format", "json", file])
        #expect(byPath.status == 0 && (try? jsonArray(byPath.stdout).count) == 6, "\(byPath.stderr)")

        let again = try Self.run(["profile", "draft", file, "-o", out])
        #expect(again.status == 64 && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try Self.run(["profile", "draft", file, "-o", out, "--force"]).status == 0)
    }

    @Test func aFileItCannotDraftFromExitsOneSayingWhy() throws {
        let run = try Self.run(["profile", "draft", Self.drafts + "/no-dates.csv"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("no-dates.csv") && run.stderr.contains("no column holds a date in every data row"), "\(run.stderr)")
    }

    @Test func usageErrorsExitSixtyFour() throws {
        #expect(try Self.run(["profile", "draft"]).status == 64)
        #expect(try Self.run(["profile", "draft", Self.drafts + "/missing.csv"]).status == 64)
        #expect(try Self.run(["profile", "draft", Self.drafts]).status == 64)
        #expect(try Self.run(["profile", "draft", Self.drafts + "/settled-dates.csv", "--id", "no spaces"]).status == 64)
    }
}
