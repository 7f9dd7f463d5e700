import CofferServe
import CofferStore
import Foundation
import Testing

extension ServeTests {
    /// The hand-written OpenAPI document and the router agree: every route is documented, every documented operation
    /// answers, with a status and content type the document lists for it.
    @Suite("coffer serve: the OpenAPI document")
    struct OpenAPIDocumentTests {
        static func document(_ server: TestServer) async throws -> [String: Any] {
            let reply = try await server.get("/openapi.json", token: nil)
            #expect(reply.status == 200)
            return try reply.object()
        }

        /// `METHOD /path/{param}` for each operation of the document.
        static func operations(_ document: [String: Any]) throws -> Set<String> {
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var out: Set<String> = []
            for (path, item) in paths {
                for method in ["get", "post", "put", "patch", "delete"] where item[method] != nil { out.insert(method.uppercased() + " " + path) }
            }
            return out
        }

        @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
            let server = try await TestServer.start()
            let documented = try Self.operations(try await Self.document(server))
            let routed = Set(CofferServer.router(owner: server.owner, configuration: CofferServer.Configuration()).routes.map { route in
                // Hummingbird writes a parameter as {name} or :name, and the path with or without its leading slash.
                let path = "/" + route.path.description.split(separator: "/").map { part in
                    part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
                }.joined(separator: "/")
                return "\(route.method.rawValue) \(path)"
            })
            #expect(routed == documented, "routed only: \(routed.subtracting(documented).sorted()); documented only: \(documented.subtracting(routed).sorted())")
            try await server.stop()
        }

        /// Each documented GET (the stream's first bytes aside) answers 200 with valid arguments, and its content type
        /// is the one documented.
        @Test func everyDocumentedOperationAnswersAsDocumented() async throws {
            let server = try await TestServer.start()
            try await server.importStatement(ofx(account: "7777", lines("o", count: 5)))
            let account = try #require(try await server.owner.accounts(query: AccountQuery()).first).id
            let token = try await server.client("spec")
            let document = try await Self.document(server)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var checked = 0
            for (path, item) in paths.sorted(by: { $0.key < $1.key }) where !path.hasSuffix("/stream") {
                for method in ["get", "post"] {
                    // An operation that takes a body (saving an order) has its own tests.
                    guard let operation = item[method] as? [String: Any], operation["requestBody"] == nil else { continue }
                    // Required query parameters from the document's examples.
                    let required = (operation["parameters"] as? [[String: Any]] ?? []).filter { $0["required"] as? Bool == true && $0["in"] as? String == "query" }
                    let query = required.compactMap { p in (p["example"] as? String).map { "\(p["name"]!)=\($0)" } }.joined(separator: "&")
                    let responses = try #require(operation["responses"] as? [String: Any], "\(method) \(path)")
                    let kinds = path.contains("{kind}") ? ["transactions", "accounts", "accountBalances"] : [""]
                    for kind in kinds {
                        let concrete = path.replacingOccurrences(of: "{id}", with: account.uuidString).replacingOccurrences(of: "{kind}", with: kind)
                            + (query.isEmpty ? "" : "?" + query)
                        let reply = try await server.request(concrete, token: token, method: method == "get" ? .GET : .POST)
                        #expect(reply.status == 200, "\(method) \(concrete): \(reply.text.prefix(200))")
                        let ok = try #require(responses["200"] as? [String: Any], "\(method) \(path) documents no 200")
                        let content = try #require(ok["content"] as? [String: Any])
                        #expect(content[reply.contentType] != nil, "\(method) \(concrete): \(reply.contentType) is not documented")
                        // The error statuses every /v1 operation can answer are documented.
                        // (The authorization route answers every client, decided or not: no 403 there.)
                        if path.hasPrefix("/v1") {
                            for status in path == "/v1/authorization" ? ["401"] : ["401", "403"] {
                                #expect(responses[status] != nil, "\(method) \(path) lacks \(status)")
                            }
                        }
                        checked += 1
                    }
                }
            }
            #expect(checked >= 10)
            try await server.stop()
        }
    }
}
