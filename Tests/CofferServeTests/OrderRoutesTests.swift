import Foundation
import Testing

extension ServeTests {
    /// Orders over HTTP: FinanceKit's saveOrder and containsOrder, each client seeing only the orders it saved.
    @Suite("coffer serve: orders")
    struct OrderRoutesTests {
        static let samples = packageRoot + "/Tests/Golden/orders/"
        static let contains = "/v1/orders/contains?orderTypeIdentifier=order.com.example.greenleaf&orderIdentifier=GL-2026-0301-7731"

        static func post(_ server: TestServer, _ sample: String, token: String) async throws -> Reply {
            var request = HTTPClientRequestBuilder.request(server.url("/v1/orders"), token: token)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/vnd.apple.finance.order")
            request.body = .bytes(try Data(contentsOf: URL(fileURLWithPath: samples + sample)))
            let response = try await testHTTPClient.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Reply(status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type") ?? "",
                         headers: response.headers, body: Data(buffer: body))
        }

        @Test func aClientSavesAndFindsItsOwnOrdersOnly() async throws {
            let server = try await TestServer.start()
            let shop = try await server.client("shop", types: [.orders])
            let other = try await server.client("other", types: [.orders])
            let reader = try await server.client("reader", types: [.transactions])

            #expect(try await server.get(Self.contains, token: shop).object()["result"] as? String == "notFound")
            let saved = try await Self.post(server, "greenleaf-v1.order", token: shop)
            #expect(saved.status == 200, "\(saved.text)")
            #expect(try saved.object()["result"] as? String == "added")
            #expect(try saved.object()["signatureVerified"] as? Bool == false)
            #expect(try await server.get(Self.contains, token: shop).object()["result"] as? String == "exists")
            #expect(try await server.get(Self.contains + "&updatedDate=2026-03-05T00:00:00Z", token: shop).object()["result"] as? String == "olderExists")
            #expect(try await Self.post(server, "greenleaf-v1.order", token: shop).object()["result"] as? String == "newerExisting")
            #expect(try await Self.post(server, "greenleaf-v2.order", token: shop).object()["result"] as? String == "added")

            // Another client does not see it; a client without the orders type may not ask.
            #expect(try await server.get(Self.contains, token: other).object()["result"] as? String == "notFound")
            #expect(try await server.get(Self.contains, token: reader).status == 403)
            #expect(try await Self.post(server, "nordic.order", token: reader).status == 403)

            // A refused archive is a 400 naming the check, and stores nothing.
            let refused = try await Self.post(server, "wrong-hash.order", token: other)
            #expect(refused.status == 400)
            #expect(refused.contentType == "application/problem+json")
            #expect(refused.text.contains("SHA-256") || refused.text.contains("hash"), "\(refused.text)")
            #expect(try await server.get(Self.contains, token: other).object()["result"] as? String == "notFound")
            #expect(try await server.get("/v1/orders/contains?orderIdentifier=x", token: shop).status == 400)
            #expect(try await server.get(Self.contains + "&updatedDate=yesterday", token: shop).status == 400)
            try await server.stop()
        }
    }
}
