/// Where a transaction is in its life: `pending` → `booked`, or `rejected`.
public enum TransactionStatus: Int16, CaseIterable, Hashable, Sendable, CaseNameCodable {
    case authorized = 0
    case booked = 1
    case memo = 2
    case pending = 3
    case rejected = 4

    /// Each case's name as written in Swift, for JSON and the command line.
    public static let caseNames: [TransactionStatus: String] = [
        .authorized: "authorized", .booked: "booked", .memo: "memo", .pending: "pending", .rejected: "rejected",
    ]
}
