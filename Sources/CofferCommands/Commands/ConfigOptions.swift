import ArgumentParser
import Coffer
import Foundation

/// `--config DIR`, repeatable, for every command that reads the configuration.
package struct ConfigOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "A configuration folder layered over the built-in defaults and ~/.config/coffer (repeatable: later ones win; "
        + "$COFFER_CONFIG comes last).", valueName: "DIR"))
    var directories: [String] = []

    /// The layered configuration; its warnings (a `disable` entry naming nothing) go to stderr.
    package func load(printWarnings: Bool = true) throws -> CofferConfiguration {
        let configuration = try CofferConfiguration.standard(directories: directories)
        if printWarnings {
            for warning in configuration.report.warnings {
                FileHandle.standardError.write(Data("coffer: warning: \(warning)\n".utf8))
            }
        }
        return configuration
    }
}
