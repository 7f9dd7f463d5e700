import Foundation

/// The words that name a column's role in the header names banks use (English, German, a little French, Spanish and
/// Dutch), and the values of status and indicator columns. A hint is a whole word or phrase of the folded name
/// (`Amount (USD)` → `amount usd`); a hint starting with `*` matches inside a word too, for German compounds
/// (`*betrag` in `Buchungsbetrag`).
enum DraftVocabulary {
    static let postedDate = ["posted", "posting", "post date", "clearing", "cleared", "value date",
                             "*wertstellung", "*valuta", "completed", "settled", "settlement", "effective"]
    static let amount = ["amount", "amt", "*betrag", "*umsatz", "sum", "montant", "importe", "bedrag"]
    static let debit = ["debit", "debits", "withdrawal", "withdrawals", "paid out", "money out", "outflow",
                        "spent", "soll", "*ausgang", "*belastung", "ausgaben", "charge", "charges"]
    static let credit = ["credit", "credits", "deposit", "deposits", "paid in", "money in", "inflow",
                         "received", "haben", "*eingang", "*gutschrift", "einnahmen"]
    static let balance = ["balance", "*saldo", "*kontostand", "running balance", "available"]
    static let fee = ["fee", "fees", "*gebuhr", "*entgelt", "commission"]
    static let foreign = ["local", "foreign", "original", "orig", "*fremdwahrung", "instructed"]
    static let currency = ["currency", "ccy", "cur", "*wahrung", "devise", "moneda"]
    static let id = ["id", "transaction id", "reference", "ref", "*referenz", "fitid", "transaction number",
                     "*belegnummer", "*transaktionsnummer", "confirmation", "uuid"]
    static let checkNumber = ["check", "cheque", "*scheck", "slip", "chq"]
    static let status = ["status", "state", "*zustand"]
    static let type = ["type", "typ", "*buchungstext", "vorgang", "*umsatzart", "art", "kind"]
    static let category = ["category", "*kategorie", "categorie", "categoria"]
    static let mcc = ["mcc", "merchant category code"]
    static let merchant = ["merchant", "payee", "name", "counterparty", "beneficiary", "recipient", "payer",
                           "*empfanger", "*begunstigt", "*zahlungspflichtig", "*auftraggeber", "*handler", "partner"]
    static let memo = ["memo", "note", "notes", "comment", "comments", "*bemerkung", "*notiz", "*zusatz", "additional"]
    static let accountNumber = ["card", "card no", "card number", "account", "account number", "acct", "konto",
                                "*kontonummer", "iban"]
    /// Words of a summary line after the data (opening and closing balances, totals).
    static let summary = ["saldo", "balance", "total", "summe", "kontostand", "opening", "closing", "abschluss"]
    /// Words that say a file is a card's export (purchases positive).
    static let card = ["card", "credit card", "kreditkarte", "karte", "visa", "mastercard", "amex", "american express"]

    /// Status cell values (normalized) and the status they mean.
    static let statusValues: [String: String] = [
        "pending": "pending", "vorgemerkt": "pending", "in bearbeitung": "pending", "processing": "pending",
        "booked": "booked", "posted": "booked", "cleared": "booked", "completed": "booked", "complete": "booked",
        "settled": "booked", "gebucht": "booked", "done": "booked",
        "authorized": "authorized", "authorised": "authorized", "authorization": "authorized",
        "declined": "rejected", "rejected": "rejected", "reverted": "rejected", "failed": "rejected",
        "cancelled": "rejected", "canceled": "rejected", "abgelehnt": "rejected", "storniert": "rejected",
        "memo": "memo",
    ]

    /// Indicator spellings (normalized): debit side, credit side. The first of each side is the canonical one.
    static let indicatorPairs: [(debit: [String], credit: [String])] = [
        (["s"], ["h"]), (["d"], ["c"]), (["dr", "db"], ["cr"]), (["debit", "dbit"], ["credit", "crdt"]),
        (["soll"], ["haben"]), (["-"], ["+"]),
    ]

    /// `Auftraggeber / Begünstigter` → ` auftraggeber begunstigter `: folded, lower-cased, letters and digits only.
    static func fold(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        let words = folded.split { !($0.isLetter || $0.isNumber) }
        return " " + words.joined(separator: " ") + " "
    }

    /// Whether the folded `name` holds one of `hints`.
    static func matches(_ folded: String, _ hints: [String]) -> Bool {
        hints.contains { hint in
            hint.hasPrefix("*") ? folded.contains(hint.dropFirst()) : folded.contains(" " + hint + " ")
        }
    }
}
