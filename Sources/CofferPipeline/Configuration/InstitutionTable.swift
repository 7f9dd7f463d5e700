import Foundation

/// One institution under the names its sources give it: display names (OFX `ORG`, a CSV profile's
/// `institution`), OFX `ORG`/`FID` pairs, bank ids (US routing numbers, OFX `BANKID`s, a profile's
/// `institution_id`) and BICs (a camt servicer).
package struct Institution: Sendable, Hashable {
    /// A short stable name (`amex`): what equivalence compares.
    package var id: String
    package var names: [String] = []
    package var ofx: [OFXName] = []
    package var bankIDs: [String] = []
    package var bics: [String] = []

    /// An OFX `<FI>`: the `ORG` and `FID` the institution's OFX server sends.
    package struct OFXName: Sendable, Hashable {
        package var org: String
        package var fid: String
        package init(org: String, fid: String) {
            self.org = org
            self.fid = fid
        }
    }

    package init(id: String, names: [String] = [], ofx: [OFXName] = [], bankIDs: [String] = [], bics: [String] = []) {
        self.id = id
        self.names = names
        self.ofx = ofx
        self.bankIDs = bankIDs
        self.bics = bics
    }
}

/// What a source says about an account's institution: a name and the ids it gives (OFX `FID` and `BANKID`, a
/// BIC, a profile's `institution_id`). Nil name when the source names none.
package struct InstitutionSignature: Sendable, Hashable {
    package var name: String?
    package var ids: [String]

    package init(name: String?, ids: [String]) {
        self.name = name
        self.ids = ids
    }
}

/// The known equivalences between institutions' names (`config/institutions.yaml`, extended by the user's
/// `institutions.local.yaml`): which sources name the same institution.
///
/// For example:
/// ```swift
/// let table = InstitutionTable([Institution(id: "amex", names: ["American Express"],
///                                           ofx: [.init(org: "AMEX", fid: "3101")])])
/// table.equivalent(InstitutionSignature(name: "AMEX", ids: ["3101"]),
///                  InstitutionSignature(name: "American Express", ids: []))   // true
/// ```
/// Two signatures name the same institution when both are found in the table as the same entry, or, when at most
/// one is found there, when their names are the same once case, spaces and punctuation are ignored, or they share
/// a BIC or a bank id (six characters or more). Two different entries never do.
package struct InstitutionTable: Sendable {
    package private(set) var institutions: [Institution] = []
    private var byName: [String: Int] = [:]
    private var byOFX: [String: Int] = [:]
    private var byBankID: [String: Int] = [:]
    private var byBIC: [String: Int] = [:]

    package static let empty = InstitutionTable()

    package init() {}

    /// The table of these institutions; an entry whose id is already there extends it (more names, ids).
    package init(_ institutions: [Institution]) throws {
        for institution in institutions { try add(institution) }
    }

    /// Adds an institution, or extends the entry of the same id. Throws when a name or id of it already belongs to
    /// another entry (the table would then say two institutions are one).
    package mutating func add(_ institution: Institution) throws {
        let index: Int
        if let existing = institutions.firstIndex(where: { $0.id == institution.id }) {
            index = existing
            institutions[index].names += institution.names
            institutions[index].ofx += institution.ofx
            institutions[index].bankIDs += institution.bankIDs
            institutions[index].bics += institution.bics
        } else {
            index = institutions.count
            institutions.append(institution)
        }
        func claim(_ map: inout [String: Int], _ key: String, _ what: String) throws {
            guard !key.isEmpty else { return }
            if let other = map[key], other != index {
                throw InstitutionTableConflict(message: "\(what) belongs to both '\(institutions[other].id)' and '\(institution.id)'")
            }
            map[key] = index
        }
        for name in institution.names { try claim(&byName, Self.name(name), "the name '\(name)'") }
        for pair in institution.ofx { try claim(&byOFX, Self.ofxKey(org: pair.org, fid: pair.fid), "the OFX ORG \(pair.org) / FID \(pair.fid)") }
        for id in institution.bankIDs { try claim(&byBankID, Self.id(id), "the bank id \(id)") }
        for bic in institution.bics { try claim(&byBIC, Self.bic(bic) ?? "", "the BIC \(bic)") }
    }

    /// The table entry a source's signature names: its OFX ORG/FID pair first, then a BIC, then a bank id, then its
    /// name.
    package func institution(_ signature: InstitutionSignature) -> Institution? {
        let name = signature.name.map(Self.name) ?? ""
        let ids = signature.ids.map(Self.id).filter { !$0.isEmpty }
        if !name.isEmpty {
            for id in ids { if let hit = byOFX[name + "|" + id] { return institutions[hit] } }
        }
        for id in ids { if let bic = Self.bic(id), let hit = byBIC[bic] { return institutions[hit] } }
        for id in ids { if let hit = byBankID[id] { return institutions[hit] } }
        return byName[name].map { institutions[$0] }
    }

    /// Whether two signatures name the same institution (see the type's summary).
    package func equivalent(_ a: InstitutionSignature, _ b: InstitutionSignature) -> Bool {
        let first = institution(a), second = institution(b)
        if let first, let second { return first.id == second.id }
        let name = a.name.map(Self.name) ?? ""
        if !name.isEmpty && name == b.name.map(Self.name) { return true }
        // Neither side in the table under one entry: the same BIC, or the same bank id of six or more characters (a
        // routing number, a German BLZ, a UK sort code), names one institution whatever the names say.
        let strong = { (ids: [String]) in Set(ids.compactMap { id -> String? in
            if let bic = Self.bic(id) { return bic }
            let id = Self.id(id)
            return id.count >= 6 ? id : nil
        }) }
        return !strong(a.ids).isDisjoint(with: strong(b.ids))
    }

    /// A name as compared: lower-case letters and digits only (`JPMorgan Chase Bank, N.A.` → `jpmorganchasebankna`).
    package static func name(_ text: String) -> String {
        text.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    /// An id as compared: upper-case ASCII letters and digits.
    static func id(_ text: String) -> String {
        String(text.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    /// A BIC's first eight characters (bank, country, location: the branch code does not change the bank), when the
    /// id is shaped as a BIC: 8 or 11 characters, the first six letters.
    static func bic(_ text: String) -> String? {
        let id = id(text)
        guard id.count == 8 || id.count == 11, id.prefix(6).allSatisfy(\.isLetter) else { return nil }
        return String(id.prefix(8))
    }

    static func ofxKey(org: String, fid: String) -> String { name(org) + "|" + id(fid) }
}

/// A name or id claimed by two institutions of the table.
struct InstitutionTableConflict: Error {
    var message: String
}
