import CofferModel
import Foundation

/// One layer of configuration: the defaults built into Coffer, or a folder (`~/.config/coffer`, a `--config DIR`,
/// `$COFFER_CONFIG`), as the files it holds.
///
/// For example:
/// ```swift
/// let layers = [ConfigurationLayer.builtIn, try ConfigurationLayer.folder("/home/me/.config/coffer")]
/// let configuration = try CofferConfiguration.load(layers: layers)
/// ```
/// A folder's files are the shipped folder's: `profiles/*.yaml`, `merchants.yaml`, `categories.yaml`,
/// `institutions.yaml`, `accounts.yaml`, `mcc-categories.yaml`, `transfers.yaml`, `export.yaml` (journal account
/// names, read by `coffer export`), plus `disable.yaml`; a `*.local.yaml` beside one of them is read after it
/// (a layer inside the folder).
public struct ConfigurationLayer: Sendable {
    /// One file of the layer.
    public struct File: Sendable {
        /// Its name inside the layer (`merchants.yaml`, `profiles/amex.yaml`).
        public var name: String
        /// Where it came from, as messages and `coffer config show` name it: a path, or `built-in:merchants.yaml`.
        public var source: String
        /// The file's contents.
        public var text: String
    }

    /// `built-in`, or the folder's path.
    public var name: String
    /// The layer's configuration files, in the order they are read.
    public var files: [File]

    /// The configuration shipped with Coffer (the repository's `config/` folder), compiled into the binary.
    public static let builtIn = ConfigurationLayer(
        name: "built-in",
        files: ShippedDefaults.files.map { File(name: $0.path, source: "built-in:" + $0.path, text: $0.text) })

    /// The files Coffer reads in a layer, in the order it reads them (a `.local` file after the one it extends).
    static let fileNames = ["merchants.yaml", "merchants.local.yaml", "categories.yaml", "categories.local.yaml",
                            "institutions.yaml", "institutions.local.yaml", "accounts.yaml", "accounts.local.yaml",
                            "mcc-categories.yaml", "mcc-categories.local.yaml", "transfers.yaml", "transfers.local.yaml",
                            "disable.yaml", "export.yaml", "export.local.yaml"]

    /// The layer a folder holds; throws when the folder does not exist or a file cannot be read.
    public static func folder(_ directory: String) throws -> ConfigurationLayer {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CofferError(.badConfiguration, "the configuration folder \(directory) does not exist")
        }
        var files: [File] = []
        let profiles = directory + "/profiles"
        if fm.fileExists(atPath: profiles) {
            let names: [String]
            do { names = try fm.contentsOfDirectory(atPath: profiles) } catch {
                throw CofferError(.badConfiguration, "cannot list the profiles folder: \(error.localizedDescription)",
                                  location: SourceLocation(file: profiles))
            }
            for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                let path = profiles + "/" + name
                files.append(File(name: "profiles/" + name, source: path, text: try ConfigYAML.read(path)))
            }
        }
        for name in fileNames {
            let path = directory + "/" + name
            if fm.fileExists(atPath: path) { files.append(File(name: name, source: path, text: try ConfigYAML.read(path))) }
        }
        return ConfigurationLayer(name: directory, files: files)
    }

    /// The layers Coffer reads, lowest first: the built-in defaults, then `$XDG_CONFIG_HOME/coffer`
    /// (`~/.config/coffer`) when it exists, then each of `directories` in order (`--config DIR`, repeatable), then
    /// `$COFFER_CONFIG`. A named folder that does not exist is an error; the user folder is optional; a folder named
    /// twice is read once, at its first place.
    public static func standard(directories: [String] = [],
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [ConfigurationLayer] {
        var layers = [builtIn]
        // A folder named twice (the systemd unit's `--config ~/.config/coffer`, which is also the user folder) is
        // read once, at its first place.
        var seen = Set<String>()
        func add(_ directory: String) throws {
            let key = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
            guard seen.insert(key).inserted else { return }
            layers.append(try folder(directory))
        }
        let user = userDirectory(environment: environment)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: user, isDirectory: &isDirectory), isDirectory.boolValue { try add(user) }
        for directory in directories { try add(directory) }
        if let explicit = environment["COFFER_CONFIG"], !explicit.isEmpty { try add(explicit) }
        return layers
    }

    /// `$XDG_CONFIG_HOME/coffer`, else `~/.config/coffer`.
    public static func userDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        return base + "/coffer"
    }
}
