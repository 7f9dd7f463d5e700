import Foundation

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
    /// Whom this store saves and reads orders for. The seam where clients plug in: today every store is its owner's.
    package var orderSaver: OrderSaver { .owner }
}
