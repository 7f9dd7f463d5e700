import CofferModel
import Foundation

/// True when every one of several predicates is: `Predicate.all([…])`.
///
/// For example:
/// ```swift
/// let inMarch = #Predicate<Transaction> { $0.transactionDate >= start && $0.transactionDate < end }
/// let groceries = TransactionQuery.predicate(forMerchantCategoryCodes: [MerchantCategoryCode(rawValue: 5411)])
/// let query = TransactionQuery(predicate: allOf([inMarch, groceries]))
/// ```
/// Foundation's `#Predicate` cannot call another predicate on Linux, and one large `#Predicate` can exceed the
/// type checker's patience; this composes small ones. The store translates each part to SQL like any predicate.
package struct PredicateConjunction<Model: Sendable>: StandardPredicateExpression {
    public typealias Output = Bool
    public let variable: PredicateExpressions.Variable<Model>
    public let parts: [Predicate<Model>]

    public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        let input = try variable.evaluate(bindings)
        for part in parts where try !part.evaluate(input) { return false }
        return true
    }

    public init(variable: PredicateExpressions.Variable<Model>, parts: [Predicate<Model>]) {
        self.variable = variable
        self.parts = parts
    }

    // Predicates are not plainly Codable; a composed predicate is for running, not for archiving.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "PredicateConjunction cannot be decoded"))
    }

    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "PredicateConjunction cannot be encoded"))
    }
}

/// A predicate true when all of `parts` are (true for an empty list).
public func allOf<Model: Sendable>(_ parts: [Predicate<Model>]) -> Predicate<Model> {
    Predicate<Model>({ variable in PredicateConjunction(variable: variable, parts: parts) })
}

extension PredicateConjunction: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        var pieces: [SQLPart] = []
        var exact = true
        for part in parts {
            var inner = SQLContext(root: part.variable.key, columns: context.columns, nested: context.nested)
            inner.approximateDecimals = context.approximateDecimals
            if let piece = (part.expression as? any SQLBoolean)?.sql(inner, positive: positive) {
                if piece.isFalse { return .alwaysFalse }
                if !piece.isTrue { pieces.append(piece) }
                exact = exact && piece.exact
            } else {
                guard positive else { return nil }
                exact = false
            }
        }
        if pieces.isEmpty { return exact ? .alwaysTrue : nil }
        return SQLPart(sql: "(" + pieces.map(\.sql).joined(separator: " AND ") + ")",
                       arguments: pieces.flatMap(\.arguments), exact: exact)
    }
}
