import CofferModel
import Foundation

/// hledger and ledger journals: the two share their syntax but for dates (`2026-03-14` and `2026/03/14`), the
/// description (hledger splits `payee | note` and ends it at `;`), tag values (hledger ends one at a comma) and
/// posting dates (hledger only).
///
/// ```
/// 2026-03-14 * Blue Bottle | Blue Bottle Coffee #12
///     ; coffer-id: 0190C2B1-…
///     ; status: booked
///     ; original: SQ *BLUE BOTTLE COFFEE #12 OAKLAND
///     Assets:Bank:Chase:Total Checking 1234        -4.50 USD = 2045.12 USD
///     Expenses:Dining                               4.50 USD
/// ```
/// A statement balance is an assertion `= AMOUNT` on the account's last posting of the as-of day; on a day
/// without one, a transaction of its own with a zero posting carries it (both tools accept a transaction whose
/// only posting is zero). An assertion the written transactions do not satisfy is a comment.
struct LedgerFamilyWriter {
    var format: ExportFormat
    var hledger: Bool { format == .hledger }

    func write(_ plan: ExportPlan, header: Bool, declare: [String]) -> String {
        var out = ""
        if header {
            out += "; Written by coffer export (\(format.rawValue)). Each transaction carries its Coffer id (coffer-id);\n"
            out += "; statement balances are assertions. Coffer appends to a journal, and never rewrites one.\n\n"
        }
        if !declare.isEmpty {
            // Each of Coffer's accounts says which it is: an hledger tag, a ledger note.
            for account in declare {
                guard let id = plan.accountIDs[account] else {
                    out += "account \(account)\n"
                    continue
                }
                out += hledger ? "account \(account)  ; coffer-account:\(id.uuidString)\n"
                               : "account \(account)\n    note coffer-account: \(id.uuidString)\n"
            }
            out += "\n"
        }
        for entry in plan.entries {
            switch entry {
            case .opening(let account, let counter, let day, let amount, let currency):
                out += "\(date(day)) * Opening balance\n"
                out += posting(account, amount, currency)
                out += posting(counter, -amount, currency)
            case .single(let side, let counter, let assertion):
                out += headerLine(side)
                out += metadata(side, indent: "    ")
                out += posting(side.account, side.transaction.signedAmount, currency(side), assertion: assertion)
                out += posting(counter, -side.transaction.signedAmount, currency(side))
            case .transfer(let first, let second, let a, let b):
                out += headerLine(first)
                out += posting(first.account, first.transaction.signedAmount, currency(first), assertion: a)
                out += metadata(first, indent: "        ")
                let postingDate = hledger && second.day != first.day ? "  ; date:\(date(second.day))" : ""
                out += posting(second.account, second.transaction.signedAmount, currency(second), assertion: b, comment: postingDate)
                out += metadata(second, indent: "        ")
            case .assertion(let assertion):
                if assertion.holds {
                    out += "\(date(assertion.day)) * Statement balance\n"
                    out += posting(assertion.account, 0, assertion.currency, assertion: assertion)
                } else {
                    out += "; \(date(assertion.day)) statement balance of \(assertion.account): \(amount(assertion.amount, assertion.currency))"
                    out += ", but the transactions give \(amount(assertion.actual, assertion.currency)): not asserted\n"
                }
            }
            out += "\n"
        }
        return out
    }

    private func date(_ day: Int) -> String { JournalText.date(day: day, for: format) }

    private func currency(_ side: ExportedSide) -> String { side.transaction.transactionAmount.currencyCode }

    private func amount(_ value: Decimal, _ currency: String) -> String {
        JournalText.amount(value) + " " + JournalText.commodity(currency, for: format)
    }

    private func headerLine(_ side: ExportedSide) -> String {
        let t = side.transaction
        let flag = t.status == .booked ? "*" : "!"
        let description = TransactionMetadata.description(t)
        let text: String
        if hledger {
            if let payee = TransactionMetadata.payee(t) {
                text = JournalText.hledgerDescription(payee) + " | " + JournalText.hledgerDescription(description)
            } else {
                text = JournalText.hledgerDescription(description)
            }
        } else {
            text = JournalText.ledgerPayee(description)
        }
        return "\(date(side.day)) \(flag) \(text)\n"
    }

    private func metadata(_ side: ExportedSide, indent: String) -> String {
        TransactionMetadata.pairs(side).map { key, value in
            let text = hledger ? JournalText.hledgerTagValue(value) : JournalText.oneLine(value)
            return "\(indent); \(key): \(text)\n"
        }.joined()
    }

    private func posting(_ account: String, _ value: Decimal, _ currency: String, assertion: JournalAssertion? = nil,
                         comment: String = "") -> String {
        var line = "    " + account
        let amountText = amount(value, currency)
        line += String(repeating: " ", count: max(2, 60 - line.count - amountText.count)) + amountText
        if let assertion {
            if assertion.holds {
                line += " = " + amount(assertion.amount, assertion.currency)
            } else {
                line += "  ; statement balance \(amount(assertion.amount, assertion.currency)) not asserted: the transactions "
                    + "give \(amount(assertion.actual, assertion.currency))"
            }
        }
        return line + comment + "\n"
    }
}
