import CofferModel
import CofferStore
import Foundation
import Hummingbird
import HummingbirdAuth

/// A request's context: Hummingbird's core, and the client its bearer token names (nil until authenticated).
package struct ClientContext: AuthRequestContext, RequestContext {
    package var coreContext: CoreRequestContextStorage
    package var identity: FinanceStore.Client?

    package init(source: Source) {
        coreContext = CoreRequestContextStorage(source: source)
        identity = nil
    }
}

/// Resolves `Authorization: Bearer TOKEN` to the client the store issued it to: the token's SHA-256 compared with
/// every client's, each comparison in constant time (`FinanceStore.client(authenticatedBy:)`). A revoked or
/// removed client's token resolves to nothing.
struct ClientAuthenticator: AuthenticatorMiddleware {
    typealias Context = ClientContext
    let owner: FinanceStore

    func authenticate(request: Request, context: ClientContext) async throws -> FinanceStore.Client? {
        guard let bearer = request.headers.bearer else { return nil }
        return try owner.client(authenticatedBy: bearer.token)
    }
}

/// Ends a request without a client with 401 (missing, unknown and revoked tokens alike).
struct RequireClient: RouterMiddleware {
    typealias Context = ClientContext

    func handle(_ request: Request, context: ClientContext, next: (Request, ClientContext) async throws -> Response) async throws -> Response {
        guard context.identity != nil else { throw Problem.unauthorized }
        return try await next(request, context)
    }
}

extension ClientContext {
    /// The authenticated client (RequireClient has run).
    var client: FinanceStore.Client {
        get throws {
            guard let identity else { throw Problem.unauthorized }
            return identity
        }
    }

    /// The client's store, after checking that its grant (as read when the request was authenticated) has `type`:
    /// a 403 before any read. The reads themselves check the grant again in their own snapshot.
    func store(_ owner: FinanceStore, for type: FinanceStore.ClientDataType) throws -> FinanceStore {
        let client = try self.client
        guard client.state == .authorized, client.grant.dataTypes.contains(type) else { throw Problem.forbidden(type.rawValue) }
        return owner.scoped(to: client.id)
    }
}
