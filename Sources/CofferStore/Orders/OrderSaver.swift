import CofferModel
import Foundation
import GRDB

/// Who saves and reads orders through a store: its owner, who sees every order, or a client, who sees and matches
/// only the orders it saved itself (FinanceKit: an app sees its own orders; `.notFound` for anyone else's).
package enum OrderSaver: Hashable, Sendable {
    /// The store's owner (the CLI, a program that opened the store by its path).
    case owner
    /// A client, by its id.
    case client(UUID)

    /// The `client_id` a saved row carries: nil for the owner.
    package var clientID: UUID? {
        switch self {
        case .owner: nil
        case .client(let id): id
        }
    }
}

extension FinanceStore {
    /// Whom this store saves and reads orders for: the client of a client's store (`scoped(to:)`,
    /// `FinanceStore(path:clientToken:)`), else the owner.
    package var orderSaver: OrderSaver { clientID.map { .client($0) } ?? .owner }

    /// The owner's store this one reads through (itself for the owner's): what links an order to the transaction that
    /// paid for it, whoever saved the order.
    package var ownerStore: FinanceStore { base ?? self }

    /// The saver's grant, for a client (nil for the owner); throws FinanceKit's `dataRestricted(.orders)` unless the
    /// client is authorized with the `orders` type in its grant.
    func requireOrders(_ saver: OrderSaver) throws -> AccessScope? {
        guard case .client(let id) = saver else { return nil }
        let scope = try readNow { try AccessScope.load($0, clientID: id) }
        try scope.require(.orders)
        return scope
    }
}
