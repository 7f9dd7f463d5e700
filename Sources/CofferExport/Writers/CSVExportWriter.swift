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
    ///
    /// Looked for among Unicode scalars, not characters: a comma or a quote followed by a combining mark is one
    /// grapheme cluster equal to neither, and `replacingOccurrences` did not double such a quote either, so a field
    /// holding `"\u{301}` was written bare and broke every reader's columns. The line breaks quoted are those
    /// `Character.isNewline` names (LF, VT, FF, CR, NEL, U+2028, U+2029): each is a cluster of its own (or CR LF),
    /// so for them the two readings agree.
    static func line(_ fields: [String]) -> String {
        var out = ""
        for (i, field) in fields.enumerated() {
            if i > 0 { out.unicodeScalars.append(",") }
            guard field.unicodeScalars.contains(where: needsQuotes) else {
                out += field
                continue
            }
            out.unicodeScalars.append("\"")
            for scalar in field.unicodeScalars {
                out.unicodeScalars.append(scalar)
                if scalar == "\"" { out.unicodeScalars.append(scalar) }
            }
            out.unicodeScalars.append("\"")
        }
        return out + "\r\n"
    }

    /// Whether a field holding this scalar must be quoted.
    static func needsQuotes(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2C, 0x22, 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
