import CofferModel
import Foundation

/// A beancount file: `open` directives for the accounts first used, transactions with their metadata
/// (`coffer-id: "…"`), and statement balances as `balance` directives dated the day after the as-of day
/// (beancount checks a balance at the start of its day).
///
/// ```
/// 2026-03-14 * "Blue Bottle" "Blue Bottle Coffee #12"
///   coffer-id: "0190C2B1-…"
///   status: "booked"
///   Assets:Bank:JPMorgan-Chase-Bank:Total-Checking-1234  -4.50 USD
///   Expenses:Dining                                       4.50 USD
///
/// 2026-03-14 balance Assets:Bank:JPMorgan-Chase-Bank:Total-Checking-1234  2045.12 USD
/// ```
struct BeancountWriter {
    func write(_ plan: ExportPlan, header: Bool, open: [(name: String, currency: String?)]) -> String {
        var out = ""
        if header {
            out += ";; Written by coffer export (beancount). Each transaction carries its Coffer id (coffer-id);\n"
            out += ";; statement balances are balance directives. Coffer appends to a file, and never rewrites one.\n\n"
        }
        if !open.isEmpty {
            let day = JournalText.date(day: plan.firstDay ?? 0, for: .beancount)
            for account in open {
                out += "\(day) open \(account.name)" + (account.currency.map { "  " + JournalText.commodity($0, for: .beancount) } ?? "") + "\n"
                if let id = plan.accountIDs[account.name] { out += "  coffer-account: \"\(id.uuidString)\"\n" }
            }
            out += "\n"
        }
        for entry in plan.entries {
            switch entry {
            case .opening(let account, let counter, let day, let amount, let currency):
                out += "\(JournalText.date(day: day, for: .beancount)) * \"Opening balance\"\n"
                out += posting(account, amount, currency)
                out += posting(counter, -amount, currency)
            case .single(let side, let counter, _):
                out += headerLine(side)
                out += metadata(side, indent: "  ")
                out += posting(side.account, side.transaction.signedAmount, side.transaction.transactionAmount.currencyCode)
                out += posting(counter, -side.transaction.signedAmount, side.transaction.transactionAmount.currencyCode)
            case .transfer(let first, let second, _, _):
                out += headerLine(first)
                out += posting(first.account, first.transaction.signedAmount, first.transaction.transactionAmount.currencyCode)
                out += metadata(first, indent: "    ")
                out += posting(second.account, second.transaction.signedAmount, second.transaction.transactionAmount.currencyCode)
                out += metadata(second, indent: "    ")
                if second.day != first.day {
                    out += "    posting-date: \(JournalText.beancountString(CalendarDay.string(day: second.day)))\n"
                }
            case .assertion(let assertion):
                let line = "\(JournalText.date(day: assertion.day + 1, for: .beancount)) balance \(assertion.account)  "
                    + "\(JournalText.amount(assertion.amount)) \(JournalText.commodity(assertion.currency, for: .beancount))"
                if assertion.holds {
                    out += line + "\n"
                } else {
                    out += "; " + line + "\n; (the statement's balance as of \(CalendarDay.string(day: assertion.day)); the transactions "
                        + "give \(JournalText.amount(assertion.actual)): not asserted)\n"
                }
            }
            out += "\n"
        }
        return out
    }

    private func headerLine(_ side: ExportedSide) -> String {
        let t = side.transaction
        let flag = t.status == .booked ? "*" : "!"
        let narration = JournalText.beancountString(TransactionMetadata.description(t))
        let payee = TransactionMetadata.payee(t).map { JournalText.beancountString($0) + " " } ?? ""
        return "\(JournalText.date(day: side.day, for: .beancount)) \(flag) \(payee)\(narration)\n"
    }

    private func metadata(_ side: ExportedSide, indent: String) -> String {
        TransactionMetadata.pairs(side).map { "\(indent)\($0.key): \(JournalText.beancountString($0.value))\n" }.joined()
    }

    private func posting(_ account: String, _ value: Decimal, _ currency: String) -> String {
        var line = "  " + account
        let amountText = JournalText.amount(value) + " " + JournalText.commodity(currency, for: .beancount)
        line += String(repeating: " ", count: max(2, 60 - line.count - amountText.count)) + amountText
        return line + "\n"
    }
}
