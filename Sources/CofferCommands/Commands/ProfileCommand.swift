import ArgumentParser
import Coffer
import Foundation

/// `coffer profile …`: CSV profiles.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Work with CSV profiles (config/profiles/*.yaml).",
        subcommands: [ProfileDraftCommand.self])
}

/// `coffer profile draft FILE [-o OUT]`: a starting profile for an export no profile reads.
struct ProfileDraftCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draft", abstract: "Draft a CSV profile from a bank's export that no profile reads yet.",
        discussion: """
            Reads the whole file and decides its encoding, delimiter, preamble, header (or none), footer, date \
            pattern, decimal mark, amount columns and sign, and the description, merchant, status, id, balance and \
            currency columns. Prints the profile as YAML with a comment beside each decision (guesses say GUESS), \
            and on stderr what to check. The draft is read back against the file before it is printed.
            Examples:
              coffer profile draft ~/Downloads/export.csv -o draft.yaml
              coffer parse --profile draft.yaml ~/Downloads/export.csv
              coffer profile draft ~/Downloads/export.csv -o ~/.config/coffer/profiles/mybank.yaml
              coffer import ~/Downloads/export.csv        # found by its header; the id is the output file's name
            Exit codes: 0 drafted (notes on stderr); 1 the file cannot be drafted from (the message says what is \
            missing, e.g. no column holds a date in every data row); 64 usage error.
            """)

    @Argument(help: "The CSV export to draft from.") var file: String
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the profile here instead of stdout.", valueName: "out"))
    var output: String?
    @Option(help: ArgumentHelp("The profile's id (for --profile); else the output file's name, else the export's.", valueName: "id"))
    var id: String?
    @Flag(help: "Overwrite the output file when it exists.") var force = false

    /// `--id`, else the output file's name when it makes an id (`config/profiles/mybank.yaml` → `mybank`).
    var profileID: String? {
        if let id { return id }
        guard let output else { return nil }
        let stem = ((output as NSString).lastPathComponent as NSString).deletingPathExtension
        return CSVProfileDrafter.isValidID(stem) ? stem : nil
    }

    func run() async throws {
        try await guarded {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
                throw CofferError(.usage, "\(file): no such file")
            }
            guard !isFolder.boolValue else { throw CofferError(.usage, "\(file) is a folder; name one CSV file") }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CofferError(.io, "cannot read the file", location: SourceLocation(file: file))
            }
            let draft = try CSVProfileDrafter.draft(bytes: [UInt8](data), fileName: file, id: profileID)
            if let output {
                if FileManager.default.fileExists(atPath: output), !force {
                    throw CofferError(.usage, "\(output) exists; use --force to overwrite it")
                }
                do { try Data(draft.yaml.utf8).write(to: URL(fileURLWithPath: output)) } catch {
                    throw CofferError(.io, "cannot write the profile: \(error.localizedDescription)", location: SourceLocation(file: output))
                }
            } else {
                FileHandle.standardOutput.write(Data(draft.yaml.utf8))
            }
            var messages = draft.notes.map { "coffer: note: " + $0 }
            let readBack = draft.verified ? "read back: every data row as drafted" : "read back: see the notes"
            messages.append("coffer: drafted profile '\(draft.id)' from \(draft.dataRows) data rows (\(readBack))"
                            + (output.map { "; wrote \($0)" } ?? ""))
            FileHandle.standardError.write(Data((messages.joined(separator: "\n") + "\n").utf8))
        }
    }
}
