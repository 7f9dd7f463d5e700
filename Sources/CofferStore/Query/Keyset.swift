import CofferModel
import Foundation
import GRDB

/// One key of an order as SQLite runs it: the column, its direction, and how a model value becomes the stored one.
struct OrderColumn {
    let sql: String
    let path: AnyKeyPath
    let kind: ColumnInfo.Kind
    let descending: Bool
    let nullable: Bool
}

/// Where a keyset page starts: after these stored values of the order's columns (the id last), or, for an
/// order that runs in Swift, after this row.
enum KeysetPosition<Model: Sendable>: Sendable {
    case keys([DatabaseValue])
    case row(Model)
}

/// Keyset pagination (`TransactionQuery.Cursor`): the cursor's wire form, the SQL condition "after this row",
/// and its Swift twin for orders SQLite cannot run.
///
/// A cursor is `base64url(version · signature of the sort descriptors · body)`. The body is either the stored
/// values of the order's columns and the id (`[count][per value: 0 = NULL | 1 + 8 bytes big-endian][16-byte id]`)
/// or, when the order runs in Swift, the row as JSON.
enum Keyset {
    private static let version: UInt8 = 1
    private static let keysBody: UInt8 = 0
    private static let rowBody: UInt8 = 1

    // MARK: Order

    /// The columns of a model's order as SQLite runs it (the sort descriptors, then the plan's default order),
    /// each once, ending with the id; nil when some sort descriptor runs in Swift.
    static func orderColumns<Model: SQLMapped>(_ plan: QueryPlan<Model>, _ sort: [SortDescriptor<Model>]) -> [OrderColumn]? {
        var out: [OrderColumn] = []
        func add(_ path: AnyKeyPath, _ info: ColumnInfo, descending: Bool) {
            if out.contains(where: { $0.sql == info.sql }) { return }  // Equal on it already: a later key adds nothing.
            out.append(OrderColumn(sql: info.sql, path: path, kind: info.kind, descending: descending, nullable: info.nullable))
        }
        for descriptor in sort {
            guard let path = descriptor.keyPath, plan.sortColumns[path] != nil, let info = Model.columns[path] else { return nil }
            add(path, info, descending: descriptor.order == .reverse)
        }
        for name in plan.defaultOrder.split(separator: ",") {
            let name = name.trimmingCharacters(in: .whitespaces)
            guard let (path, info) = Model.columns.first(where: { $0.value.sql == name }) else { return nil }
            add(path, info, descending: false)
        }
        return out.last?.sql == "id" ? out : nil
    }

    /// The rows after `values` (one per column, the id last) in the order of `columns`.
    ///
    /// With one direction and no nullable key, a row value, `(a, b, id) > (?, ?, ?)`; otherwise the same test
    /// spelled out key by key, with NULL first as SQLite sorts it ascending (last descending). The first key's
    /// bound is repeated alone (`a >= ?`) so that SQLite seeks an index on it instead of scanning.
    static func condition(_ columns: [OrderColumn], _ values: [DatabaseValue]) -> SQLPart {
        precondition(columns.count == values.count && !columns.isEmpty)
        var parts: [String] = []
        var arguments: [DatabaseValue] = []
        let first = columns[0]
        if columns.count > 1, !first.nullable, !values[0].isNull {
            parts.append("\(first.sql) \(first.descending ? "<=" : ">=") ?")
            arguments.append(values[0])
        }
        let descending = first.descending
        if columns.allSatisfy({ $0.descending == descending && !$0.nullable }) {
            let names = columns.map(\.sql).joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            parts.append(columns.count == 1 ? "\(names) \(descending ? "<" : ">") ?"
                                            : "(\(names)) \(descending ? "<" : ">") (\(marks))")
            arguments += values
        } else {
            let (sql, args) = spelledOut(columns[...], values[...])
            parts.append(sql)
            arguments += args
        }
        return SQLPart(sql: parts.joined(separator: " AND "), arguments: arguments, exact: true)
    }

    private static func spelledOut(_ columns: ArraySlice<OrderColumn>, _ values: ArraySlice<DatabaseValue>)
        -> (String, [DatabaseValue]) {
        let column = columns.first!, value = values.first!
        let c = column.sql
        if columns.count == 1 { return ("\(c) \(column.descending ? "<" : ">") ?", [value]) }
        let (rest, restArguments) = spelledOut(columns.dropFirst(), values.dropFirst())
        switch (value.isNull, column.descending) {
        case (true, false): return ("(\(c) IS NOT NULL OR (\(c) IS NULL AND \(rest)))", restArguments)
        case (true, true): return ("(\(c) IS NULL AND \(rest))", restArguments)
        case (false, false): return ("(\(c) > ? OR (\(c) = ? AND \(rest)))", [value, value] + restArguments)
        case (false, true):
            let nulls = column.nullable ? " OR \(c) IS NULL" : ""
            return ("(\(c) < ?\(nulls) OR (\(c) = ? AND \(rest)))", [value, value] + restArguments)
        }
    }

    /// The value a column stores for a model's property, exactly as the writer derives it (`Rows`).
    static func stored(_ value: Any, kind: ColumnInfo.Kind) -> DatabaseValue {
        if isNil(value) { return .null }
        switch kind {
        case .uuid: return (value as? UUID)?.databaseValue ?? .null
        case .date: return ((value as? Date).map(Rows.millis))?.databaseValue ?? .null
        case .decimal: return ((value as? Decimal).map(Rows.scaled))?.databaseValue ?? .null
        case .localDay: return (value as? Int)?.databaseValue ?? .null
        case .int16:
            if let r = value as? any RawRepresentable, let raw = r.rawValue as? Int16 { return Int64(raw).databaseValue }
            return (value as? Int16).map { Int64($0) }?.databaseValue ?? .null
        default: return ColumnInfo(sql: "", kind: kind, nullable: true).databaseValue(value) ?? .null
        }
    }

    // MARK: Swift order

    /// Transactions' full order in Swift: the sort descriptors, then the default order (transaction date, then
    /// id as SQLite compares the blobs), so that every order ends with the id whether or not SQLite runs it.
    static func compare(_ a: Transaction, _ b: Transaction, _ sort: [SortDescriptor<Transaction>]) -> ComparisonResult {
        for descriptor in sort {
            let result = descriptor.compare(a, b)
            if result != .orderedSame { return result }
        }
        if a.transactionDate != b.transactionDate { return a.transactionDate < b.transactionDate ? .orderedAscending : .orderedDescending }
        return compareIDs(a.id, b.id)
    }

    /// Bytewise, as SQLite orders the id blobs.
    static func compareIDs(_ a: UUID, _ b: UUID) -> ComparisonResult {
        let x = halves(a), y = halves(b)
        if x == y { return .orderedSame }
        return (x.0, x.1) < (y.0, y.1) ? .orderedAscending : .orderedDescending
    }

    private static func halves(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    // MARK: Cursor

    /// What the cursor is bound to: the sort descriptors (column or key path, comparator, direction), hashed
    /// with FNV-1a.
    static func signature(_ sort: [SortDescriptor<Transaction>]) -> UInt64 {
        var text = ""
        for descriptor in sort {
            if let path = descriptor.keyPath, let column = FinanceStore.transactionPlan.sortColumns[path] {
                text += column
            } else if let path = descriptor.keyPath {
                // A computed property's key path prints an address: left out, so that the text is the same in every process.
                let name = "\(path)".replacingOccurrences(of: "0x[0-9a-fA-F]+", with: "", options: .regularExpression)
                text += name + (descriptor.stringComparator.map { "/\($0)" } ?? "")
            } else {
                text += "comparator"
            }
            text += descriptor.order == .forward ? "+;" : "-;"
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    static func cursor(after transaction: Transaction, sort: [SortDescriptor<Transaction>]) -> TransactionQuery.Cursor {
        var bytes: [UInt8] = [version]
        withUnsafeBytes(of: signature(sort).bigEndian) { bytes.append(contentsOf: $0) }
        if let columns = orderColumns(FinanceStore.transactionPlan, sort) {
            bytes.append(keysBody)
            bytes.append(UInt8(columns.count - 1))
            for column in columns.dropLast() {
                let value = stored(transaction[keyPath: column.path] as Any, kind: column.kind)
                if case .int64(let number) = value.storage {
                    bytes.append(1)
                    withUnsafeBytes(of: number.bigEndian) { bytes.append(contentsOf: $0) }
                } else {
                    bytes.append(0)
                }
            }
            withUnsafeBytes(of: transaction.id.uuid) { bytes.append(contentsOf: $0) }
        } else {
            bytes.append(rowBody)
            // A Transaction always encodes (plain values); an empty body would be refused when used.
            bytes += (try? JSONEncoder().encode(transaction)).map(Array.init) ?? []
        }
        return TransactionQuery.Cursor(encoded: Base64URL.encode(bytes))
    }

    /// The position a cursor names for a query with these sort descriptors, or a usage error that says why not.
    static func position(of cursor: TransactionQuery.Cursor, sort: [SortDescriptor<Transaction>]) throws -> KeysetPosition<Transaction> {
        let text = cursor.encoded
        let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
        let garbled = CofferError(.usage, "'\(shown)' is not a cursor Coffer made: pass a page's nextCursor as it was "
                                  + "given (coffer transactions prints it after --limit), or start without one")
        guard text.utf8.count < 16_384, let bytes = Base64URL.decode(text), bytes.count >= 10, bytes[0] == version else {
            throw garbled
        }
        var stamp: UInt64 = 0
        for byte in bytes[1..<9] { stamp = stamp << 8 | UInt64(byte) }
        guard stamp == signature(sort) else {
            throw CofferError(.usage, "the cursor continues a query in another order: a cursor only continues the sort "
                              + "it came from; use the same sort descriptors (coffer transactions: the same --sort), or "
                              + "start without a cursor")
        }
        let columns = orderColumns(FinanceStore.transactionPlan, sort)
        switch (bytes[9], columns) {
        case (keysBody, let columns?):
            var index = 10
            guard index < bytes.count, Int(bytes[index]) == columns.count - 1 else { throw garbled }
            index += 1
            var values: [DatabaseValue] = []
            for _ in 0..<(columns.count - 1) {
                guard index < bytes.count else { throw garbled }
                if bytes[index] == 0 {
                    guard columns[values.count].nullable else { throw garbled }
                    values.append(.null)
                    index += 1
                } else {
                    guard bytes[index] == 1, index + 9 <= bytes.count else { throw garbled }
                    var number: UInt64 = 0
                    for byte in bytes[(index + 1)..<(index + 9)] { number = number << 8 | UInt64(byte) }
                    values.append(Int64(bitPattern: number).databaseValue)
                    index += 9
                }
            }
            guard bytes.count == index + 16 else { throw garbled }
            values.append(Data(bytes[index...]).databaseValue)
            return .keys(values)
        case (rowBody, nil):
            guard let row = try? JSONDecoder().decode(Transaction.self, from: Data(bytes[10...])) else { throw garbled }
            return .row(row)
        default:
            throw garbled
        }
    }
}
