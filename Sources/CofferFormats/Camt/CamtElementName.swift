/// The element names `CamtHandler` acts on when they start, told apart once per distinct name.
///
/// For example:
/// ```swift
/// CamtElementName("Ntry")   // .entry
/// CamtElementName("Amt")    // .other
/// ```
enum CamtElementName: UInt8 {
    case other, document, statement, report, notification, entry, balance, transaction

    init(_ name: String) {
        switch name {
        case "Document": self = .document
        case "Stmt": self = .statement
        case "Rpt": self = .report
        case "Ntfctn": self = .notification
        case "Ntry": self = .entry
        case "Bal": self = .balance
        case "TxDtls": self = .transaction
        default: self = .other
        }
    }

    /// `Stmt`, `Rpt` or `Ntfctn`: one statement.
    var isStatement: Bool { self == .statement || self == .report || self == .notification }
}
