import CofferModel
import CofferStore
import Foundation

/// The transactions that move money between the person's own accounts: what reports leave out of spending and
/// income, and what an export writes once, between the two accounts.
///
/// For example:
/// ```swift
/// let transfers = try await OwnTransfers.find(in: store, configuration: configuration)
/// transfers.contains(transaction.id)        // true for either side of a pair, or a row a transfer rule names
/// transfers.counterpart(of: transaction.id) // the other side's id, when it is stored
/// for pair in transfers.pairs { print(pair.debit, "→", pair.credit) }
/// ```
/// A transfer is own when
/// - **both sides are stored:** a debit in one account and a credit in another, of the same amount and currency,
///   at most `maximumDays` (5) days apart (the bank's own days), where one side's text names the other account (its
///   last four digits, its display name or description, its institution's name or that name's distinctive first
///   word) or one side's type is `transfer`; or
/// - **a rule says so:** a rule of `transfers.yaml` matches it (its text, amount, direction, account). Such a
///   transaction is own whether or not its other side is stored; when a counterpart as above (without the naming
///   condition) is stored, the two are paired.
///
/// Each transaction is in at most one pair. Where several could pair, the better evidence wins (a rule or a name
/// before a type alone), then the nearer day, then the earlier transactions. Rejected rows never pair.
package struct OwnTransfers: Sendable, Hashable {
    /// The largest number of days between the two sides of a transfer.
    package static let maximumDays = 5

    /// The two sides of one transfer.
    package struct Pair: Sendable, Hashable {
        /// The side money left (a debit).
        package var debit: UUID
        /// The side money arrived on (a credit).
        package var credit: UUID
    }

    /// The transfers whose two sides are stored.
    package private(set) var pairs: [Pair] = []
    /// Transactions a transfer rule names whose other side was not found.
    package private(set) var unpaired: Set<UUID> = []
    private var other: [UUID: UUID] = [:]

    package init() {}

    /// Whether a transaction is an own transfer (either side of a pair, or named by a rule).
    package func contains(_ id: UUID) -> Bool { other[id] != nil || unpaired.contains(id) }

    /// The other side of a paired transfer.
    package func counterpart(of id: UUID) -> UUID? { other[id] }

    /// Every own transfer's id.
    package var ids: Set<UUID> { unpaired.union(other.keys) }

    /// The own transfers among `transactions`.
    ///
    /// - Parameters:
    ///   - accounts: the accounts (their names and institutions are what texts name).
    ///   - maskedNumbers: per account, its masked number (`••••1234`, `FinanceStore.maskedAccountNumbers()`): texts
    ///     naming the last four digits.
    ///   - rules: the transfer rules (`CofferConfiguration.transferRules`).
    package static func find(in transactions: [Transaction], accounts: [Account], maskedNumbers: [UUID: String] = [:],
                             rules: MerchantRules = .empty, cleaner: DescriptionCleaner = DescriptionCleaner()) -> OwnTransfers {
        let names = AccountNames(accounts: accounts, maskedNumbers: maskedNumbers)
        let byAccount = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let live = transactions.filter { $0.status != .rejected }
        // Rules first: which transactions a rule names.
        var ruled = Set<UUID>()
        if !rules.rules.isEmpty {
            var accountMatches: [UUID: [Bool]] = [:]
            for t in live {
                let raw = t.originalTransactionDescription.isEmpty ? t.transactionDescription : t.originalTransactionDescription
                var matches: [Bool] = []
                if let account = byAccount[t.accountID] {
                    if let known = accountMatches[account.id] { matches = known } else {
                        matches = rules.accountMatches(id: account.id, names: [account.displayName] + (account.accountDescription.map { [$0] } ?? []))
                        accountMatches[account.id] = matches
                    }
                }
                let context = MerchantRuleContext(amount: t.transactionAmount.amount, indicator: t.creditDebitIndicator, accountMatches: matches)
                // Every rule applies to any text: a transfer is not a purchase, so `scope` is not consulted.
                if rules.matchIndex(raw: raw, cleaned: cleaner.clean(raw).display, context: context, isPurchase: true) != nil {
                    ruled.insert(t.id)
                }
            }
        }
        // Credits by currency and amount, to find each debit's candidates.
        struct Key: Hashable { var currency: String; var amount: Decimal }
        var credits: [Key: [Transaction]] = [:]
        for t in live where t.creditDebitIndicator == .credit {
            credits[Key(currency: t.transactionAmount.currencyCode, amount: t.transactionAmount.amount), default: []].append(t)
        }
        // Each pool by day, so a debit looks only at the credits of its ±5 days (many equal amounts stay cheap).
        for key in credits.keys { credits[key]!.sort { $0.localDay < $1.localDay } }
        struct Candidate { var debit: Transaction; var credit: Transaction; var strength: Int; var days: Int }
        var candidates: [Candidate] = []
        for debit in live where debit.creditDebitIndicator == .debit {
            guard let pool = credits[Key(currency: debit.transactionAmount.currencyCode, amount: debit.transactionAmount.amount)] else { continue }
            var low = 0, high = pool.count
            while low < high {
                let mid = (low + high) / 2
                if pool[mid].localDay < debit.localDay - maximumDays { low = mid + 1 } else { high = mid }
            }
            for credit in pool[low...] {
                if credit.localDay > debit.localDay + maximumDays { break }
                guard credit.accountID != debit.accountID else { continue }
                let days = abs(credit.localDay - debit.localDay)
                var strength = 0
                if ruled.contains(debit.id) || ruled.contains(credit.id)
                    || names.names(credit.accountID, in: debit) || names.names(debit.accountID, in: credit) {
                    strength = 2
                } else if debit.transactionType == .transfer || credit.transactionType == .transfer {
                    strength = 1
                }
                if strength > 0 { candidates.append(Candidate(debit: debit, credit: credit, strength: strength, days: days)) }
            }
        }
        candidates.sort {
            if $0.strength != $1.strength { return $0.strength > $1.strength }
            if $0.days != $1.days { return $0.days < $1.days }
            if $0.debit.transactionDate != $1.debit.transactionDate { return $0.debit.transactionDate < $1.debit.transactionDate }
            if $0.debit.id != $1.debit.id { return $0.debit.id.uuidString < $1.debit.id.uuidString }
            return $0.credit.id.uuidString < $1.credit.id.uuidString
        }
        var result = OwnTransfers()
        for candidate in candidates where result.other[candidate.debit.id] == nil && result.other[candidate.credit.id] == nil {
            result.pairs.append(Pair(debit: candidate.debit.id, credit: candidate.credit.id))
            result.other[candidate.debit.id] = candidate.credit.id
            result.other[candidate.credit.id] = candidate.debit.id
        }
        result.unpaired = ruled.filter { result.other[$0] == nil }
        return result
    }

    /// The own transfers among the stored transactions (all of them, or those of the bank's days `from` through
    /// `through`, days as `CalendarDay.parse` gives them, with `maximumDays` on either side, so a pair across the
    /// edge is still found).
    package static func find(in store: FinanceStore, configuration: CofferConfiguration,
                             from: Date? = nil, through: Date? = nil) async throws -> OwnTransfers {
        let accounts = try await store.accounts(query: AccountQuery())
        let masked = try await store.maskedAccountNumbers()
        var query = TransactionQuery()
        if from != nil || through != nil {
            let widen = { (day: Date?, by: Int) in day.map { CalendarDay.date(day: CalendarDay.dayNumber($0) + by) } }
            query.predicate = TransactionQuery.predicate(fromDay: widen(from, -maximumDays), throughDay: widen(through, maximumDays))
        }
        let transactions = try await store.transactions(query: query)
        return find(in: transactions, accounts: accounts, maskedNumbers: masked, rules: configuration.transferRules,
                    cleaner: configuration.normalizer.cleaner)
    }
}

/// What a text must hold to name an account: its last four digits, its display name or description, its
/// institution's name or that name's first word when it is distinctive (folded as search folds text, whole words).
private struct AccountNames {
    var digits: [UUID: String] = [:]
    var words: [UUID: [String]] = [:]

    init(accounts: [Account], maskedNumbers: [UUID: String]) {
        for account in accounts {
            if let masked = maskedNumbers[account.id] {
                let tail = String(masked.filter { $0.isASCII && $0.isNumber }.suffix(4))
                if tail.count == 4 { digits[account.id] = tail }
            }
            var names = ([account.displayName, account.institutionName] + (account.accountDescription.map { [$0] } ?? []))
                .map { Self.words(SearchFolding.fold($0)) }
            // The institution's first word when it is its own (`NORTHWIND CARD SVCS` names Northwind Card Services).
            if let first = Self.words(SearchFolding.fold(account.institutionName)).split(separator: " ").first,
               first.count >= 4, !Self.common.contains(String(first)) {
                names.append(String(first))
            }
            words[account.id] = names.filter { $0.count >= 3 }
        }
    }

    /// First words of institution names that name no one institution.
    static let common: Set<String> = ["bank", "banco", "banque", "first", "national", "city", "credit", "union", "savings",
                                      "community", "federal", "state", "citizens", "united", "american", "royal", "commonwealth",
                                      "central", "peoples", "mutual", "trust", "sparkasse", "volksbank", "raiffeisenbank"]

    /// Whether `transaction`'s texts name the account `id`.
    func names(_ id: UUID, in transaction: Transaction) -> Bool {
        let texts = [transaction.originalTransactionDescription, transaction.transactionDescription]
        if let tail = digits[id], texts.contains(where: { Self.hasDigitRun(endingWith: tail, in: $0) }) { return true }
        guard let names = words[id], !names.isEmpty else { return false }
        return texts.contains { text in
            let folded = " " + Self.words(SearchFolding.fold(text)) + " "
            return names.contains { folded.contains(" " + $0 + " ") }
        }
    }

    /// Letters and digits, every other run of characters one space.
    static func words(_ text: String) -> String {
        var out = ""
        var space = false
        for character in text {
            if character.isLetter || character.isNumber {
                if space, !out.isEmpty { out.append(" ") }
                space = false
                out.append(character)
            } else {
                space = true
            }
        }
        return out
    }

    /// Whether a run of digits in `text` ends with `tail` (`XXXXXX1234`, `…1234`, `acct 0001234`).
    static func hasDigitRun(endingWith tail: String, in text: String) -> Bool {
        var run = ""
        for character in text + " " {
            if character.isASCII && character.isNumber { run.append(character); continue }
            if run.hasSuffix(tail) { return true }
            run = ""
        }
        return false
    }
}
