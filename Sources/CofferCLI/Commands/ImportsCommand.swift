import ArgumentParser
import Coffer
import Foundation

/// `coffer imports`: the import ledger, one entry per committed import.
struct ImportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imports", abstract: "List the imports recorded in the store's ledger, newest first.",
        discussion: """
            Each committed import of a statement file has an entry: its id, when it ran, the file (as it was named \
            then) and its SHA-256, the format and CSV profile, and how many transactions it inserted, updated, \
            deleted and found unchanged. A file skipped as already imported adds no entry; --force adds one.
              coffer imports [--limit N] [--format table|json|ndjson|csv]
            """,
        subcommands: [List.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the imports (the default).")

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "Only the newest N imports.") var limit: Int?
        @Option(help: "table, json, ndjson or csv.") var format: OutputFormat = .table

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit cannot be negative") }
        }

        func run() async throws {
            try await guarded {
                let store = try storeOptions.open(.readOnly)
                let imports = try await store.imports(limit: limit ?? Int(Int32.max))
                try emit(imports, format: format) {
                    Table(headers: ["ID", "IMPORTED", "FORMAT", "NEW", "UPDATED", "DELETED", "UNCHANGED", "FILE"],
                          rows: imports.map { record in
                              [String(record.id), Text.date(record.importedAt),
                               record.format + (record.profile.map { "/" + $0 } ?? ""),
                               String(record.inserted), String(record.updated), String(record.deleted), String(record.unchanged),
                               record.path]
                          }, rightAligned: [3, 4, 5, 6])
                }
            }
        }
    }
}
