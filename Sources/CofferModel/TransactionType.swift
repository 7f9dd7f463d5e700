/// The kind of a transaction, FinanceKit's 17 cases.
///
/// The raw values are Coffer's own (FinanceKit does not publish its own) and are stored in SQLite:
/// they are alphabetical and never change.
public enum TransactionType: Int16, CaseIterable, Hashable, Sendable, CaseNameCodable {
    case adjustment = 0
    case atm = 1
    case billPayment = 2
    case check = 3
    case deposit = 4
    case directDebit = 5
    case directDeposit = 6
    case dividend = 7
    case fee = 8
    case interest = 9
    case loan = 10
    case pointOfSale = 11
    case refund = 12
    case standingOrder = 13
    case transfer = 14
    case unknown = 15
    /// An automatic or recurring withdrawal of funds by another party.
    case withdrawal = 16

    /// Each case's name as written in Swift, for JSON and the command line.
    public static let caseNames: [TransactionType: String] = [
        .adjustment: "adjustment", .atm: "atm", .billPayment: "billPayment", .check: "check",
        .deposit: "deposit", .directDebit: "directDebit", .directDeposit: "directDeposit",
        .dividend: "dividend", .fee: "fee", .interest: "interest", .loan: "loan",
        .pointOfSale: "pointOfSale", .refund: "refund", .standingOrder: "standingOrder",
        .transfer: "transfer", .unknown: "unknown", .withdrawal: "withdrawal",
    ]
}
