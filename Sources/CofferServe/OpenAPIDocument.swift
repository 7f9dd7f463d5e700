import Foundation

/// The OpenAPI 3.1 document of `coffer serve`, written by hand and served at `GET /openapi.json`, in parts a file
/// each: the head (here), the read routes' paths, the history paths, the schemas, and the shared parameters and
/// responses. A test checks it against the router (every route documented, every documented route answering), and
/// `scripts/fuzz-api.sh` runs schemathesis from it.
enum OpenAPIDocument {
    /// The whole document, as served, keys sorted.
    static let json: String = {
        var document = object(head)
        document["paths"] = object(readPaths).merging(object(historyPaths)) { first, _ in first }
        var components = object(shared)
        components["schemas"] = object(schemas)
        document["components"] = components
        let output = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: output ?? Data(), as: UTF8.self)
    }()

    /// One part as a JSON object. The parts are constants of this module, parsed by every test of the document.
    private static func object(_ text: String) -> [String: Any] {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            preconditionFailure("a part of the OpenAPI document in CofferServe does not parse")
        }
        return value
    }

    /// The info, the servers and the security; the paths and components are the other parts.
    private static let head = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Coffer",
    "version": "1",
    "summary": "A Coffer store over HTTP for programs other than its owner, each reading through its grant.",
    "description": "Served by `coffer serve` (docs/serve.md). Every /v1 request carries `Authorization: Bearer TOKEN`, the token `coffer clients add NAME` printed, and reads only what its client's grant allows (`coffer clients authorize NAME`): anything outside the grant answers 404 exactly as what does not exist. Bodies are the CLI's JSON (FinanceKit's property names, keys sorted, optional keys left out when absent, amounts as exact decimal strings, enums as case names). Errors are RFC 9457 `application/problem+json`. Every route reads its query strictly: an unknown parameter, a parameter given twice, or a value that is not what the parameter takes is a 400 naming the parameter."
  },
  "security": [
    {"bearer": []}
  ],
  "tags": [
    {"name": "accounts", "description": "Accounts and their balances."},
    {"name": "transactions", "description": "Transactions, filtered, sorted and paged."},
    {"name": "history", "description": "The store's change history, by page or as Server-Sent Events."},
    {"name": "authorization", "description": "FinanceKit's authorizationStatus() and requestAuthorization()."},
    {"name": "meta", "description": "This document."},
    {"name": "orders", "description": "Wallet orders, FinanceKit's saveOrder and containsOrder."}
  ]
}
"""#
}
