import Yams

/// How Coffer reads every YAML text it is given (configuration files, CSV profiles, `export.yaml`), so each reader
/// composes the same way.
package enum CofferYAML {
    /// The document's root node, nil for an empty document; Yams' errors as they are.
    /// - The basic resolver leaves every scalar a string (Coffer reads them as text): the default one runs seven
    ///   regular expressions per scalar, which was most of the time a `coffer` command took to start.
    /// - UTF-8 given: Yams' default encoding reads the whole process environment at each call (0.3 M instructions)
    ///   to look for an override, and prints to standard output when it finds one.
    package static func compose(_ text: String) throws -> Node? {
        try Yams.compose(yaml: text, .basic, .default, .utf8)
    }
}
