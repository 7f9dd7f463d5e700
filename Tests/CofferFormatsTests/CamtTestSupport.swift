import CofferModel
import Foundation
@testable import CofferFormats

/// Helpers the camt tests share: running the parser, and a plain-text dump of events for golden files.
enum CamtTestSupport {
    /// The repository's `feeds/camt` folder.
    static let feeds = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("feeds/camt")

    static func events(_ input: StatementInput) throws -> [StatementEvent] {
        var out: [StatementEvent] = []
        try CamtParser().parse(input) { out.append($0) }
        return out
    }

    static func sample(_ name: String) throws -> [StatementEvent] {
        try events(.file(feeds.appendingPathComponent(name).path))
    }

    static func transactions(_ events: [StatementEvent]) -> [RawTransaction] {
        events.compactMap { if case .transaction(let t) = $0 { t } else { nil } }
    }

    static func balances(_ events: [StatementEvent]) -> [RawBalance] {
        events.compactMap { if case .balance(let b) = $0 { b } else { nil } }
    }

    static func headers(_ events: [StatementEvent]) -> [RawStatementHeader] {
        events.compactMap { if case .begin(let h) = $0 { h } else { nil } }
    }

    static func warnings(_ events: [StatementEvent]) -> [ParseWarning] {
        events.compactMap { if case .warning(let w) = $0 { w } else { nil } }
    }

    /// Parses `text` and returns the error it throws, or nil.
    static func failure(_ text: String) -> CofferError? {
        do {
            _ = try events(.string(text, name: "bad.xml"))
            return nil
        } catch let error as CofferError {
            return error
        } catch {
            return CofferError(.usage, "unexpected error type: \(error)")
        }
    }

    /// One line per event, stable, for the `.expected` golden files beside the samples.
    static func dump(_ events: [StatementEvent]) -> String {
        var lines: [String] = []
        func d(_ date: RawDate?) -> String { date.map(\.description) ?? "-" }
        func m(_ value: Decimal?) -> String { value.map { ExactDecimal.text($0) } ?? "-" }
        func s(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "-" }
        func at(_ l: SourceLocation) -> String { "@\(l.line ?? 0) \(l.element ?? "")" }
        for event in events {
            switch event {
            case .begin(let h):
                let a = h.account
                lines.append("begin id=\(s(h.statementID)) account=\(s(a.accountNumber)) type=\(s(a.accountType)) "
                    + "kind=\(a.kind?.rawValue ?? "-") ccy=\(s(a.currencyCode)) bank=\(s(a.institutionID)) "
                    + "\(s(a.institutionName)) name=\(s(a.displayName)) period=\(d(h.periodStart))..\(d(h.periodEnd)) "
                    + at(h.location))
            case .balance(let b):
                lines.append("  balance \(b.kind.rawValue) \(b.code ?? "-") \(m(b.amount)) "
                    + "\(b.indicator.map { "\($0)" } ?? "-") \(b.currencyCode ?? "-") asOf=\(d(b.asOf)) \(at(b.location))")
            case .transaction(let t):
                var line = "  tx \(m(t.amount)) \(t.indicator.map { "\($0)" } ?? "-") \(t.currencyCode ?? "-") "
                    + "id=\(s(t.externalID)) status=\(t.status.map { "\($0)" } ?? "-") "
                    + "date=\(d(t.transactionDate)) posted=\(d(t.postedDate)) code=\(s(t.typeCode)) "
                    + "type=\(t.transactionType.map { "\($0)" } ?? "-")"
                line += "\n     name=\(s(t.name)) memo=\(s(t.memo)) merchant=\(s(t.merchantName))"
                if t.isReversal { line += " reversal" }
                if let fx = t.foreignAmount {
                    line += "\n     foreign=\(m(fx)) \(t.foreignCurrencyCode ?? "-") rate=\(m(t.exchangeRate))"
                }
                line += "\n     \(at(t.location))"
                lines.append(line)
            case .warning(let w):
                lines.append("  warning \(w.message) \(at(w.location))")
            case .end:
                lines.append("end")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
