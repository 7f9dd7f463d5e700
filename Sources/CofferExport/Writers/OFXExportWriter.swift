import CofferModel
import Foundation

/// An OFX 2.2 document: one statement per account (`STMTRS` for an asset account, `CCSTMTRS` for a card), each
/// transaction with its Coffer id as `FITID`, the cleaned text as `NAME` (OFX allows 32 characters), the
/// institution's own text as `MEMO`, the MCC as `SIC`, and the account's latest statement balance in the range as
/// `LEDGERBAL`. The account is named by the start of its Coffer id (Coffer does not keep account numbers).
struct OFXExportWriter {
    func write(_ plan: ExportPlan, accounts: [UUID: Account]) -> String {
        var sides: [UUID: [ExportedSide]] = [:]
        var balances: [UUID: JournalAssertion] = [:]
        for entry in plan.entries {
            switch entry {
            case .single(let side, _, _): sides[side.transaction.accountID, default: []].append(side)
            case .transfer(let first, let second, _, _):
                sides[first.transaction.accountID, default: []].append(first)
                sides[second.transaction.accountID, default: []].append(second)
            case .assertion(let assertion): balances[assertion.accountID] = assertion
            case .opening: continue
            }
        }
        let ids = Set(sides.keys).union(balances.keys).sorted { $0.uuidString < $1.uuidString }
        let lastDay = (sides.values.flatMap { $0.map(\.day) } + balances.values.map(\.day)).max() ?? 0
        var bank = "", cards = ""
        for id in ids {
            guard let account = accounts[id] else { continue }
            let rows = (sides[id] ?? []).sorted { ($0.day, $0.transaction.id.uuidString) < ($1.day, $1.transaction.id.uuidString) }
            let first = rows.map(\.day).min() ?? balances[id]?.day ?? lastDay
            let last = max(rows.map(\.day).max() ?? first, balances[id]?.day ?? first)
            let accountID = String(id.uuidString.replacingOccurrences(of: "-", with: "").prefix(22))
            var s = "<CURDEF>\(account.currencyCode)</CURDEF>"
            s += account.kind == .asset
                ? "<BANKACCTFROM><BANKID>COFFER</BANKID><ACCTID>\(accountID)</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>"
                : "<CCACCTFROM><ACCTID>\(accountID)</ACCTID></CCACCTFROM>"
            s += "\n<BANKTRANLIST><DTSTART>\(Self.date(first))</DTSTART><DTEND>\(Self.date(last))</DTEND>\n"
            for side in rows { s += transaction(side) }
            s += "</BANKTRANLIST>\n"
            if let balance = balances[id] {
                s += "<LEDGERBAL><BALAMT>\(JournalText.amount(balance.amount))</BALAMT><DTASOF>\(Self.date(balance.day))</DTASOF></LEDGERBAL>\n"
            }
            if account.kind == .asset {
                bank += "<STMTTRNRS><TRNUID>0</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>\n<STMTRS>\(s)</STMTRS></STMTTRNRS>\n"
            } else {
                cards += "<CCSTMTTRNRS><TRNUID>0</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>\n<CCSTMTRS>\(s)</CCSTMTRS></CCSTMTTRNRS>\n"
            }
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
        out += "<?OFX OFXHEADER=\"200\" VERSION=\"220\" SECURITY=\"NONE\" OLDFILEUID=\"NONE\" NEWFILEUID=\"NONE\"?>\n"
        out += "<OFX>\n<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>"
        out += "<DTSERVER>\(Self.date(lastDay))</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>\n"
        if !bank.isEmpty { out += "<BANKMSGSRSV1>\n\(bank)</BANKMSGSRSV1>\n" }
        if !cards.isEmpty { out += "<CREDITCARDMSGSRSV1>\n\(cards)</CREDITCARDMSGSRSV1>\n" }
        return out + "</OFX>\n"
    }

    private func transaction(_ side: ExportedSide) -> String {
        let t = side.transaction
        var s = "<STMTTRN><TRNTYPE>\(Self.type(t))</TRNTYPE><DTPOSTED>\(Self.date(side.day))</DTPOSTED>"
        if t.localDay != side.day { s += "<DTUSER>\(Self.date(t.localDay))</DTUSER>" }
        s += "<TRNAMT>\(JournalText.amount(t.signedAmount))</TRNAMT><FITID>\(t.id.uuidString)</FITID>"
        if let mcc = t.merchantCategoryCode { s += "<SIC>\(mcc.code)</SIC>" }
        let name = String(TransactionMetadata.description(t).prefix(32))
        if !name.isEmpty { s += "<NAME>\(Self.escape(name))</NAME>" }
        let memo = JournalText.oneLine(t.originalTransactionDescription)
        if !memo.isEmpty { s += "<MEMO>\(Self.escape(String(memo.prefix(255))))</MEMO>" }
        if let foreign = t.foreignCurrencyAmount, let rate = t.foreignCurrencyExchangeRate {
            s += "<ORIGCURRENCY><CURRATE>\(ExactDecimal.text(rate))</CURRATE><CURSYM>\(foreign.currencyCode)</CURSYM></ORIGCURRENCY>"
        }
        return s + "</STMTTRN>\n"
    }

    static func date(_ day: Int) -> String { CalendarDay.string(day: day).replacingOccurrences(of: "-", with: "") }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func type(_ t: Transaction) -> String {
        switch t.transactionType {
        case .pointOfSale: "POS"
        case .atm: "ATM"
        case .check: "CHECK"
        case .fee: "FEE"
        case .interest: "INT"
        case .dividend: "DIV"
        case .directDeposit: "DIRECTDEP"
        case .directDebit: "DIRECTDEBIT"
        case .transfer: "XFER"
        case .standingOrder: "REPEATPMT"
        case .billPayment: "PAYMENT"
        case .deposit: "DEP"
        default: t.creditDebitIndicator == .credit ? "CREDIT" : "DEBIT"
        }
    }
}
