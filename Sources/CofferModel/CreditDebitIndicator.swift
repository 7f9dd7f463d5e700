/// Whether a transaction or balance adds to or takes from an account.
///
/// - `credit` increases an asset or decreases a liability.
/// - `debit` increases a liability or decreases an asset.
///
/// Amounts in Coffer are always positive; the sign lives here. JSON uses the case name:
/// `"creditDebitIndicator": "debit"`.
public enum CreditDebitIndicator: Int16, CaseIterable, Hashable, Sendable, CaseNameCodable {
    case credit = 0
    case debit = 1

    /// Each case's name as written in Swift, for JSON and the command line.
    public static let caseNames: [CreditDebitIndicator: String] = [.credit: "credit", .debit: "debit"]

    /// The other side.
    public var opposite: CreditDebitIndicator { self == .credit ? .debit : .credit }
}
