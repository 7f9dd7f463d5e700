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
            deleted and found unchanged, how many warnings it gave (--format json lists the first 20), and whether it was \
            undone or can be. A file skipped as already imported \
            adds no entry; --force adds one. An undo adds an entry of kind undo.
              coffer imports [--limit N] [--format table|json|ndjson|csv]
              coffer imports undo ID [--dry-run] [--cascade]
            """,
        subcommands: [List.self, Undo.self],
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
                    // An undo entry names the import it reverted.
                    var reverted: [Int64: Int64] = [:]
                    for record in imports { if let by = record.undoneBy { reverted[by] = record.id } }
                    return Table(headers: ["ID", "IMPORTED", "KIND", "FORMAT", "NEW", "UPDATED", "DELETED", "UNCHANGED", "WARNINGS", "STATUS", "FILE"],
                                 rows: imports.map { record in
                                     [String(record.id), Text.date(record.importedAt), record.kind.rawValue,
                                      record.format + (record.profile.map { "/" + $0 } ?? ""),
                                      String(record.inserted), String(record.updated), String(record.deleted), String(record.unchanged),
                                      String(record.warningCount),
                                      record.kind == .undo ? reverted[record.id].map { "reverts \($0)" } ?? "" : record.status ?? "undoable",
                                      record.path]
                                 }, rightAligned: [4, 5, 6, 7, 8])
                }
            }
        }
    }

    struct Undo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo", abstract: "Revert one import (or account link) exactly, in one transaction.",
            discussion: """
                What the import inserted is deleted (without tombstones: the file can be imported again), what it \
                changed gets back the values it had before, and what it deleted (pending rows it retired) comes back \
                with its old id. A monitor sees exactly these changes. The entry is marked undone, so the file is no \
                longer skipped as already imported. A transaction the import inserted that a later import lists too \
                stays, as the later statement says it exists.
                When later imports changed rows this one wrote, the undo is refused naming them; --cascade undoes \
                those too, newest first. Imports made before this version of Coffer, or whose changes are older than \
                the compaction horizon (coffer compact), cannot be undone (coffer imports says which).
                """)

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The ledger id of the import (coffer imports lists them).") var id: Int64
        @Flag(help: "Show what would be reverted without changing the store.") var dryRun = false
        @Flag(help: "Also undo the later imports that changed the same rows.") var cascade = false
        @Flag(help: "Print the result as JSON.") var json = false

        func run() async throws {
            try await guarded {
                let store = try storeOptions.open(.readWrite)
                let report = try store.undoImport(id, cascade: cascade, dryRun: dryRun)
                if json {
                    printLine(try JSON.document(report))
                    return
                }
                for r in report.reverted {
                    var parts = ["\(r.removed) transaction(s) removed", "\(r.restored) restored", "\(r.reinserted) brought back"]
                    if r.kept > 0 { parts.append("\(r.kept) kept (a later import lists them)") }
                    if r.balancesRemoved > 0 { parts.append("\(r.balancesRemoved) balance(s) removed") }
                    if r.accountsRemoved > 0 { parts.append("\(r.accountsRemoved) account(s) removed") }
                    printLine((dryRun ? "would undo " : "undid ") + "import \(r.importID) (\(r.path)): " + parts.joined(separator: ", "))
                }
            }
        }
    }
}
