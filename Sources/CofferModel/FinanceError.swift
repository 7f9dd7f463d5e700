import Foundation

/// The kinds of data a store holds, as FinanceKit names them.
public enum FinanceDataType: Hashable, Sendable {
    case financialData
    case orders
}

/// FinanceKit's error: restricted data, an unusable history token, or something else.
///
/// Coffer throws `historyTokenInvalid` for a token from another store, a tampered or garbled token, or one
/// older than the compaction horizon, and for a client's token of another client or of a grant the owner has
/// changed since; the client restarts from `nil` and loses nothing. `dataRestricted` means the store cannot be
/// read right now (locked, being migrated, permissions): transient; or, for a client (`FinanceStore(path:
/// clientToken:)`), that the owner has not authorized it or its grant lacks that data type.
///
/// Like FinanceKit's, it bridges to `NSError` in the domain `FinanceKit.FinanceError` with FinanceKit's codes
/// (`dataRestricted` 0, `unknown` 1, `historyTokenInvalid` 2); `dataRestricted`'s user info names the data type
/// under `FinanceStoreDataType`.
public enum FinanceError: Error, Equatable, Hashable, Sendable, LocalizedError, CustomNSError {
    case dataRestricted(FinanceDataType)
    case historyTokenInvalid
    case unknown

    public static let errorDomain = "FinanceKit.FinanceError"

    /// The user-info key of `dataRestricted`'s data type (`financialData` or `orders`).
    public static let dataTypeKey = "FinanceStoreDataType"

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

    public var failureReason: String? {
        switch self {
        case .dataRestricted: "The store is locked by another process, being upgraded, or not readable with these permissions; or the store's owner has not granted this client that data."
        case .historyTokenInvalid: "The token comes from another store or client, was altered, is older than the store's compaction horizon, or was read under a grant that has changed since."
        case .unknown: "An unknown error occurred."
        }
    }

    public var recoverySuggestion: String? {
        switch self {
        case .dataRestricted: "Try again shortly."
        case .historyTokenInvalid: "Read the history again from the start (since: nil)."
        case .unknown: nil
        }
    }

    /// The description, failure reason and recovery suggestion under Foundation's keys, and the data type.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [:]
        if let errorDescription { info[NSLocalizedDescriptionKey] = errorDescription }
        if let failureReason { info[NSLocalizedFailureReasonErrorKey] = failureReason }
        if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
        if case .dataRestricted(let type) = self {
            info[Self.dataTypeKey] = switch type {
            case .financialData: "financialData"
            case .orders: "orders"
            }
        }
        return info
    }
}
