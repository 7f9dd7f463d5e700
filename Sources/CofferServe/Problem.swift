import CofferModel
import CofferStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// An error response as RFC 9457 `application/problem+json`: `{"detail", "status", "title", "type"}`.
///
/// Not-found is one fixed body, whatever the reason: what lies outside a client's grant answers exactly as what
/// does not exist (no text, field or length tells them apart).
package struct Problem: HTTPResponseError, Sendable {
    package let status: HTTPResponse.Status
    package let title: String
    package let detail: String
    var headers: HTTPFields = [:]

    package init(_ status: HTTPResponse.Status, _ detail: String, title: String? = nil) {
        self.status = status
        self.title = title ?? status.reasonPhrase
        self.detail = detail
    }

    package static func badRequest(_ detail: String) -> Problem { Problem(.badRequest, detail) }

    /// A missing, unknown or revoked bearer token (the three are not told apart).
    package static let unauthorized: Problem = {
        var problem = Problem(.unauthorized, "a bearer token the store issued to a client, not revoked, is required (the store's owner runs coffer clients add NAME)")
        problem.headers[.wwwAuthenticate] = #"Bearer realm="coffer""#
        return problem
    }()

    package static func forbidden(_ type: String) -> Problem {
        Problem(.forbidden, "this client is not authorized to read \(type) (the store's owner decides: coffer clients authorize)")
    }

    package static let notFound = Problem(.notFound, "there is nothing at this address")

    package static let tokenGone = Problem(.gone, "the history token is not valid here (another store or client, compacted, altered, or "
                                            + "read under a grant that has changed since): read again without since", title: "History Token Invalid")

    /// The body, as its own bytes (an SSE `error` event carries the same object).
    package var json: [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"detail":"#.utf8)
        ModelJSON.string(detail, &out)
        out.append(contentsOf: #","status":\#(status.code),"title":"#.utf8)
        ModelJSON.string(title, &out)
        out.append(contentsOf: #","type":"about:blank"}"#.utf8)
        return out
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }
}

/// Turns every error a route throws into a `Problem`: the router's own (no such route, method), FinanceKit's
/// (`dataRestricted` 403, `historyTokenInvalid` 410), a filter's word (400), and anything else a 500 whose cause is
/// logged, not sent.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            throw problem
        } catch let error as HTTPError {
            throw error.status == .notFound ? Problem.notFound : Problem(error.status, error.body ?? error.status.reasonPhrase)
        } catch FinanceError.historyTokenInvalid {
            throw Problem.tokenGone
        } catch FinanceError.dataRestricted(let type) {
            throw Problem.forbidden(type == .orders ? "orders" : "this data")
        } catch let invalid as TransactionFilter.Invalid {
            throw Problem.badRequest(invalid.description)
        } catch let error as CofferError where error.code == .usage {
            throw Problem.badRequest(error.message)
        } catch {
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw Problem(.internalServerError, "the request failed inside the server (its log has the cause)")
        }
    }
}
