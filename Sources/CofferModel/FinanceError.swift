/// The kinds of data a store holds, as FinanceKit names them.
public enum FinanceDataType: Hashable, Sendable {
    case financialData
    case orders
}

/// FinanceKit's error: restricted data, an unusable history token, or something else.
///
/// Coffer throws `historyTokenInvalid` for a token from another store, a tampered or garbled token, or one
/// older than the compaction horizon; the client restarts from `nil` and loses nothing. `dataRestricted` means
/// the store cannot be read right now (locked, being migrated, permissions): transient.
public enum FinanceError: Error, Equatable, Hashable, Sendable {
    case dataRestricted(FinanceDataType)
    case historyTokenInvalid
    case unknown

    public static let errorDomain = "FinanceKit.FinanceError"

    public var errorCode: Int {
        switch self {
        case .dataRestricted: 0
        case .unknown: 1
        case .historyTokenInvalid: 2
        }
    }

    public var errorDescription: String? {
        switch self {
        case .dataRestricted: "The financial data cannot be read right now."
        case .historyTokenInvalid: "The history token is not valid for this store; restart history from nil."
        case .unknown: "An unknown error occurred."
        }
    }

    public var failureReason: String? { errorDescription }
}
