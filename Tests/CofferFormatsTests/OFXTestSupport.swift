import CofferModel
import Foundation
@testable import CofferFormats

/// Helpers shared by the OFX tests: parse to an event list, pick events apart, find the sample files.
enum OFXTest {
    static let feeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("feeds/ofx")

    static func sample(_ name: String) -> StatementInput {
        .file(feeds.appendingPathComponent(name).path)
    }

    static func events(_ input: StatementInput) throws -> [StatementEvent] {
        var events: [StatementEvent] = []
        try OFXParser().parse(input) { events.append($0) }
        return events
    }

    static func events(_ text: String) throws -> [StatementEvent] {
        try events(.string(text, name: "test.ofx"))
    }

    /// The error a parse throws, or nil when it does not throw (or throws something else).
    static func error(_ input: StatementInput) -> CofferError? {
        do {
            _ = try events(input)
            return nil
        } catch let error as CofferError {
            return error
        } catch {
            return nil
        }
    }

    static func error(_ text: String) -> CofferError? { error(.string(text, name: "test.ofx")) }

    /// A minimal SGML statement around `transactions` (STMTTRN content, already wrapped).
    static func bank(_ transactions: String, header: String = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n") -> String {
        header + """
        <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
        <BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20260101<DTEND>20260131
        \(transactions)
        </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
        """
    }

    static func transactions(_ events: [StatementEvent]) -> [RawTransaction] {
        events.compactMap { if case .transaction(let t) = $0 { return t } else { return nil } }
    }

    static func balances(_ events: [StatementEvent]) -> [RawBalance] {
        events.compactMap { if case .balance(let b) = $0 { return b } else { return nil } }
    }

    static func headers(_ events: [StatementEvent]) -> [RawStatementHeader] {
        events.compactMap { if case .begin(let h) = $0 { return h } else { return nil } }
    }

    static func warnings(_ events: [StatementEvent]) -> [ParseWarning] {
        events.compactMap { if case .warning(let w) = $0 { return w } else { return nil } }
    }

    /// The event kinds in order: "begin", "tx", "balance", "end", "warning".
    static func shape(_ events: [StatementEvent]) -> [String] {
        events.map {
            switch $0 {
            case .begin: "begin"
            case .transaction: "tx"
            case .balance: "balance"
            case .end: "end"
            case .warning: "warning"
            }
        }
    }

    static func decimal(_ text: String) -> Decimal { ExactDecimal.parse(text)! }

    static func day(_ text: String) -> RawDate { RawDate(date: CalendarDay.parse(text)!, isDateOnly: true) }

    /// An instant; `offset` is the zone the source wrote it in, in hours (nil: the source gave none).
    static func instant(_ iso: String, offset hours: Double? = nil) -> RawDate {
        RawDate(date: ISO8601DateFormatter().date(from: iso)!, isDateOnly: false, utcOffset: hours.map { Int($0 * 3600) })
    }
}
