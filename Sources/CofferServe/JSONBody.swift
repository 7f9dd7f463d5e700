import CofferModel
import CofferStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Response bodies, built as bytes: each model exactly as the CLI's NDJSON line of it (`ModelJSON`: a transaction
/// through the fast writer, others through the shared encoder), wrapped in a small object whose keys are sorted too.
struct JSONBody {
    private(set) var bytes: [UInt8] = []
    private let encoder = ModelJSON.encoder(pretty: false)

    init() { bytes.reserveCapacity(4096) }

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ text: String) { ModelJSON.string(text, &bytes) }

    /// `"key":` after a comma unless it is the object's first key.
    mutating func key(_ name: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func model<M: Encodable>(_ model: M) throws {
        if let transaction = model as? Transaction {
            ModelJSON.append(transaction, to: &bytes)
        } else {
            bytes.append(contentsOf: try encoder.encode(model))
        }
    }

    /// A transaction with Coffer's `orderID` beside FinanceKit's properties, as `coffer transactions --format
    /// ndjson` writes a linked one.
    mutating func transaction(_ transaction: Transaction, orderID: UUID?) {
        ModelJSON.append(transaction, orderID: orderID, to: &bytes)
    }

    mutating func array<M: Encodable>(_ models: [M]) throws {
        bytes.append(UInt8(ascii: "["))
        for (index, model) in models.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try self.model(model)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// One batch of history changes: `{"deleted":[ids],["hasMore":b,]"inserted":[…],"newToken":"…","updated":[…]}`.
    static func changes<M: Encodable & Identifiable & Sendable>(_ changes: Changes<M>, hasMore: Bool?) throws -> [UInt8] where M.ID == UUID {
        var body = JSONBody()
        body.raw("{")
        body.key("deleted", first: true)
        body.raw("[" + changes.deleted.map { "\"\($0.uuidString)\"" }.joined(separator: ",") + "]")
        if let hasMore {
            body.key("hasMore")
            body.raw(hasMore ? "true" : "false")
        }
        body.key("inserted")
        try body.array(changes.inserted)
        body.key("newToken")
        body.string(changes.newToken.stringValue)
        body.key("updated")
        try body.array(changes.updated)
        body.raw("}")
        return body.bytes
    }

    func response(_ status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// A request's query parameters, read strictly: a value that is not what the parameter takes is a 400 naming the
/// parameter, what it got and what it expects.
struct Parameters {
    let request: Request
    let names: Set<String>

    init(_ request: Request, allowed names: Set<String>) throws {
        self.request = request
        self.names = names
        for (name, _) in request.uri.queryParameters where !names.contains("\(name)") {
            throw Problem.badRequest("unknown query parameter '\(name)'; this route takes " + names.sorted().joined(separator: ", "))
        }
    }

    /// The parameter's value; given twice is an error (which one was meant?).
    subscript(name: String) -> String? {
        get throws {
            let values = request.uri.queryParameters.getAll(name)
            guard values.count <= 1 else { throw Problem.badRequest("\(name) is given \(values.count) times; give it once") }
            return values.first.map { "\($0)" }
        }
    }

    func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = try self[name] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw Problem.badRequest("\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    func bool(_ name: String) throws -> Bool {
        switch try self[name] {
        case nil, "false": return false
        case "true": return true
        case let text?: throw Problem.badRequest("\(name) expects true or false, not '\(text)'")
        }
    }

    func filter<T>(_ name: String, _ parse: (String, String) throws(TransactionFilter.Invalid) -> T) throws -> T? {
        guard let text = try self[name] else { return nil }
        do { return try parse(text, name) } catch { throw Problem.badRequest(error.description) }
    }
}
