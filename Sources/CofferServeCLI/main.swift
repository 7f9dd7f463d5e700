import ArgumentParser
import CofferCommands
import Foundation

// coffer-serve: `coffer serve` in a binary of its own, the only one that links the HTTP server (Hummingbird and
// SwiftNIO). `coffer serve ARGS` replaces itself with `coffer-serve serve ARGS` (ServeLauncher); run by hand,
// `coffer-serve ARGS` works too. The root is named `coffer`, so help and usage errors read `coffer serve` as they
// do from `coffer`.
struct ServeRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coffer", abstract: "The HTTP server coffer serve runs: coffer-serve ARGS is coffer serve ARGS (coffer serve --help).",
        version: CofferCommand.configuration.version, subcommands: [ServeCommand.self], defaultSubcommand: ServeCommand.self)
}

if let mismatch = ServeLauncher.checkCallerVersion() {
    FileHandle.standardError.write(Data("coffer: \(mismatch)\n".utf8))
    exit(1)
}
ServeCommand.server = ServeRunner.serve
await CofferCommand.runMain { try ServeRoot.parseAsRoot() }
