import CofferModel
import Foundation
import Synchronization
import Yams

/// The institution profiles Coffer knows, and how a CSV file is matched to one.
///
/// For example:
/// ```swift
/// let profiles = try CSVProfileSet.load(directory: "config/profiles")
/// if let profile = try profiles.identify(.file("Apple Card Transactions.csv")) {
///     try CSVStatementParser(profile: profile).parse(input) { event in … }
/// }
/// let forced = profiles.profile(id: "chase-checking")     // for --profile
/// ```
/// A profile matches when a row within the file's first 50 lines holds every name of its header signature (and,
/// for a profile with only a `file_name` pattern, when the name matches too). The most specific match wins:
/// more signature names first, then a matching file name, then the profile id.
package struct CSVProfileSet: Sendable {
    /// A profile given as its YAML, decoded the first time the set's profiles are read.
    package struct Deferred: Sendable {
        package var yaml: String
        /// Where it came from, as messages name it (`built-in:profiles/amex.yaml`).
        package var file: String

        package init(yaml: String, file: String) {
            self.yaml = yaml
            self.file = file
        }
    }

    private let box: Box

    /// The profiles, ordered by id; the deferred ones are decoded by the first read.
    package var profiles: [CSVProfile] { box.profiles }

    package init(profiles: [CSVProfile]) {
        box = Box(profiles: profiles, deferred: [])
    }

    /// A set of `profiles` and of `deferred` ones, decoded when the profiles are first read: the shipped profiles.
    /// Decoding them cost about 7 ms of every import command, a CSV among its files or not (OFX, camt, MT940 and
    /// QIF files are told by their bytes and never read a profile). A deferred profile must decode: the shipped
    /// ones are compiled into the binary and decoded by the tests (`ConfigurationLayerTests`), so a failure is a
    /// defect of the build, and it stops the program naming the file. Profiles of the person's own folders are
    /// decoded at once, so that their mistakes are reported when the configuration is loaded.
    package init(profiles: [CSVProfile], deferred: [Deferred]) {
        box = Box(profiles: profiles, deferred: deferred)
    }

    private final class Box: Sendable {
        /// The profiles given decoded, while deferred ones wait.
        private let eager: [CSVProfile]
        private let deferred: [Deferred]
        /// All of them, ordered, once decoded.
        private let cache: Mutex<[CSVProfile]?>

        init(profiles: [CSVProfile], deferred: [Deferred]) {
            eager = profiles
            self.deferred = deferred
            cache = Mutex(deferred.isEmpty ? Box.ordered(profiles) : nil)
        }

        static func ordered(_ profiles: [CSVProfile]) -> [CSVProfile] { profiles.sorted { $0.id < $1.id } }

        var profiles: [CSVProfile] {
            cache.withLock { cache in
                if let cache { return cache }
                // One decoder for all (making one reads the process environment), and no unknown-key check: the
                // shipped profiles are checked, keys included, by `ConfigurationLayerTests`, and listing a mapping's
                // keys costs Yams 40 k instructions a key (the check cost 20 M for the eight; without it their
                // decoding takes about 10 M less, as their dictionaries still list keys).
                let decoder = YAMLDecoder()
                let all = Box.ordered(eager + deferred.map { profile in
                    do {
                        return try CSVProfileSet.decode(yaml: profile.yaml, file: profile.file, checkingKeys: false,
                                                        using: decoder)
                    } catch {
                        preconditionFailure("the built-in CSV profile \(profile.file) does not decode: \(error)")
                    }
                })
                cache = all
                return all
            }
        }
    }

    /// Reads every `*.yaml` / `*.yml` file of `directory`; throws `.badConfiguration` naming the file and key of
    /// the first mistake, or a duplicate id.
    package static func load(directory: String) throws -> CSVProfileSet {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw CofferError(.badConfiguration, "cannot list the profiles folder: \(error.localizedDescription)",
                              location: SourceLocation(file: directory))
        }
        var profiles: [CSVProfile] = []
        var fileByID: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            let path = (directory as NSString).appendingPathComponent(name)
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw CofferError(.badConfiguration, "cannot read the profile as UTF-8 text",
                                  location: SourceLocation(file: path))
            }
            let profile = try decode(yaml: text, file: path)
            if let other = fileByID[profile.id] {
                throw CofferError(.badConfiguration, "key 'id': '\(profile.id)' is already the id of \(other)",
                                  location: SourceLocation(file: path))
            }
            fileByID[profile.id] = path
            profiles.append(profile)
        }
        return CSVProfileSet(profiles: profiles)
    }

    /// One profile from YAML text; `file` names it in errors. `checkingKeys: false` accepts keys the profile does
    /// not know (for the shipped profiles only, which the tests decode with the check).
    package static func decode(yaml: String, file: String, checkingKeys: Bool = true,
                               using decoder: YAMLDecoder = YAMLDecoder()) throws -> CSVProfile {
        do {
            // Every scalar composed as text (`CofferYAML`); the decoder reads numbers and flags from the text.
            guard let node = try CofferYAML.compose(yaml) else {
                throw CofferError(.badConfiguration, "the profile is empty; expected a YAML mapping", location: SourceLocation(file: file))
            }
            return try decoder.decode(CSVProfile.self, from: node,
                                      userInfo: checkingKeys ? [:] : [.acceptsUnknownKeys: true])
        } catch let error as CofferError {
            throw error
        } catch let error as DecodingError {
            throw CofferError(.badConfiguration, describe(error), location: SourceLocation(file: file))
        } catch {
            throw CofferError(.badConfiguration, "not valid YAML: \(error)", location: SourceLocation(file: file))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let full = path(context.codingPath + [key])
            return "key '\(full)' is missing"
        case .typeMismatch(let type, let context):
            return "key '\(path(context.codingPath))': expected \(type == String.self ? "text" : "\(type)"), \(context.debugDescription)"
        case .valueNotFound(_, let context):
            return "key '\(path(context.codingPath))' has no value"
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError {
                return "not valid YAML: \(underlying)"
            }
            return "key '\(path(context.codingPath))': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// The profile with this id (for `--profile ID`).
    package func profile(id: String) -> CSVProfile? {
        profiles.first { $0.id == id }
    }

    /// The best profile for a file with this name whose first rows (cells as text) are `rows`.
    package func match(fileName: String, rows: [[String]]) -> CSVProfile? {
        let normalized = rows.map { $0.map(CSVProfile.normalizedName) }
        return best(fileName: fileName) { profile in
            normalized.contains { CSVHeaderLocator.matches($0, signature: profile.headerSignature) }
        }
    }

    /// The profile for a CSV statement, reading at most its first 64 KiB; nil when none matches.
    package func identify(_ input: StatementInput) throws -> CSVProfile? {
        var prefix = try input.prefix(CSVHeaderLocator.prefixSize)
        // UTF-16, with a byte order mark or without, is read as the UTF-8 it converts to.
        if let converted = CSVInputDecoding.utf8Prefix(prefix) { prefix = converted }
        prefix = CSVHeaderLocator.withoutPadding(prefix)
        if prefix.isEmpty || prefix.contains(0) { return nil }
        var rowsByDelimiter: [UInt8: [[String]]] = [:]
        return best(fileName: input.fileName) { profile in
            let signature = profile.headerSignature
            // A profile in another encoding iconv knows (cp1250, …) compares its names with the file converted.
            let own = profile.iconvEncoding.flatMap { CSVInputDecoding.utf8Prefix(prefix, label: $0) }
            for delimiter in profile.delimiter.byte.map({ [$0] }) ?? CSVHeaderLocator.candidateDelimiters {
                if let own {
                    let rows = CSVHeaderLocator.candidateRows(prefix: own, delimiter: delimiter, encoding: .utf8)
                    if rows.contains(where: { CSVHeaderLocator.matches($0.cells, signature: signature) }) { return true }
                    continue
                }
                let rows = rowsByDelimiter[delimiter] ?? CSVHeaderLocator
                    .candidateRows(prefix: prefix, delimiter: delimiter, encoding: .windows1252).map(\.cells)
                rowsByDelimiter[delimiter] = rows
                if rows.contains(where: { CSVHeaderLocator.matches($0, signature: signature) }) { return true }
            }
            return false
        }
    }

    private func best(fileName: String, headerFound: (CSVProfile) -> Bool) -> CSVProfile? {
        var winner: (profile: CSVProfile, score: Int)?
        for profile in profiles {
            let nameMatches = profile.match.fileName.map { FileNameGlob($0).matches(fileName) }
            if profile.match.header == nil, nameMatches != true { continue }
            guard headerFound(profile) else { continue }
            let score = profile.headerSignature.count * 2 + (nameMatches == true ? 1 : 0)
            if score > (winner?.score ?? -1) { winner = (profile, score) }
        }
        return winner?.profile
    }
}
