import CofferModel
import Foundation
import GRDB

/// A piece of SQL translated from a predicate. `exact` is false when it is a superset filter (part of a
/// conjunction could not be translated): the predicate then runs in Swift on what SQL returns.
struct SQLPart {
    var sql: String
    var arguments: [DatabaseValue]
    var exact: Bool

    static let alwaysTrue = SQLPart(sql: "1", arguments: [], exact: true)
    static let alwaysFalse = SQLPart(sql: "0", arguments: [], exact: true)
    var isTrue: Bool { sql == "1" && exact }
    var isFalse: Bool { sql == "0" && exact }
}

/// Translation state: the model's columns and the variables bound by `flatMap` closures.
struct SQLContext {
    let root: PredicateExpressions.VariableID
    let columns: [AnyKeyPath: ColumnInfo]
    let nested: [AnyKeyPath: (prefix: String, columns: [AnyKeyPath: ColumnInfo])]
    var bound: [PredicateExpressions.VariableID: (prefix: String, columns: [AnyKeyPath: ColumnInfo])] = [:]
    /// Some stored amount has more than six decimals: amount comparisons in SQL are then only a superset.
    var approximateDecimals = false

    func column(_ path: AnyKeyPath, of variable: PredicateExpressions.VariableID) -> ColumnInfo? {
        if variable == root {
            if let c = columns[path] { return c }
            if let n = nested[path] { return ColumnInfo(sql: n.prefix + "as_of", kind: .date, nullable: true) }
            return nil
        }
        guard let b = bound[variable], let c = b.columns[path] else { return nil }
        return ColumnInfo(sql: b.prefix + c.sql, kind: c.kind, nullable: true)
    }
}

/// Translates Foundation `Predicate`s into SQL `WHERE` clauses.
///
/// Understood: key paths (nested ones too) to mapped properties, captured values, `==` `!=` `<` `<=` `>` `>=`,
/// `&&` `||` `!`, `contains` on a captured collection (→ `IN`), `contains` and `starts(with:)` on strings,
/// `nil` checks, and `optional.flatMap { … } ?? false` over a balance side. Anything else makes its part
/// untranslated; under `&&` the rest still filters in SQL and Swift evaluates the whole predicate on the rows.
enum PredicateSQL {
    static func translate<Model: SQLMapped>(_ predicate: Predicate<Model>, approximateDecimals: Bool = false) -> SQLPart? {
        var context = SQLContext(root: predicate.variable.key, columns: Model.columns, nested: Model.nested)
        context.approximateDecimals = approximateDecimals
        guard let expression = predicate.expression as? any SQLBoolean else { return nil }
        return expression.sql(context, positive: true)
    }
}

enum SQLOperand {
    case column(ColumnInfo)
    case value(Any)
}

protocol SQLBoolean { func sql(_ context: SQLContext, positive: Bool) -> SQLPart? }
protocol SQLOperandExpression { func operand(_ context: SQLContext) -> SQLOperand? }
protocol SQLKeyPathExpression { func resolve() -> (path: AnyKeyPath, variable: PredicateExpressions.VariableID)? }
protocol SQLVariableExpression { var variableID: PredicateExpressions.VariableID { get } }

extension PredicateExpressions.Variable: SQLVariableExpression {
    var variableID: PredicateExpressions.VariableID { key }
}

extension PredicateExpressions.KeyPath: SQLKeyPathExpression, SQLOperandExpression {
    func resolve() -> (path: AnyKeyPath, variable: PredicateExpressions.VariableID)? {
        if let variable = root as? any SQLVariableExpression { return (keyPath, variable.variableID) }
        guard let inner = (root as? any SQLKeyPathExpression)?.resolve(),
              let path = inner.path.appending(path: keyPath as AnyKeyPath) else { return nil }
        return (path, inner.variable)
    }

    func operand(_ context: SQLContext) -> SQLOperand? {
        guard let (path, variable) = resolve(), let column = context.column(path, of: variable) else { return nil }
        return .column(column)
    }
}

extension PredicateExpressions.Value: SQLOperandExpression, SQLBoolean {
    func operand(_ context: SQLContext) -> SQLOperand? { .value(value) }

    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard let flag = value as? Bool else { return nil }
        return SQLPart(sql: flag ? "1" : "0", arguments: [], exact: true)
    }
}

extension PredicateExpressions.NilLiteral: SQLOperandExpression {
    func operand(_ context: SQLContext) -> SQLOperand? { .value(Optional<Int>.none as Any) }
}

private func operands(_ lhs: Any, _ rhs: Any, _ context: SQLContext) -> (SQLOperand, SQLOperand)? {
    guard let l = (lhs as? any SQLOperandExpression)?.operand(context),
          let r = (rhs as? any SQLOperandExpression)?.operand(context) else { return nil }
    return (l, r)
}

private func equality(_ lhs: Any, _ rhs: Any, _ context: SQLContext, negated: Bool, positive: Bool) -> SQLPart? {
    guard let pair = operands(lhs, rhs, context) else { return nil }
    switch pair {
    case (.column(let c), .value(let v)), (.value(let v), .column(let c)):
        guard let dv = c.databaseValue(v) else { return nil }
        if dv.isNull { return SQLPart(sql: "\(c.sql) IS \(negated ? "NOT " : "")NULL", arguments: [], exact: true) }
        if c.kind == .localDay, !negated, let day = v as? Int {
            return localDay(day, through: day, c)
        }
        if c.kind == .decimal, context.approximateDecimals {
            // Truncated amounts: equal ones stay equal (a superset); unequal ones may not, so != stays in Swift.
            guard !negated, positive else { return nil }
            return SQLPart(sql: "\(c.sql) = ?", arguments: [dv], exact: false)
        }
        let op = c.nullable ? (negated ? "IS NOT" : "IS") : (negated ? "!=" : "=")
        return SQLPart(sql: "\(c.sql) \(op) ?", arguments: [dv], exact: true)
    case (.column(let a), .column(let b)) where a.kind == b.kind:
        return SQLPart(sql: "\(a.sql) \(negated ? "IS NOT" : "IS") \(b.sql)", arguments: [], exact: true)
    default:
        return nil
    }
}

extension PredicateExpressions.Equal: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? { equality(lhs, rhs, context, negated: false, positive: positive) }
}

extension PredicateExpressions.NotEqual: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? { equality(lhs, rhs, context, negated: true, positive: positive) }
}

extension PredicateExpressions.Comparison: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard let pair = operands(lhs, rhs, context) else { return nil }
        let symbol: String
        let flipped: String
        switch op {
        case .lessThan: (symbol, flipped) = ("<", ">")
        case .lessThanOrEqual: (symbol, flipped) = ("<=", ">=")
        case .greaterThan: (symbol, flipped) = (">", "<")
        case .greaterThanOrEqual: (symbol, flipped) = (">=", "<=")
        @unknown default: return nil
        }
        // Truncated (floored) amounts keep every order but a strict "greater than" at the cut: relax it to >=
        // and let Swift decide.
        func relaxed(_ op: String, _ c: ColumnInfo) -> (String, Bool)? {
            guard c.kind == .decimal, context.approximateDecimals else { return (op, true) }
            guard positive else { return nil }
            return (op == ">" ? ">=" : op, false)
        }
        if case let (.column(c), .value(v)) = pair, c.kind == .localDay, let day = v as? Int {
            return localDayComparison(symbol, day, c)
        }
        if case let (.value(v), .column(c)) = pair, c.kind == .localDay, let day = v as? Int {
            return localDayComparison(flipped, day, c)
        }
        switch pair {
        case (.column(let c), .value(let v)):
            guard c.kind != .string, let dv = c.databaseValue(v), !dv.isNull, let (op, exact) = relaxed(symbol, c) else { return nil }
            return SQLPart(sql: "\(c.sql) \(op) ?", arguments: [dv], exact: exact)
        case (.value(let v), .column(let c)):
            guard c.kind != .string, let dv = c.databaseValue(v), !dv.isNull, let (op, exact) = relaxed(flipped, c) else { return nil }
            return SQLPart(sql: "\(c.sql) \(op) ?", arguments: [dv], exact: exact)
        default:
            return nil
        }
    }
}

/// `local_day <op> day` as SQL that the date indexes serve: a `transaction_date` range widened by the largest
/// offset (`Rows.dateRange`) and the exact test on `local_day`.
///
/// Measured (docs/benchmarks.md, "The local day: index or range"), 1M rows, 10 accounts of 100 rows a day, a
/// 2-day query of one account (200 rows): an (account_id, local_day) index answers in 0.30 ms, this range over
/// (account_id, transaction_date) plus the filter in 0.40 ms (it reads the 28 h margin too: 1.6x the rows at that
/// density, a handful in a real account's few rows a day); the index costs every insert 1.8 µs (8.8 → 10.6 µs a
/// row, +20%), and queries without an account would need a (local_day) index as well. Imports are the hot path
/// (issue 16): no new index.
private func localDayComparison(_ op: String, _ day: Int, _ c: ColumnInfo) -> SQLPart? {
    switch op {
    case ">=": return localDay(day, through: nil, c)
    case ">": return day == Int.max ? .alwaysFalse : localDay(day + 1, through: nil, c)
    case "<=": return localDay(nil, through: day, c)
    case "<": return day == Int.min ? .alwaysFalse : localDay(nil, through: day - 1, c)
    default: return nil
    }
}

private func localDay(_ from: Int?, through: Int?, _ c: ColumnInfo) -> SQLPart {
    var terms: [String] = []
    var arguments: [DatabaseValue] = []
    let range = Rows.dateRange(fromDay: from ?? 0, throughDay: through ?? 0)
    if from != nil {
        terms.append("transaction_date >= ?")
        arguments.append(range.start.databaseValue)
    }
    if through != nil {
        terms.append("transaction_date < ?")
        arguments.append(range.end.databaseValue)
    }
    if let from, let through, from == through {
        terms.append("\(c.sql) = ?")
        arguments.append(from.databaseValue)
    } else {
        if let from { terms.append("\(c.sql) >= ?"); arguments.append(from.databaseValue) }
        if let through { terms.append("\(c.sql) <= ?"); arguments.append(through.databaseValue) }
    }
    return SQLPart(sql: "(" + terms.joined(separator: " AND ") + ")", arguments: arguments, exact: true)
}

extension PredicateExpressions.Conjunction: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        let l = (lhs as? any SQLBoolean)?.sql(context, positive: positive)
        let r = (rhs as? any SQLBoolean)?.sql(context, positive: positive)
        // Constant folding: `(!hasFilter || …)` clauses of optional filters vanish instead of hiding indexes.
        if l?.isFalse == true || r?.isFalse == true { return .alwaysFalse }
        if l?.isTrue == true, let r { return r }
        if r?.isTrue == true, let l { return l }
        switch (l, r) {
        case let (l?, r?):
            return SQLPart(sql: "(\(l.sql) AND \(r.sql))", arguments: l.arguments + r.arguments, exact: l.exact && r.exact)
        case let (part?, nil), let (nil, part?):
            // Half a conjunction is a superset filter: fine on its own, wrong under a negation.
            guard positive else { return nil }
            return SQLPart(sql: part.sql, arguments: part.arguments, exact: false)
        default:
            return nil
        }
    }
}

extension PredicateExpressions.Disjunction: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard let l = (lhs as? any SQLBoolean)?.sql(context, positive: positive),
              let r = (rhs as? any SQLBoolean)?.sql(context, positive: positive) else { return nil }
        if l.isTrue || r.isTrue { return .alwaysTrue }
        if l.isFalse { return r }
        if r.isFalse { return l }
        let exact = l.exact && r.exact
        guard exact || positive else { return nil }
        return SQLPart(sql: "(\(l.sql) OR \(r.sql))", arguments: l.arguments + r.arguments, exact: exact)
    }
}

extension PredicateExpressions.Negation: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard let inner = (wrapped as? any SQLBoolean)?.sql(context, positive: !positive), inner.exact else { return nil }
        if inner.isTrue { return .alwaysFalse }
        if inner.isFalse { return .alwaysTrue }
        return SQLPart(sql: "NOT (\(inner.sql))", arguments: inner.arguments, exact: true)
    }
}

extension PredicateExpressions.SequenceContains: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard case .value(let collection)? = (sequence as? any SQLOperandExpression)?.operand(context),
              case .column(let c)? = (element as? any SQLOperandExpression)?.operand(context),
              let values = collection as? any Sequence else { return nil }
        var arguments: [DatabaseValue] = []
        var matchesNil = false
        for value in values {
            guard let dv = c.databaseValue(value) else { return nil }
            if dv.isNull { matchesNil = true } else { arguments.append(dv) }
        }
        var terms: [String] = []
        if !arguments.isEmpty { terms.append("\(c.sql) IN (\(Array(repeating: "?", count: arguments.count).joined(separator: ",")))") }
        if matchesNil { terms.append("\(c.sql) IS NULL") }
        if terms.isEmpty { return SQLPart(sql: "0", arguments: [], exact: true) }
        return SQLPart(sql: "(\(terms.joined(separator: " OR ")))", arguments: arguments, exact: true)
    }
}

extension PredicateExpressions.CollectionContainsCollection: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard let pair = operands(base, other, context) else { return nil }
        switch pair {
        case (.column(let c), .value(let v)) where c.kind == .string:
            guard let text = v as? String else { return nil }
            return SQLPart(sql: "instr(\(c.sql), ?) > 0", arguments: [text.databaseValue], exact: true)
        case (.value(let v), .column(let c)) where c.kind == .string:
            guard let text = v as? String else { return nil }
            return SQLPart(sql: "instr(?, \(c.sql)) > 0", arguments: [text.databaseValue], exact: true)
        default:
            return nil
        }
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard case .column(let c)? = (base as? any SQLOperandExpression)?.operand(context), c.kind == .string,
              case .value(let v)? = (prefix as? any SQLOperandExpression)?.operand(context), let text = v as? String
        else { return nil }
        return SQLPart(sql: "substr(\(c.sql), 1, ?) = ?", arguments: [text.count.databaseValue, text.databaseValue], exact: true)
    }
}

extension PredicateExpressions.NilCoalesce: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard let l = (lhs as? any SQLBoolean)?.sql(context, positive: positive), l.exact,
              case .value(let v)? = (rhs as? any SQLOperandExpression)?.operand(context), let fallback = v as? Bool
        else { return nil }
        return SQLPart(sql: "COALESCE(\(l.sql), \(fallback ? 1 : 0))", arguments: l.arguments, exact: true)
    }
}

extension PredicateExpressions.OptionalFlatMap: SQLBoolean {
    func sql(_ context: SQLContext, positive: Bool) -> SQLPart? {
        guard let (path, variable) = (wrapped as? any SQLKeyPathExpression)?.resolve(), variable == context.root,
              let nested = context.nested[path] else { return nil }
        var inner = context
        inner.bound[self.variable.key] = nested
        guard let body = (transform as? any SQLBoolean)?.sql(inner, positive: positive), body.exact else { return nil }
        // NULL when the optional side is absent, as Swift's flatMap gives nil.
        return SQLPart(sql: "CASE WHEN \(nested.prefix)as_of IS NULL THEN NULL ELSE (\(body.sql)) END",
                       arguments: body.arguments, exact: true)
    }
}
