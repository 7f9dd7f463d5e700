import CofferModel

/// The ISO 20022 namespaces `CamtParser` reads: camt.052, camt.053 and camt.054, every version from .001.01 (the first, read like .001.02: its
/// `Bal/Tp/Cd` and `Ntry/TxDtls` without `NtryDtls` are read too).
///
/// For example:
/// ```swift
/// try CamtNamespace.version(of: "urn:iso:std:iso:20022:tech:xsd:camt.053.001.02", location: here)
/// // "camt.053.001.02"
/// ```
enum CamtNamespace {
    /// The message and version (`camt.053.001.08`) of a `Document` namespace; throws `.unknownFormat` naming the
    /// namespace when it is not a supported camt message.
    static func version(of namespace: String?, location: SourceLocation) throws -> String {
        let ns = namespace ?? ""
        let expected = "expected the namespace of camt.052, camt.053 or camt.054 version .001.01 or later "
            + "(like \(CamtProlog.namespaceStem)camt.053.001.08)"
        guard ns.hasPrefix(CamtProlog.namespaceStem) else {
            throw CofferError(.unknownFormat, "\(expected), found \(ns.isEmpty ? "no namespace" : "'\(ns)'")",
                              location: location)
        }
        let message = Array(ns.utf8.dropFirst(CamtProlog.namespaceStem.utf8.count))
        // camt.05X.001.NN
        guard message.count == 15, message.starts(with: Array("camt.05".utf8)), (0x32...0x34).contains(message[7]),
              message[8...12].elementsEqual(Array(".001.".utf8)),
              let nn = Int(String(decoding: message[13...14], as: UTF8.self)) else {
            throw CofferError(.unknownFormat, "\(expected), found '\(ns)'", location: location)
        }
        guard nn >= 1 else {
            throw CofferError(.unknownFormat, "\(expected), found version .001.\(nn < 10 ? "0" : "")\(nn) in '\(ns)'",
                              location: location)
        }
        return String(decoding: message, as: UTF8.self)
    }
}
