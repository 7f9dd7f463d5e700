import Coffer
import Foundation

/// Finds the account a `--account` value names: its UUID, the last digits of its number, or part of its name.
enum AccountSelector {
    static func resolve(_ text: String, in store: FinanceStore) async throws -> Account {
        let accounts = try await store.accounts(query: AccountQuery())
        if let id = UUID(uuidString: text), let hit = accounts.first(where: { $0.id == id }) { return hit }
        let masked = try await store.maskedAccountNumbers()
        let digits = text.filter { $0.isLetter || $0.isNumber }
        var hits = accounts.filter { account in
            guard digits.count >= 4, digits.count == text.count, let m = masked[account.id] else { return false }
            return m.uppercased().hasSuffix(String(digits.suffix(4)).uppercased())
        }
        if hits.isEmpty {
            hits = accounts.filter { $0.displayName.range(of: text, options: .caseInsensitive) != nil }
        }
        switch hits.count {
        case 1: return hits[0]
        case 0: throw CofferError(.usage, "no account matches '\(text)' (see coffer accounts)")
        default:
            throw CofferError(.usage, "'\(text)' matches \(hits.count) accounts (\(hits.map(\.displayName).joined(separator: ", "))); use its id")
        }
    }
}
