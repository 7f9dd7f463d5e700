import Foundation
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The built `coffer` binary (`swift test` builds it with the tests): the one beside this test bundle, whatever the
/// scratch path (`--scratch-path`), else the usual one.
let cofferBinary: String = {
    let here = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
    for folder in [here, here.deletingLastPathComponent()] {
        let path = folder.appendingPathComponent("coffer").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    for configuration in ["debug", "release"] {
        let path = packageRoot + "/.build/\(configuration)/coffer"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return packageRoot + "/.build/debug/coffer"
}()

struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `coffer` with `arguments`, stdout and stderr captured (so not a terminal, as under cron).
@discardableResult
func coffer(_ arguments: [String], environment: [String: String] = [:], currentDirectory: String = packageRoot) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: cofferBinary)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
    var env = ProcessInfo.processInfo.environment
    env["COFFER_STORE"] = nil
    // The configuration is the built-in defaults and what a test gives: not the machine's ~/.config/coffer.
    env["COFFER_CONFIG"] = nil
    env["XDG_CONFIG_HOME"] = emptyConfigHome
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read before waiting so a large output cannot fill the pipe and block the child.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
               stderr: String(decoding: stderr, as: UTF8.self))
}

/// An empty folder standing for `$XDG_CONFIG_HOME` in tests.
let emptyConfigHome: String = {
    let path = NSTemporaryDirectory() + "coffer-cli-tests/empty-config-home-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "coffer-cli-tests/" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

func jsonArray(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
}
