import Coffer
import Foundation

/// Finds the account a `--account` value names: its UUID, the last digits of its number, or part of its name
/// (else of its institution's name), ignoring case and diacritics (`SearchFolding`: `koln` finds "Girokonto
/// Köln", `SPARKASSE` finds "Stadtsparkasse Düsseldorf").
enum AccountSelector {
    /// The accounts a repeatable `--account` names: each value may be a comma list (`--account 1234,Savings
    /// --account Visa`); each part must name exactly one account. Nil when none was given.
    static func resolveAll(_ values: [String], in store: FinanceStore) async throws -> [Account]? {
        let parts = split(values)
        guard !parts.isEmpty else { return nil }
        var accounts: [Account] = []
        for part in parts {
            let account = try await resolve(part, in: store)
            if !accounts.contains(where: { $0.id == account.id }) { accounts.append(account) }
        }
        return accounts
    }

    /// The values of a repeatable, comma-separated option, trimmed, empty parts dropped.
    static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

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
