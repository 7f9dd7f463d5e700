import CofferModel
import Foundation
import Testing
@testable import CofferFormats

@Suite struct CSVProfileTests {
    @Test func shippedProfilesLoad() throws {
        let set = try CSVTestSupport.profiles()
        #expect(set.profiles.map(\.id) == ["amex", "apple-card", "capital-one-card", "chase-checking", "dkb-giro",
                                           "monzo", "revolut", "volksbank"])
        let dkb = try #require(set.profile(id: "dkb-giro"))
        #expect(dkb.encoding == .windows1252)
        #expect(dkb.delimiter == .semicolon)
        #expect(dkb.decimalMark == ",")
        #expect(set.profile(id: "apple-card")?.sign == .debitPositive)
    }

    static let base = """
        id: test-bank
        institution: Test Bank
        match: { header: [Date, Description, Amount] }
        date_format: MM/dd/yyyy
        columns: { date: Date, description: Description, amount: Amount }
        account: { number: "1234", kind: asset, currency: USD }
        """

    static let mistakes: [(yaml: String, key: String)] = [
        (base + "\ncolour: blue", "colour"),
        (base.replacingOccurrences(of: "description: Description,", with: "description: Description, merchnt: Payee,"), "columns.merchnt"),
        (base.replacingOccurrences(of: "date: Date, ", with: ""), "columns.date"),
        (base.replacingOccurrences(of: "MM/dd/yyyy", with: "MM/dd/yyy"), "date_format"),
        (base.replacingOccurrences(of: "amount: Amount", with: "amount: Amount, merchant: Payee"), "columns.merchant"),
        (base.replacingOccurrences(of: "amount: Amount", with: "debit: Amount"), "columns.credit"),
        (base.replacingOccurrences(of: "kind: asset", with: "kind: savings"), "account.kind"),
        (base.replacingOccurrences(of: "currency: USD", with: "currency: dollars"), "account.currency"),
        (base + "\nencoding: ebcdic", "encoding"),
        (base + "\ndelimiter: '#'", "delimiter"),
        (base + "\ntype_values: { Purchase: shopping }", "type_values.Purchase"),
        (base + "\nstatus_values: { P: maybe }", "status_values.P"),
        (base + "\nsign: purchases_positive", "sign"),
        (base + "\ndecimal_mark: ','\nthousands_separator: ','", "thousands_separator"),
        (base.replacingOccurrences(of: "amount: Amount", with: "amount: Amount, indicator: Amount"), "indicator_values"),
    ]

    @Test(arguments: mistakes)
    func mistakeNamesFileAndKey(yaml: String, key: String) {
        let error = CSVTestSupport.error { _ = try CSVProfileSet.decode(yaml: yaml, file: "config/profiles/test.yaml") }
        #expect(error?.code == .badConfiguration)
        #expect(error?.location?.file == "config/profiles/test.yaml")
        #expect(error?.message.contains("'\(key)'") == true, "\(error?.message ?? "")")
    }

    @Test func brokenYAMLAndDuplicateIDs() throws {
        let broken = CSVTestSupport.error { _ = try CSVProfileSet.decode(yaml: "id: [unclosed", file: "x.yaml") }
        #expect(broken?.code == .badConfiguration)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-profiles-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.base.write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        try Self.base.write(toFile: dir + "/b.yaml", atomically: true, encoding: .utf8)
        let duplicate = CSVTestSupport.error { _ = try CSVProfileSet.load(directory: dir) }
        #expect(duplicate?.location?.file == dir + "/b.yaml")
        #expect(duplicate?.message.contains("'id'") == true)
    }

    @Test func forcedProfileWhoseColumnsTheFileLacks() throws {
        let profile = try CSVTestSupport.profile("chase-checking")
        let error = CSVTestSupport.error {
            _ = try CSVTestSupport.events(profile, .file(CSVTestSupport.feedsDirectory + "/activity.csv"))
        }
        #expect(error?.code == .badInput)
        #expect(error?.message.contains("not a JPMorgan Chase Bank export") == true)
    }
}
