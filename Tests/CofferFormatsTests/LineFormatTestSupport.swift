import CofferModel
import Foundation
import Testing
@testable import CofferFormats

/// Helpers the MT940 and QIF tests share: running a parser, a plain-text dump of its events (or its error) for the
/// golden files, and the golden comparison.
enum LineFormatTestSupport {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func events(_ parser: some StatementParser, _ input: StatementInput) throws -> [StatementEvent] {
        var out: [StatementEvent] = []
        try parser.parse(input) { out.append($0) }
        return out
    }

    static func transactions(_ events: [StatementEvent]) -> [RawTransaction] {
        events.compactMap { if case .transaction(let t) = $0 { t } else { nil } }
    }

    static func headers(_ events: [StatementEvent]) -> [RawStatementHeader] {
        events.compactMap { if case .begin(let h) = $0 { h } else { nil } }
    }

    static func balances(_ events: [StatementEvent]) -> [RawBalance] {
        events.compactMap { if case .balance(let b) = $0 { b } else { nil } }
    }

    static func warnings(_ events: [StatementEvent]) -> [ParseWarning] {
        events.compactMap { if case .warning(let w) = $0 { w } else { nil } }
    }

    /// The error `parser` throws for `text`, or nil.
    static func failure(_ parser: some StatementParser, _ text: String, name: String = "bad.txt") -> CofferError? {
        do {
            _ = try events(parser, .string(text, name: name))
            return nil
        } catch let error as CofferError {
            return error
        } catch {
            return CofferError(.internal, "unexpected error type: \(error)")
        }
    }

    /// One line (or three) per event, stable; an error is one `error` line with its location.
    static func render(_ parser: some StatementParser, _ input: StatementInput) -> String {
        do {
            return dump(try events(parser, input))
        } catch let error as CofferError {
            let at = error.location.map { "\($0.line ?? 0) \($0.element ?? "-")" } ?? "-"
            return "error \(error.code) \(error.message) at=\(at)\n"
        } catch {
            return "unexpected \(error)\n"
        }
    }

    static func dump(_ events: [StatementEvent]) -> String {
        var lines: [String] = []
        func d(_ date: RawDate?) -> String { date.map(\.description) ?? "-" }
        func m(_ value: Decimal?) -> String { value.map { ExactDecimal.text($0) } ?? "-" }
        func s(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "-" }
        func at(_ l: CofferModel.SourceLocation) -> String { "@\(l.line ?? 0) \(l.element ?? "")" }
        for event in events {
            switch event {
            case .begin(let h):
                let a = h.account
                lines.append("begin id=\(s(h.statementID)) account=\(s(a.accountNumber)) type=\(s(a.accountType)) "
                    + "kind=\(a.kind?.rawValue ?? "-") ccy=\(s(a.currencyCode)) assumed=\(s(a.assumedCurrency)) "
                    + "bank=\(s(a.institutionID)) name=\(s(a.displayName)) period=\(d(h.periodStart))..\(d(h.periodEnd)) "
                    + "asOf=\(d(h.asOf)) listsPending=\(h.listsPending) \(at(h.location))")
            case .balance(let b):
                lines.append("  balance \(b.kind.rawValue) \(b.code ?? "-") \(m(b.amount)) "
                    + "\(b.indicator.map { "\($0)" } ?? "-") \(b.currencyCode ?? "-") asOf=\(d(b.asOf)) \(at(b.location))")
            case .transaction(let t):
                var line = "  tx \(m(t.amount)) \(t.indicator.map { "\($0)" } ?? "-") \(t.currencyCode ?? "-") "
                    + "id=\(s(t.externalID)) status=\(t.status.map { "\($0)" } ?? "-") "
                    + "date=\(d(t.transactionDate)) posted=\(d(t.postedDate)) code=\(s(t.typeCode)) "
                    + "type=\(t.transactionType.map { "\($0)" } ?? "-")"
                line += "\n     name=\(s(t.name)) memo=\(s(t.memo)) merchant=\(s(t.merchantName)) category=\(s(t.category))"
                    + " check=\(s(t.checkNumber))"
                if t.isReversal { line += " reversal" }
                line += "\n     \(at(t.location))"
                lines.append(line)
            case .warning(let w):
                lines.append("  warning\(w.needsAttention ? "!" : "") \(w.message) \(at(w.location))")
            case .end:
                lines.append("end")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Compares `rendered` with the golden file at `path` + `.events`; `COFFER_UPDATE_GOLDEN=1` rewrites it.
    static func expectGolden(_ rendered: String, path: String) throws {
        let expectedPath = path + ".events"
        if ProcessInfo.processInfo.environment["COFFER_UPDATE_GOLDEN"] == "1" {
            try rendered.write(toFile: expectedPath, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        #expect(rendered == expected, "\(path) differs from its .events golden")
    }

    /// The files of a fixture folder (not its goldens and notes), as paths relative to the repository root.
    static func fixtures(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { n in ![".md", ".tsv", ".events", ".expected.json"].contains { n.hasSuffix($0) } }
            .sorted().map { folder + "/" + $0 }
    }
}
