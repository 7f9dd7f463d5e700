import CofferModel
import Foundation

/// One row per transaction side (an own transfer gives two, each naming the other), RFC 4180 quoting.
///
/// Columns: `ID`, `DATE` (the booking day), `TRANSACTION DATE`, `ACCOUNT ID`, `ACCOUNT` (the journal account),
/// `COUNTER ACCOUNT`, `AMOUNT` (signed: debits minus), `CURRENCY`, `STATUS`, `TYPE`, `MCC`, `CATEGORY`,
/// `MERCHANT`, `DESCRIPTION`, `ORIGINAL DESCRIPTION`, `TRANSFER ID` (the other half of an own transfer).
struct CSVExportWriter {
    static let header = ["ID", "DATE", "TRANSACTION DATE", "ACCOUNT ID", "ACCOUNT", "COUNTER ACCOUNT", "AMOUNT", "CURRENCY",
                         "STATUS", "TYPE", "MCC", "CATEGORY", "MERCHANT", "DESCRIPTION", "ORIGINAL DESCRIPTION", "TRANSFER ID"]

    func write(_ plan: ExportPlan, header: Bool) -> String {
        var out = header ? Self.line(Self.header) : ""
        for entry in plan.entries {
            switch entry {
            case .single(let side, let counter, _):
                out += Self.line(row(side, counter: counter, partner: nil))
            case .transfer(let first, let second, _, _):
                out += Self.line(row(first, counter: second.account, partner: second.transaction.id))
                out += Self.line(row(second, counter: first.account, partner: first.transaction.id))
            case .opening, .assertion:
                continue
            }
        }
        return out
    }

    private func row(_ side: ExportedSide, counter: String, partner: UUID?) -> [String] {
        let t = side.transaction
        return [t.id.uuidString, CalendarDay.string(day: side.day), CalendarDay.string(day: t.localDay), t.accountID.uuidString,
                side.account, counter, JournalText.amount(t.signedAmount), t.transactionAmount.currencyCode, t.status.name,
                TransactionType.caseNames[t.transactionType] ?? "unknown", t.merchantCategoryCode?.code ?? "", side.category,
                t.merchantName ?? "", t.transactionDescription, t.originalTransactionDescription, partner?.uuidString ?? ""]
    }

    /// A CSV line: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func line(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
                ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\r\n"
    }
}
