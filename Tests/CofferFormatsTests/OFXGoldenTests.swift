import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Every sample in feeds/ofx parses to the events in `Tests/Golden/ofx-events/<sample>.events`.
///
/// The expected files are one line per event. After a deliberate change, rewrite them with
/// `OFX_UPDATE_GOLDEN=1 swift test --filter OFXGoldenTests` and review the diff.
@Suite struct OFXGoldenTests {
    static let samples = ["bank-ofx1-sgml.ofx", "creditcard-ofx2.qfx", "multi-account.ofx", "quirks.ofx",
                          "corrections.ofx", "foreign.ofx", "investment.ofx"]

    @Test(arguments: samples) func matchesExpected(_ name: String) throws {
        let input = StatementInput.file(OFXTest.feeds.appendingPathComponent(name).path)
        let rendered = try OFXTest.events(input).map(Self.render).joined(separator: "\n") + "\n"
        let expectedURL = OFXTest.feeds.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Golden/ofx-events").appendingPathComponent(name + ".events")
        if ProcessInfo.processInfo.environment["OFX_UPDATE_GOLDEN"] == "1" {
            try rendered.write(to: expectedURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(rendered == expected)
    }

    static func render(_ event: StatementEvent) -> String {
        switch event {
        case .begin(let h):
            let a = h.account
            return "begin account=\(s(a.accountNumber)) type=\(s(a.accountType)) kind=\(s(a.kind?.rawValue)) "
                + "institution=\(s(a.institutionName))|\(s(a.institutionID)) currency=\(s(a.currencyCode)) "
                + "period=\(s(h.periodStart?.description))..\(s(h.periodEnd?.description)) at=\(at(h.location))"
        case .transaction(let t):
            var parts = ["tx \(t.amount) \(s(t.currencyCode))", "posted=\(s(t.postedDate?.description))",
                         "date=\(s(t.transactionDate?.description))", "id=\(s(t.externalID))",
                         "type=\(s(t.typeCode))/\(s(t.transactionType.map { "\($0)" }))", "name=\(s(t.name))"]
            if let memo = t.memo { parts.append("memo=\(memo)") }
            if let mcc = t.merchantCategoryCode { parts.append("mcc=\(mcc.code)") }
            if let check = t.checkNumber { parts.append("check=\(check)") }
            if let code = t.foreignCurrencyCode {
                parts.append("foreign=\(s(t.foreignAmount.map { "\($0)" })) \(code) rate=\(s(t.exchangeRate.map { "\($0)" }))")
            }
            if let c = t.correction { parts.append("correction=\(c.action.rawValue):\(c.targetID)") }
            parts.append("at=\(at(t.location))")
            return parts.joined(separator: " ")
        case .balance(let b):
            return "balance \(b.kind.rawValue) \(b.amount) \(s(b.currencyCode)) asOf=\(b.asOf) at=\(at(b.location))"
        case .end:
            return "end"
        case .warning(let w):
            return "warning \(w.message) at=\(at(w.location))"
        }
    }

    private static func s(_ value: String?) -> String { value ?? "-" }

    private static func at(_ location: CofferModel.SourceLocation) -> String {
        "\(location.line ?? 0):\(location.column ?? 0) \(location.element ?? "-")"
    }
}
