import CofferFormats
import CofferModel
import Foundation
import Yams

/// Reading Coffer's YAML configuration files with errors that name the file, the line and the entry.
///
/// For example, `try ConfigYAML.root(of: text, file: "merchants.yaml")` gives the top node, and
/// `ConfigYAML.error("rule 3 (Starbucks): ...", at: node, file:)` a `CofferError(.badConfiguration)` placed at
/// that node's line and column.
enum ConfigYAML {
    /// The document's root node; a syntax error or an empty file is a configuration error.
    static func root(of text: String, file: String) throws -> Node {
        let node: Node?
        do {
            node = try CofferYAML.compose(text)
        } catch let error as YamlError {
            throw syntaxError(error, file: file)
        } catch {
            throw CofferError(.badConfiguration, "not valid YAML: \(error)", location: SourceLocation(file: file))
        }
        guard let node else {
            throw CofferError(.badConfiguration, "the file is empty; expected a YAML mapping",
                              location: SourceLocation(file: file, line: 1, column: 1))
        }
        return node
    }

    /// Reads a configuration file as UTF-8 text.
    static func read(_ path: String) throws -> String {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: data, encoding: .utf8) else {
                throw CofferError(.badConfiguration, "the file is not UTF-8 text", location: SourceLocation(file: path))
            }
            return text
        } catch let error as CofferError {
            throw error
        } catch {
            throw CofferError(.io, "cannot read the configuration file: \(error.localizedDescription)",
                              location: SourceLocation(file: path), underlying: error)
        }
    }

    /// A configuration error placed at `node`.
    static func error(_ message: String, at node: Node?, file: String) -> CofferError {
        CofferError(.badConfiguration, message,
                    location: SourceLocation(file: file, line: node?.mark?.line, column: node?.mark?.column))
    }

    /// The scalar text of a node, or nil for a mapping or a sequence.
    static func text(_ node: Node) -> String? {
        if case .scalar(let scalar) = node { return scalar.string }
        return nil
    }

    /// A list of strings: one scalar or a sequence of scalars.
    static func strings(_ node: Node, what: String, file: String) throws -> [String] {
        switch node {
        case .scalar(let scalar):
            return [scalar.string]
        case .sequence(let sequence):
            return try sequence.map { item in
                guard let text = text(item) else { throw error("\(what): expected text, found a nested list or mapping", at: item, file: file) }
                return text
            }
        default:
            throw error("\(what): expected text or a list of texts", at: node, file: file)
        }
    }

    /// A merchant category code: one to four digits, or null.
    static func merchantCategoryCode(_ node: Node, what: String, file: String) throws -> MerchantCategoryCode? {
        guard let text = text(node) else { throw error("\(what): expected a four-digit merchant category code", at: node, file: file) }
        if case .scalar(let scalar) = node, scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(text) {
            return nil
        }
        guard !text.isEmpty, text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int16(text) else {
            throw error("\(what): expected a four-digit merchant category code (ISO 18245), found '\(text)'", at: node, file: file)
        }
        return MerchantCategoryCode(rawValue: value)
    }

    private static func syntaxError(_ error: YamlError, file: String) -> CofferError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return CofferError(.badConfiguration, "not valid YAML: \(problem)",
                               location: SourceLocation(file: file, line: mark.line, column: mark.column))
        default:
            return CofferError(.badConfiguration, "not valid YAML: \(error)", location: SourceLocation(file: file))
        }
    }
}

/// `trimmingCharacters(in: .whitespaces)`, without Foundation when both ends are ASCII other than a space or a tab
/// (the only ASCII characters in that set; the others are Unicode's space separators and, in Foundation's set,
/// U+200B). Foundation's trim cost about 22,000 instructions a call, several hundred calls each time the
/// configuration is loaded.
extension String {
    var trimmingWhitespace: String {
        func keepsASCII(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && byte != 0x09 }
        guard let first = utf8.first, let last = utf8.last else { return "" }
        return keepsASCII(first) && keepsASCII(last) ? self : trimmingCharacters(in: .whitespaces)
    }
}

extension Substring {
    /// The same as String's (the substring is copied either way).
    var trimmingWhitespace: String { String(self).trimmingWhitespace }
}
