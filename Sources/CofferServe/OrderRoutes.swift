import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Hummingbird
import NIOCore

/// FinanceKit's `saveOrder(signedArchive:)` and `containsOrder(matching:updatedDate:)` over HTTP: `POST
/// /v1/orders` (the archive as the body) and `GET /v1/orders/contains`. Orders belong to the client that saved
/// them: another client's, and the owner's, are not found. Needs the `orders` data type.
struct OrderRoutes {
    let owner: FinanceStore
    /// The certificates a signature must chain to (`coffer serve --trust`, `$COFFER_ORDER_TRUST`); with none, only
    /// the manifest is verified and the answer says `"signatureVerified": false`.
    let trust: OrderTrustAnchors

    func add(to group: RouterGroup<ClientContext>) {
        group.post("orders") { request, context in try await save(request, context) }
        group.get("orders/contains") { request, context in try await contains(request, context) }
    }

    /// The archive is checked whole (manifest hashes, unlisted files, paths, sizes, the signature with trust anchors)
    /// before anything is stored; a refusal is a 400 naming the check.
    func save(_ request: Request, _ context: ClientContext) async throws -> Response {
        _ = try Parameters(request, allowed: [])
        let store = try context.store(owner, for: .orders)
        let limits = OrderArchiveLimits()
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limits.archiveBytes)
        } catch {
            throw Problem(.contentTooLarge, "the archive is larger than \(limits.archiveBytes) bytes")
        }
        let report: OrderSaveReport
        do {
            report = try await store.saveOrder(signedArchive: Data(buffer: body),
                                               options: OrderSaveOptions(trust: trust, archiveName: "the request's archive"))
        } catch let error as CofferError where error.code == .badInput {
            throw Problem(.badRequest, error.message, title: "Archive Refused")
        }
        var out = JSONBody()
        out.raw("{")
        out.key("orderID", first: true)
        out.raw(report.orderID.map { "\"\($0.uuidString)\"" } ?? "null")
        out.key("result")
        out.string(report.result.rawValue)
        out.key("signatureVerified")
        out.raw(report.verification.signature == .verified ? "true" : "false")
        out.raw("}")
        return out.response()
    }

    func contains(_ request: Request, _ context: ClientContext) async throws -> Response {
        let parameters = try Parameters(request, allowed: ["orderTypeIdentifier", "orderIdentifier", "updatedDate"])
        let store = try context.store(owner, for: .orders)
        guard let type = try parameters["orderTypeIdentifier"], !type.isEmpty,
              let identifier = try parameters["orderIdentifier"], !identifier.isEmpty else {
            throw Problem.badRequest("orderTypeIdentifier and orderIdentifier are both required")
        }
        var updated: Date?
        if let text = try parameters["updatedDate"] {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw Problem.badRequest("updatedDate expects an ISO 8601 instant such as 2026-03-01T23:12:00Z, not '\(text)'")
            }
            updated = date
        }
        let result = try await store.containsOrder(matching: FullyQualifiedOrderIdentifier(orderTypeIdentifier: type, orderIdentifier: identifier),
                                                   updatedDate: updated)
        var out = JSONBody()
        out.raw("{")
        out.key("result", first: true)
        out.string(result.rawValue)
        out.raw("}")
        return out.response()
    }
}
