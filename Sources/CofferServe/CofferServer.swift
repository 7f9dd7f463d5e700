import CofferPipeline
import CofferStore
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `coffer serve`: the store over HTTP for programs other than its owner, each reading through its grant
/// (docs/serve.md). One owner `FinanceStore` serves every request; a request's bearer token names its client, and
/// every read goes through `FinanceStore.scoped(to:)`.
package enum CofferServer {
    package struct Configuration: Sendable {
        package var host = "127.0.0.1"
        /// 0 picks a free port (the tests do; `onRunning` is told which).
        package var port = 8750
        /// Time between heartbeat comments on an open history stream.
        package var heartbeat: Duration = .seconds(15)
        /// What a saved order's signature must chain to (`--trust`, `$COFFER_ORDER_TRUST`).
        package var orderTrust: OrderTrustAnchors = .none

        package init(host: String = "127.0.0.1", port: Int = 8750, heartbeat: Duration = .seconds(15), orderTrust: OrderTrustAnchors = .none) {
            self.host = host
            self.port = port
            self.heartbeat = heartbeat
            self.orderTrust = orderTrust
        }
    }

    /// Every route: `/openapi.json` without a token; `/v1/…` with one.
    package static func router(owner: FinanceStore, configuration: Configuration) -> Router<ClientContext> {
        let router = Router(context: ClientContext.self)
        router.add(middleware: ProblemMiddleware())
        router.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        let v1 = router.group("v1")
            .add(middleware: ClientAuthenticator(owner: owner))
            .add(middleware: RequireClient())
        ReadRoutes(owner: owner).add(to: v1)
        HistoryRoutes(owner: owner, heartbeat: configuration.heartbeat).add(to: v1)
        OrderRoutes(owner: owner, trust: configuration.orderTrust).add(to: v1)
        return router
    }

    /// The server as a service (run it in a `ServiceGroup`, beside `coffer watch`'s with `--watch`). `onRunning`
    /// gets the port it listens on once it does.
    package static func application(owner: FinanceStore, configuration: Configuration, logger: Logger,
                                    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some Service {
        Application(router: router(owner: owner, configuration: configuration),
                    configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                            serverName: "coffer"),
                    onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
                    logger: logger)
    }
}
