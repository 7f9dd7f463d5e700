import CofferModel
import Foundation
import Yams

extension InstitutionTable {
    /// Loads the shipped table and, when given, the user's own file, whose entries add institutions or extend the
    /// shipped entry of the same id.
    ///
    /// For example, `try InstitutionTable.load(defaults: "config/institutions.yaml", user: nil)`.
    /// Throws `CofferError(.badConfiguration)` naming the file, the line and the entry for a mistake in either.
    package static func load(defaults: String?, user: String?) throws -> InstitutionTable {
        var table = InstitutionTable()
        for file in [defaults, user].compactMap({ $0 }) {
            for (institution, node) in try parse(yaml: ConfigYAML.read(file), file: file) {
                do {
                    try table.add(institution)
                } catch let conflict as InstitutionTableConflict {
                    throw ConfigYAML.error("institution '\(institution.id)': \(conflict.message); an institution's names "
                                           + "and ids must name only it", at: node, file: file)
                }
            }
        }
        return table
    }

    /// The entries of one `institutions.yaml` text (see the comment at the top of `config/institutions.yaml`),
    /// each with its node for messages.
    static func parse(yaml text: String, file: String) throws -> [(Institution, Node)] {
        let root = try ConfigYAML.root(of: text, file: file)
        guard case .mapping(let top) = root else {
            throw ConfigYAML.error("expected a mapping with an 'institutions' list at the top", at: root, file: file)
        }
        var list: Node?
        for (key, value) in top {
            switch ConfigYAML.text(key) {
            case "institutions": list = value
            case "version": continue
            default:
                throw ConfigYAML.error("unknown key '\(ConfigYAML.text(key) ?? "?")' at the top; expected 'institutions'",
                                       at: key, file: file)
            }
        }
        guard let list else { throw ConfigYAML.error("missing the 'institutions' list", at: root, file: file) }
        if case .scalar(let scalar) = list, scalar.string.isEmpty || scalar.string == "[]" { return [] }
        guard case .sequence(let items) = list else {
            throw ConfigYAML.error("'institutions' must be a list (each entry starting with '- id:')", at: list, file: file)
        }
        return try items.enumerated().map { offset, item in (try institution(item, number: offset + 1, file: file), item) }
    }

    private static let keys = ["id", "names", "ofx", "bank_ids", "bic"]

    private static func institution(_ node: Node, number: Int, file: String) throws -> Institution {
        guard case .mapping(let mapping) = node else {
            throw ConfigYAML.error("institution \(number): expected a mapping with 'id' and 'names', 'ofx', 'bank_ids' or 'bic'",
                                   at: node, file: file)
        }
        let id = mapping["id"].flatMap(ConfigYAML.text)?.trimmingWhitespace ?? ""
        let what = id.isEmpty ? "institution \(number)" : "institution \(number) (\(id))"
        guard !id.isEmpty else { throw ConfigYAML.error("\(what): missing 'id'", at: node, file: file) }
        var institution = Institution(id: id)
        for (keyNode, value) in mapping {
            let key = ConfigYAML.text(keyNode) ?? "?"
            switch key {
            case "id":
                continue
            case "names":
                institution.names = try nonEmpty(ConfigYAML.strings(value, what: "\(what): 'names'", file: file), what, key, value, file)
            case "bank_ids":
                institution.bankIDs = try nonEmpty(ConfigYAML.strings(value, what: "\(what): 'bank_ids'", file: file), what, key, value, file)
            case "bic":
                let bics = try nonEmpty(ConfigYAML.strings(value, what: "\(what): 'bic'", file: file), what, key, value, file)
                for bic in bics where InstitutionTable.bic(bic) == nil {
                    throw ConfigYAML.error("\(what): '\(bic)' is not a BIC (8 or 11 letters and digits, the first six letters)",
                                           at: value, file: file)
                }
                institution.bics = bics
            case "ofx":
                institution.ofx = try ofx(value, what: what, file: file)
            default:
                throw ConfigYAML.error("\(what): unknown key '\(key)'; expected one of \(keys.joined(separator: ", "))",
                                       at: keyNode, file: file)
            }
        }
        guard !institution.names.isEmpty || !institution.ofx.isEmpty || !institution.bankIDs.isEmpty || !institution.bics.isEmpty else {
            throw ConfigYAML.error("\(what): needs at least one of 'names', 'ofx', 'bank_ids', 'bic'", at: node, file: file)
        }
        return institution
    }

    private static func nonEmpty(_ values: [String], _ what: String, _ key: String, _ node: Node, _ file: String) throws -> [String] {
        let values = values.map { $0.trimmingWhitespace }
        for value in values where InstitutionTable.name(value).isEmpty {
            throw ConfigYAML.error("\(what): '\(key)' has an entry without letters or digits", at: node, file: file)
        }
        return values
    }

    /// `ofx: [{org: AMEX, fid: 3101}]`: a list of ORG/FID pairs.
    private static func ofx(_ node: Node, what: String, file: String) throws -> [Institution.OFXName] {
        let items: [Node]
        switch node {
        case .sequence(let sequence): items = Array(sequence)
        case .mapping: items = [node]
        default: throw ConfigYAML.error("\(what): 'ofx' must be a list of {org: ..., fid: ...}", at: node, file: file)
        }
        return try items.map { item in
            guard case .mapping(let pair) = item,
                  let org = pair["org"].flatMap(ConfigYAML.text), let fid = pair["fid"].flatMap(ConfigYAML.text),
                  !InstitutionTable.name(org).isEmpty, !InstitutionTable.id(fid).isEmpty, pair.count == 2 else {
                throw ConfigYAML.error("\(what): each 'ofx' entry is {org: ORG, fid: FID}, as the OFX file's <FI> says",
                                       at: item, file: file)
            }
            return Institution.OFXName(org: org, fid: fid)
        }
    }
}
