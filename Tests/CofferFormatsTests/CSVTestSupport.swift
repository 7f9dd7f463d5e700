import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Paths, profile loading and an event dump shared by the CSV tests.
enum CSVTestSupport {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let profilesDirectory = root + "/config/profiles"
    static let feedsDirectory = root + "/feeds/csv"
    static let goldenDirectory = root + "/Tests/Golden/csv-events"

    static func profiles() throws -> CSVProfileSet { try CSVProfileSet.load(directory: profilesDirectory) }

    static func profile(_ id: String) throws -> CSVProfile {
        try #require(try profiles().profile(id: id))
    }

    /// A profile from YAML text, for tests of one quirk.
    static func profile(yaml: String) throws -> CSVProfile {
        try CSVProfileSet.decode(yaml: yaml, file: "test.yaml")
    }

    static func events(_ profile: CSVProfile, _ input: StatementInput) throws -> [StatementEvent] {
        var events: [StatementEvent] = []
        try CSVStatementParser(profile: profile).parse(input) { events.append($0) }
        return events
    }

    static func transactions(_ events: [StatementEvent]) -> [RawTransaction] {
        events.compactMap { if case .transaction(let t) = $0 { t } else { nil } }
    }

    static func warnings(_ events: [StatementEvent]) -> [ParseWarning] {
        events.compactMap { if case .warning(let w) = $0 { w } else { nil } }
    }

    /// The error `body` throws, as a CofferError (failing the test when it throws nothing or something else).
    static func error(_ body: () throws -> Void) -> CofferError? {
        do { try body() } catch let error as CofferError { return error } catch {
            Issue.record("expected a CofferError, got \(error)")
            return nil
        }
        Issue.record("expected an error, got none")
        return nil
    }

    /// One line per event, stable and readable: the golden form.
    static func dump(_ events: [StatementEvent]) -> String {
        func d(_ date: RawDate?) -> String { date.map { CalendarDay.string($0.date) } ?? "-" }
        func q(_ text: String?) -> String { text.map { "\"\($0.unicodeScalars.map { $0 == "\n" ? "\\n" : $0 == "\r" ? "\\r" : String($0) }.joined())\"" } ?? "-" }
        return events.map { event -> String in
            switch event {
            case .begin(let h):
                let a = h.account
                return "begin line=\(h.location.line ?? 0) institution=\(q(a.institutionName)) id=\(q(a.institutionID)) "
                    + "number=\(q(a.accountNumber)) type=\(q(a.accountType)) kind=\(a.kind?.rawValue ?? "-") "
                    + "currency=\(a.currencyCode ?? "-") display=\(q(a.displayName)) period=\(d(h.periodStart))..\(d(h.periodEnd))"
            case .transaction(let t):
                var s = "tx line=\(t.location.line ?? 0) date=\(d(t.transactionDate)) posted=\(d(t.postedDate)) "
                s += "amount=\(t.amount) indicator=\(t.indicator?.name ?? "-") currency=\(t.currencyCode ?? "-") "
                s += "name=\(q(t.name)) merchant=\(q(t.merchantName)) memo=\(q(t.memo)) "
                s += "type=\(q(t.typeCode))/\(t.transactionType?.name ?? "-") category=\(q(t.category)) "
                s += "status=\(t.status?.name ?? "-") id=\(q(t.externalID)) check=\(q(t.checkNumber)) "
                s += "mcc=\(t.merchantCategoryCode?.code ?? "-") foreign=\(t.foreignAmount.map { "\($0)" } ?? "-") \(t.foreignCurrencyCode ?? "-")"
                return s
            case .balance(let b):
                return "balance line=\(b.location.line ?? 0) kind=\(b.kind.rawValue) amount=\(b.amount) "
                    + "currency=\(b.currencyCode ?? "-") asOf=\(d(b.asOf)) code=\(q(b.code))"
            case .end: return "end"
            case .warning(let w): return "warning \(w)"
            }
        }.joined(separator: "\n") + "\n"
    }
}
