import CofferModel
import Foundation

extension FinanceStore {
    /// The kinds of data a client's grant names: the same names as background delivery's types
    /// (`FinanceStore.BackgroundDataType`), and `orders`.
    package enum ClientDataType: String, CaseIterable, Codable, Hashable, Sendable {
        case accounts
        case accountBalances
        case transactions
        case orders

        /// The change-log entity this type's reads and history are about (none for `orders`).
        var entity: EntityKind? {
            switch self {
            case .accounts: .account
            case .accountBalances: .balance
            case .transactions: .transaction
            case .orders: nil
            }
        }

        /// The type a read of this entity needs.
        static func of(_ entity: EntityKind) -> ClientDataType {
            switch entity {
            case .account: .accounts
            case .balance: .accountBalances
            case .transaction: .transactions
            }
        }

        /// FinanceKit's data type of `FinanceError.dataRestricted` for a read this type does not allow.
        var restricted: FinanceDataType { self == .orders ? .orders : .financialData }
    }

    /// Where a client stands: FinanceKit's three statuses, and `revoked` (its token no longer opens anything).
    package enum ClientState: String, Codable, Hashable, Sendable, CaseIterable {
        case notDetermined
        case authorized
        case denied
        case revoked

        /// What `authorizationStatus()` answers: a revoked client is `denied`.
        package var status: AuthorizationStatus {
            switch self {
            case .notDetermined: .notDetermined
            case .authorized: .authorized
            case .denied, .revoked: .denied
            }
        }
    }

    /// One account of a grant: the client sees it, and of its transactions and balances those dated on or after
    /// `earliestDate` (a calendar day, midnight UTC as `CalendarDay.parse` makes it; nil for all of them).
    package struct GrantedAccount: Codable, Hashable, Sendable {
        package var accountID: UUID
        package var earliestDate: Date?

        package init(accountID: UUID, earliestDate: Date? = nil) {
            self.accountID = accountID
            self.earliestDate = earliestDate.map { CalendarDay.date(day: CalendarDay.dayNumber($0)) }
        }

        /// The earliest day as a day number (days since 1970), nil for every day.
        package var earliestDay: Int? { earliestDate.map(CalendarDay.dayNumber) }
    }

    /// What an authorized client may read: these accounts (each from its earliest date), these data types.
    ///
    /// A grant names account ids. When `coffer accounts link KEEP OTHER` merges two accounts, OTHER's id is gone:
    /// a grant that named only OTHER shows nothing of KEEP (it does not move to the surviving account), and a
    /// grant that named KEEP sees KEEP as it is after the link, from KEEP's earliest date (docs/access.md).
    package struct Grant: Codable, Hashable, Sendable {
        package var accounts: [GrantedAccount]
        package var dataTypes: [ClientDataType]

        package init(accounts: [GrantedAccount] = [], dataTypes: [ClientDataType] = []) {
            var seen = Set<UUID>()
            self.accounts = accounts.filter { seen.insert($0.accountID).inserted }
            self.dataTypes = ClientDataType.allCases.filter(dataTypes.contains)
        }

        /// Nothing: what a client that is not authorized holds.
        package static let none = Grant()
    }

    /// A program that reads the store through a grant: its name, where the owner's decision stands, the grant,
    /// and the grant's epoch (history tokens carry it; every decision of the owner makes a new one).
    package struct Client: Codable, Hashable, Sendable, Identifiable {
        package var id: UUID
        package var name: String
        package var state: ClientState
        package var epoch: Int64
        package var grant: Grant
        package var createdAt: Date
        /// When the owner last authorized, denied or revoked it.
        package var decidedAt: Date?
        /// When the client last asked (`requestAuthorization()`) while undecided.
        package var requestedAt: Date?
        /// How many times it asked while undecided.
        package var requests: Int

        /// FinanceKit's status: what `authorizationStatus()` answers the client.
        package var status: AuthorizationStatus { state.status }
        /// Whether it asked and the owner has not decided: a pending request.
        package var isPending: Bool { state == .notDetermined && requestedAt != nil }
    }
}
