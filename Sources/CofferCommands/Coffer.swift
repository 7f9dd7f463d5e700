import ArgumentParser
import Coffer
import Foundation
import CofferWatch
import Logging

package struct CofferCommand: AsyncParsableCommand {
    package init() {}

    /// The CLI prints its own messages; library logs go to stderr only at `$COFFER_LOG_LEVEL` (default: errors are
    /// already printed, so only `critical`), keeping cron mail to what matters. `coffer watch` logs at `info` in its
    /// `--log-format`. Bootstrapped once, after the arguments are parsed, with the level and format they ask for.
    static func bootstrapLogging(for command: any ParsableCommand) {
        let environment = ProcessInfo.processInfo.environment["COFFER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        let watch = command as? WatchCommand
        let level = environment ?? (watch == nil ? .critical : .info)
        let json = watch?.logFormat == .json
        LoggingSystem.bootstrap { label in
            if json {
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// The command line's command, parsed. A leaf command named first (`coffer transactions …`) is parsed on its own
    /// first: ArgumentParser's parse of the root walks every command's arguments through reflection, and in a
    /// static binary each first look-up of a type's conformance scans all 9,500 conformance records, so the root's
    /// parse was most of a one-shot query's instructions. Anything that does not parse so (help, a typo, a command
    /// with subcommands) is parsed from the root, which gives the usual messages.
    package static func parseCommandLine(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) throws -> any ParsableCommand {
        if let name = arguments.first, !name.hasPrefix("-"),
           let leaf = configuration.subcommands.first(where: {
               $0.configuration.subcommands.isEmpty && ($0.configuration.commandName ?? "") == name
           }),
           let command = try? leaf.parseAsRoot(Array(arguments.dropFirst())),
           type(of: command) == leaf {  // not the help command ArgumentParser returns for --help
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// The executables' entry (`coffer` parses `CofferCommand`, `coffer-serve` a `ServeCommand`): logging set up for
    /// the command, signals, the command run, every store it opened closed, and errors turned into exit codes.
    package static func runMain(_ parse: () throws -> any ParsableCommand) async {
        do {
            var command = try parse()
            bootstrapLogging(for: command)
            // `watch` and `serve` turn their first signal into a graceful shutdown of its own; every other command
            // checkpoints the store on a signal, then ends by it.
            if !(command is WatchCommand || command is ServeCommand) { ExitSignals.install() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Close (checkpoint) on errors too: a failed command leaves the store as one file like any other.
            OpenStores.closeAll()
            exit(withError: error)
        }
        OpenStores.closeAll()
    }

    package static let configuration = CommandConfiguration(
        commandName: "coffer",
        abstract: "A financial-data store with FinanceKit's model, fed by the statements banks hand out.",
        discussion: """
            Import OFX/QFX, ISO 20022 camt.052/053/054 and CSV statements into a SQLite store, then query accounts, \
            balances and transactions, or follow their change history.

              coffer import ~/Downloads/statements        # files or folders; quiet under cron
              coffer transactions --from 2026-03-01 --text coffee
              coffer history --since TOKEN --follow       # change batches as NDJSON

            The store: --store PATH, else $COFFER_STORE, else $XDG_DATA_HOME/coffer/coffer.sqlite \
            (~/.local/share/coffer/coffer.sqlite). Configuration (CSV profiles, merchant rules), in layers, lowest \
            first: the defaults built into coffer, ~/.config/coffer, each --config DIR, $COFFER_CONFIG \
            (coffer config show prints the result).

            Exit codes: 0 all good (including "nothing new"); 1 something failed (for import: some files failed, \
            the others were committed); 64 usage error.
            """,
        version: "0.1.0",
        subcommands: [
            ImportCommand.self, AccountsCommand.self, BalancesCommand.self, TransactionsCommand.self, PickCommand.self,
            ParseCommand.self, HistoryCommand.self, CompactCommand.self, InfoCommand.self, WatchCommand.self, DeliveryCommand.self,
            ProfileCommand.self, ImportsCommand.self, BackupCommand.self, DoctorCommand.self, ReconcileCommand.self,
            ConfigCommand.self, ClientsCommand.self, ServeCommand.self, OrdersCommand.self, ReportCommand.self, ExportCommand.self,
            InitCommand.self, InstallCommand.self,
        ])
}

/// Options every command that touches the store shares.
package struct StoreOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("The store file.", valueName: "path"))
    var store: String?

    var path: String { store ?? FinanceStore.defaultPath() }

    /// Opens the store; it is closed (its log checkpointed into the file) when the command exits. With
    /// `COFFER_CLIENT_TOKEN` set, as that client: reads go through its grant, and what is the owner's fails.
    package func open(_ access: FinanceStore.Access) throws -> FinanceStore {
        if let token = Self.clientToken {
            let store = try FinanceStore(path: path, clientToken: token)
            OpenStores.register(store)
            return store
        }
        let store = try FinanceStore(path: path, access: access)
        OpenStores.register(store)
        return store
    }

    /// Opens the store as its owner, for what only the owner does (`coffer clients`): a client cannot authorize
    /// itself, so `COFFER_CLIENT_TOKEN` set is an error here.
    func openAsOwner(_ access: FinanceStore.Access) throws -> FinanceStore {
        guard Self.clientToken == nil else {
            throw CofferError(.usage, "COFFER_CLIENT_TOKEN is set: this is the store owner's command; run it without a client token")
        }
        return try open(access)
    }

    /// `COFFER_CLIENT_TOKEN`, when set and not empty.
    static var clientToken: String? {
        ProcessInfo.processInfo.environment["COFFER_CLIENT_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Prints a one-line error and exits non-zero; every command's errors go through here. The exit status is the
/// code's (`CofferError.Code.exitCode`: 64 for usage, else 1); a FinanceKit error or anything else is 1.
func fail(_ error: any Error) -> ExitCode {
    let message: String
    var status: Int32 = 1
    switch error {
    case let error as CofferError:
        message = error.description
        status = error.code.exitCode
    case FinanceError.dataRestricted where StoreOptions.clientToken != nil:
        message = "this client may not read that: it is not authorized, or its grant lacks the data type (coffer clients show NAME; the owner decides)"
    case let error as FinanceError: message = error.errorDescription ?? "\(error)"
    default: message = "\(error)"
    }
    FileHandle.standardError.write(Data(("coffer: " + message + "\n").utf8))
    return ExitCode(status)
}

/// Runs `body`, turning Coffer's errors into a one-line message and an exit code.
func guarded(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ExitCode {
        throw error
    } catch let error as CleanExit {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        throw fail(error)
    }
}

let isTerminal = isatty(STDOUT_FILENO) == 1
let isErrorTerminal = isatty(STDERR_FILENO) == 1

package func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
