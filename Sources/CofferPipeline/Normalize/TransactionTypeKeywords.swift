import CofferModel

/// The words that name a transaction's type in its text, in priority order (the first that matches wins).
///
/// For example, `"MONTHLY SERVICE FEE"` → `.fee`, `"SEPA-LASTSCHRIFT NETFLIX"` → `.directDebit`, and
/// `"REFUND AMAZON"` → `.refund` for a credit only. Words match whole (folded like merchant patterns:
/// `ÜBERWEISUNG` = `uberweisung`); `^` anchors a word at the start of the text (`CHECK 1234`, but not
/// `PAYCHECK`).
enum TransactionTypeKeywords {
    enum Direction { case any, credit, debit }

    static let table: [(type: TransactionType, direction: Direction, phrases: [String])] = [
        (.refund, .credit, ["refund", "return", "returned", "reversal", "chargeback", "erstattung", "ruckerstattung",
                            "rueckerstattung", "storno"]),
        (.fee, .any, ["fee", "fees", "service charge", "entgelt", "entgeltabschluss", "gebuhr", "gebuehr",
                      "kontofuhrungsgebuhr", "kontofuehrungsgebuehr", "kontofuhrung", "kontofuehrung", "overdraft"]),
        (.interest, .any, ["interest", "zinsen", "habenzinsen", "sollzinsen", "kreditzinsen", "dispozinsen", "zins"]),
        (.dividend, .any, ["dividend", "dividends", "dividende"]),
        (.atm, .any, ["atm", "geldautomat", "bargeldauszahlung", "bargeld", "cash withdrawal", "^ga"]),
        (.check, .any, ["^check", "^cheque", "^chq", "^scheck", "check paid", "cheque paid"]),
        (.directDeposit, .credit, ["direct deposit", "dir dep", "payroll", "salary", "gehalt", "lohn", "bezuge",
                                   "bezuege"]),
        (.standingOrder, .any, ["dauerauftrag", "standing order", "std ord"]),
        (.directDebit, .any, ["direct debit", "lastschrift", "basislastschrift", "folgelastschrift",
                              "erstlastschrift", "ach debit"]),
        (.billPayment, .any, ["thank you", "autopay", "bill pay", "billpay", "bill payment"]),
        (.billPayment, .credit, ["payment received"]),
        (.loan, .any, ["loan payment", "loan pmt", "mortgage payment", "tilgung", "darlehen"]),
        (.transfer, .any, ["transfer", "xfer", "uberweisung", "ueberweisung", "uberweisungsgutschrift",
                           "ueberweisungsgutschrift", "echtzeituberweisung", "umbuchung", "wire", "zelle"]),
        (.deposit, .credit, ["^deposit", "mobile deposit", "cash deposit", "branch deposit", "remote deposit",
                             "bareinzahlung", "einzahlung"]),
        (.withdrawal, .debit, ["withdrawal", "auszahlung"]),
        (.adjustment, .any, ["adjustment"]),
        (.pointOfSale, .debit, ["pos", "pos purchase", "point of sale", "debit card purchase", "checkcard",
                                "check card", "card purchase", "purchase authorized", "kartenzahlung", "girocard",
                                "contactless", "apple pay", "google pay"]),
    ]

    /// Per phrase of the automaton: its row in `table`.
    private static let phraseRow: [Int] = table.enumerated().flatMap { row, entry in entry.phrases.map { _ in row } }
    private static let automaton = PhraseAutomaton(
        phrases: table.flatMap { $0.phrases.map(DescriptionCleaner.phrase) })

    /// The type the text names for a transaction in this direction, or nil.
    static func type(in text: String, indicator: CreditDebitIndicator) -> TransactionType? {
        var visitor = FirstRow(indicator: indicator)
        automaton.scan(text, &visitor)
        return visitor.best == Int.max ? nil : table[visitor.best].type
    }

    /// Keeps the earliest row of `table` whose direction fits.
    private struct FirstRow: PhraseVisitor {
        let indicator: CreditDebitIndicator
        var best = Int.max

        mutating func found(_ phrase: Int) {
            let row = phraseRow[phrase]
            guard row < best else { return }
            switch table[row].direction {
            case .any: best = row
            case .credit: if indicator == .credit { best = row }
            case .debit: if indicator == .debit { best = row }
            }
        }
    }
}
