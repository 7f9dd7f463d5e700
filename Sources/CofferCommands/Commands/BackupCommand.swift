import ArgumentParser
import Coffer
import Foundation

/// `coffer backup DEST`: a consistent single-file copy of the store, with its own token epoch.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Copy the store into one file, consistently, while imports and monitors run.",
        discussion: """
            SQLite's online backup reads one snapshot of the store: the copy holds the store as it was before or \
            after an import running meanwhile, never part of one. The copy is a single file, mode 0600, checked \
            with SQLite's quick_check, and appears whole or not at all. DEST must not exist unless --force.
            The copy gets a new store id: history tokens of the original are refused by it (historyTokenInvalid), so \
            a client of a restored backup starts again from the current state and misses nothing. To restore, copy \
            the backup back the same way: coffer backup --store BACKUP.sqlite --force ~/.local/share/coffer/coffer.sqlite \
            (with no other coffer running).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The file to write.") var destination: String
    @Flag(help: "Replace DEST when it exists.") var force = false
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        try await guarded {
            let store = try storeOptions.open(.readOnly)
            let result = try store.backup(to: destination, replacing: force)
            if json {
                printLine(try JSON.document(result))
            } else if isTerminal {
                printLine("\(result.path): \(result.accounts) account(s), \(result.balances) balance(s), "
                          + "\(result.transactions) transaction(s), up to change \(result.lastSequence); new store id \(result.storeID.uuidString)")
            }
        }
    }
}
