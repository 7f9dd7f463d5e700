import CofferFormats
import CofferModel

/// A recognised statement format: its name, the CSV profile when it is one, and the parser to read it with.
package struct StatementFormat: Sendable {
    /// `ofx`, `camt.053.001.08`, `mt940`, `qif`, `csv`.
    package let name: String
    /// The CSV profile's id, for CSV files.
    package let profile: String?
    package let parser: any StatementParser

    /// What the format calls the institution's id of a transaction, for messages ("FITID").
    package var idName: String { name == "ofx" ? "FITID" : "id" }

    /// Whether an import parses on a thread of its own, apart from the prepare stage (`ImportPipe`): camt, whose
    /// parse alone (libxml2 and the element tree) takes longer than the writer's share of a transaction.
    package var parsesApart: Bool { name.hasPrefix("camt") }

    /// Where the institution's ids of this format live (docs/dedupe.md): `ofx`, `camt`, `mt940`, `qif`, `csv:<profile>`. Within
    /// one namespace the id decides; across namespaces an equal id means nothing and the content decides.
    package var idNamespace: String {
        if name.hasPrefix("camt") { return "camt" }
        if name == "csv" { return "csv:" + (profile ?? "") }
        return name
    }
}

/// The identify stage: sniffs a file's first bytes and picks its format.
///
/// OFX/QFX (1.x SGML or 2.x XML), ISO 20022 camt, SWIFT MT940/MT942 and QIF are recognised by their content; CSV by a profile whose
/// header names or file-name pattern match (or the profile named with `--profile`).
package struct FormatIdentifier: Sendable {
    package let profiles: CSVProfileSet

    package init(profiles: CSVProfileSet) {
        self.profiles = profiles
    }

    /// The format of `input`, or a `CofferError(.unknownFormat)` that says what was looked for.
    /// `dateOrder` is for QIF files whose dates read both ways (`01/02/2026`): `--date-order`. `textEncoding` is
    /// for MT940 and QIF text that is not UTF-8, which those formats cannot declare: `--encoding`.
    package func identify(_ input: StatementInput, profileID: String? = nil, skipBadRows: Bool = false,
                          dateOrder: QIFDateOrder? = nil, textEncoding: SingleByteTable? = nil) throws -> StatementFormat {
        func csv(_ profile: CSVProfile) throws -> StatementFormat {
            var profile = profile
            if skipBadRows { profile.skipBadRows = true }
            return StatementFormat(name: "csv", profile: profile.id, parser: try CSVStatementParser(profile: profile))
        }
        let prefix = try input.prefix(64 * 1024)
        if prefix.isEmpty {
            throw CofferError(.badInput, "the file is empty", location: SourceLocation(file: input.name))
        }
        if let format = Self.byContent(prefix, dateOrder: dateOrder, textEncoding: textEncoding) {
            return format
        }
        // The same statements saved as UTF-16 text ("Unicode" on Windows): read through a conversion to UTF-8.
        if let form = UTF16Text.form(of: prefix),
           let format = Self.byContent(UTF16Text.utf8Prefix(of: prefix, form), dateOrder: dateOrder, textEncoding: textEncoding) {
            return StatementFormat(name: format.name, profile: nil, parser: UTF16StatementParser(form: form, inner: format.parser))
        }
        // Not statements, though saved under a statement's name: say what they are.
        if let document = Self.notAStatement(prefix) {
            throw CofferError(.unknownFormat, document, location: SourceLocation(file: input.name))
        }
        // `--profile` is for CSV files: OFX and camt files beside them (a folder) are read as what they are.
        if let profileID {
            if let profile = profiles.profile(id: profileID) { return try csv(profile) }
            // A profile file not (yet) in the configuration: `coffer parse --profile draft.yaml export.csv`.
            if profileID.hasSuffix(".yaml") || profileID.hasSuffix(".yml") || profileID.contains("/") {
                guard let text = try? String(contentsOfFile: profileID, encoding: .utf8) else {
                    throw CofferError(.usage, "cannot read the profile file \(profileID)")
                }
                return try csv(try CSVProfileSet.decode(yaml: text, file: profileID))
            }
            let known = profiles.profiles.map(\.id).sorted().joined(separator: ", ")
            throw CofferError(.usage, "no CSV profile '\(profileID)' (known: \(known); or give a profile file's path)")
        }
        if let profile = try profiles.identify(input) {
            return try csv(profile)
        }
        if let label = UTF16Text.utf32Label(of: prefix) {
            throw CofferError(.unknownFormat, "\(label) text, which Coffer does not read: convert it to UTF-8 first "
                              + "(iconv -f \(label) -t UTF-8 '\(input.fileName)' > converted)",
                              location: SourceLocation(file: input.name, line: 1))
        }
        if let form = UTF16Text.form(of: prefix) {
            throw CofferError(.unknownFormat, "\(form.label) text (an Excel 'Unicode text' export?) whose header no CSV profile "
                              + "matches; name a profile with --profile, or save it as UTF-8 CSV and import that",
                              location: SourceLocation(file: input.name, line: 1))
        }
        if prefix.prefix(512).contains(0) {
            throw CofferError(.unknownFormat, "binary data, not a statement (OFX/QFX, camt XML, MT940, QIF or CSV)",
                              location: SourceLocation(file: input.name))
        }
        let firstLine = String(decoding: prefix.prefix(while: { $0 != 10 && $0 != 13 }).prefix(120), as: UTF8.self)
        throw CofferError(.unknownFormat, """
            not a recognised statement: not OFX/QFX, not ISO 20022 camt, not MT940/MT942 or QIF, and no CSV profile's header matches \
            (first line: '\(firstLine)'); name a profile with --profile or add one under config/profiles
            """, location: SourceLocation(file: input.name, line: 1))
    }

    /// The statement format the bytes' content names (OFX, camt, MT940, QIF), or nil; CSV needs its profiles.
    package static func byContent(_ prefix: [UInt8], dateOrder: QIFDateOrder? = nil,
                                  textEncoding: SingleByteTable? = nil) -> StatementFormat? {
        if OFXParser.sniff(prefix) {
            return StatementFormat(name: "ofx", profile: nil, parser: OFXParser())
        }
        if CamtParser.sniff(prefix) {
            return StatementFormat(name: CamtParser.version(prefix) ?? "camt", profile: nil, parser: CamtParser())
        }
        if MT940Parser.sniff(prefix) {
            return StatementFormat(name: "mt940", profile: nil, parser: MT940Parser(textEncoding: textEncoding))
        }
        if QIFParser.sniff(prefix) {
            return StatementFormat(name: "qif", profile: nil, parser: QIFParser(dateOrder: dateOrder, textEncoding: textEncoding))
        }
        return nil
    }

    /// What a file that is not a statement is, when it can tell: a PDF statement, or a web page the bank's site
    /// sent instead of the download (a login or "session expired" page saved as `.ofx`). Nil for anything else.
    static func notAStatement(_ prefix: [UInt8]) -> String? {
        var start = prefix.startIndex
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < prefix.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[start]) { start += 1 }
        let head = prefix[start...]
        if head.starts(with: Array("%PDF-".utf8)) {
            return "a PDF document, not a statement file: Coffer reads OFX/QFX, camt XML and CSV; download the "
                + "statement in one of those formats (often called Quicken, Money, OFX, CSV or Excel export)"
        }
        let text = String(decoding: head.prefix(16 * 1024), as: UTF8.self)
        let lower = text.lowercased()
        guard lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html")
                || (lower.hasPrefix("<?xml") && lower.contains("<html")) else { return nil }
        var title = ""
        if let open = lower.range(of: "<title"), let close = lower.range(of: ">", range: open.upperBound..<lower.endIndex),
           let end = lower.range(of: "</title>", range: close.upperBound..<lower.endIndex) {
            let offset = { (index: String.Index) in lower.distance(from: lower.startIndex, to: index) }
            let from = text.index(text.startIndex, offsetBy: offset(close.upperBound))
            let to = text.index(text.startIndex, offsetBy: offset(end.lowerBound))
            title = text[from..<to].split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        return "an HTML web page\(title.isEmpty ? "" : " (\"\(title.prefix(80))\")"), not a statement file: the bank's "
            + "site sent a page (a login or expired session?) instead of the download; sign in again and download "
            + "the statement anew"
    }
}
