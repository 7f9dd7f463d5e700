import ArgumentParser
import Coffer
import CofferWatch
import Foundation

struct DeliveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivery", abstract: "Background delivery hooks: commands `coffer watch` runs when data changed.",
        discussion: """
            FinanceKit's background delivery for servers. A hook runs when one of its data types (accounts, \
            accountBalances, transactions) changed since its last delivery, at most once per its frequency (hourly, \
            daily, weekly). It reads on standard input {"hook": NAME, "types": [...], "token": TOKEN, "store": PATH}; \
            `coffer history --since TOKEN` yields the changes. A hook that exits non-zero or outlives \
            `coffer watch --hook-timeout` (SIGTERM, then SIGKILL) is retried at the next interval.
            """,
        subcommands: [Add.self, List.self, Remove.self, Run.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a hook, or change the one with this name.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The hook's name.") var name: String
        @Option(help: "Data types, comma-separated: accounts, accountBalances, transactions.") var types: String
        @Option(help: "hourly, daily or weekly.") var frequency: String = "daily"
        @Option(name: .customLong("exec"), help: "The command to run (through /bin/sh -c).") var command: String

        func validate() throws {
            _ = try parsedTypes()
            guard FinanceStore.UpdateFrequency(rawValue: frequency) != nil else {
                throw ValidationError("--frequency must be hourly, daily or weekly, not \(frequency)")
            }
            guard name != DeliveryHook.appHookName else { throw ValidationError("\"app\" is the embedding program's hook; choose another name") }
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--exec needs a command") }
        }

        func parsedTypes() throws -> [FinanceStore.BackgroundDataType] {
            let names = types.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let parsed = names.compactMap(FinanceStore.BackgroundDataType.init(rawValue:))
            guard !parsed.isEmpty, parsed.count == names.count else {
                throw ValidationError("--types takes accounts, accountBalances and/or transactions, comma-separated; found \(types)")
            }
            return parsed
        }

        func run() async throws {
            try await guarded {
                let store = try storeOptions.open(.readWrite)
                try store.saveDeliveryHook(DeliveryHook(name: name, types: try parsedTypes(),
                                                        frequency: FinanceStore.UpdateFrequency(rawValue: frequency) ?? .daily, command: command))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the hooks and their last run.")
        @OptionGroup var storeOptions: StoreOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            try await guarded {
                let hooks = try storeOptions.open(.readOnly).deliveryHooks()
                if json {
                    printLine(try JSON.document(hooks))
                    return
                }
                for hook in hooks {
                    let last = hook.lastRunAt.map { ISO8601DateFormatter().string(from: $0) + " " + (hook.lastStatus ?? "") } ?? "never run"
                    printLine("\(hook.name)\t\(hook.types.map(\.rawValue).joined(separator: ","))\t\(hook.frequency.rawValue)\t"
                              + "\(hook.command ?? "(in-process)")\t\(last)")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a hook.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The hook's name.") var name: String

        func run() async throws {
            try await guarded {
                guard try storeOptions.open(.readWrite).removeDeliveryHook(named: name) else {
                    throw CofferError(.usage, "no delivery hook named \(name)")
                }
            }
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run", abstract: "Run a hook now, to test it.",
            discussion: """
                Runs the hook's command at once, whatever its frequency and even when nothing changed, with what \
                coffer watch would hand it: the changes since its last delivery (all its types when none changed; \
                the token then reads nothing new). The run is recorded as any other: when it succeeds, the next \
                delivery starts after it. The hook's exit status, or its time limit, decides: exit 0 when it \
                succeeded, 1 when not.
                """)
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The hook's name.") var name: String
        @Option(help: "Seconds the hook may run before SIGTERM.") var hookTimeout: Double = 60

        func validate() throws {
            guard hookTimeout > 0, hookTimeout.isFinite else { throw ValidationError("--hook-timeout must be a positive number of seconds") }
        }

        func run() async throws {
            var succeeded = true
            try await guarded {
                let store = try storeOptions.open(.readWrite)
                guard let hook = try store.deliveryHook(named: name) else {
                    let names = try store.deliveryHooks().map(\.name)
                    throw CofferError(.usage, "no delivery hook named \(name)" + (names.isEmpty ? " (there are none: coffer delivery add)"
                                                                                   : " (hooks: \(names.joined(separator: ", ")))"))
                }
                guard hook.command != nil else {
                    throw CofferError(.usage, "\(name) is the embedding program's in-process hook; only a program running a WatchService can run it")
                }
                let scheduler = DeliveryScheduler(store: store, timeLimit: .milliseconds(Int64(hookTimeout * 1000)))
                let run = try await scheduler.runNow(hook, at: Date())
                succeeded = run.succeeded
                printLine("\(name): \(run.status) (types \(run.delivery.types.map(\.rawValue).joined(separator: ",")), token \(run.delivery.token.stringValue))")
            }
            if !succeeded { throw ExitCode(1) }
        }
    }
}
