import Coffer
import Foundation

/// Finds the account a `--account` value names: its UUID, the last digits of its number, or part of its name
/// (else of its institution's name), ignoring case and diacritics (`SearchFolding`: `koln` finds "Girokonto
/// Köln", `SPARKASSE` finds "Stadtsparkasse Düsseldorf").
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
            hits = accounts.filter { SearchFolding.contains($0.displayName, text) }
        }
        if hits.isEmpty {
            hits = accounts.filter { SearchFolding.contains($0.institutionName, text) }
        }
        switch hits.count {
        case 1: return hits[0]
        case 0: throw CofferError(.usage, "no account matches '\(text)' (see coffer accounts)")
        default:
            throw CofferError(.usage, "'\(text)' matches \(hits.count) accounts (\(hits.map(\.displayName).joined(separator: ", "))); use its id")
        }
    }
}
