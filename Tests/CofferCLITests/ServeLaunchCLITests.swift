import Foundation
import Testing

/// `coffer serve` is the coffer-serve binary (only it links the HTTP server): `coffer` checks the arguments, then
/// replaces itself with coffer-serve from beside it (symbolic links resolved) or from PATH. Real binaries copied
/// into temporary folders, as an install lays them out.
@Suite struct ServeLaunchCLITests {
    let serverBinary = URL(fileURLWithPath: cofferBinary).resolvingSymlinksInPath().deletingLastPathComponent().path + "/coffer-serve"

    /// Copies `coffer` (and coffer-serve when asked) into `folder`.
    func lay(_ folder: String, server: Bool) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: cofferBinary, toPath: folder + "/coffer")
        if server { try FileManager.default.copyItem(atPath: serverBinary, toPath: folder + "/coffer-serve") }
    }

    /// Starts `binary serve` on a free port and waits for its `listening on` line; then checks which program the
    /// process runs, stops it with SIGTERM and returns (that program, the exit status).
    func serve(_ binary: String, store: String, path: String) throws -> (program: String, status: Int32, listening: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--store", store, "--listen", "127.0.0.1:0"]
        process.environment = ["HOME": NSTemporaryDirectory(), "PATH": path, "XDG_CONFIG_HOME": emptyConfigHome]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while !text.contains("\n"), process.isRunning, Date() < deadline {
            text += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        // The same process id, now running coffer-serve: `coffer` exec'd it instead of starting a child.
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/exe")) ?? ""
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return (program, process.terminationStatus, text)
    }

    @Test func serveRunsTheServerBesideCofferThroughASymbolicLink() throws {
        let folder = try temporaryFolder()
        try lay(folder + "/bin", server: true)
        try FileManager.default.createDirectory(atPath: folder + "/links", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/links/coffer", withDestinationPath: folder + "/bin/coffer")
        let run = try serve(folder + "/links/coffer", store: folder + "/store.sqlite", path: "/usr/bin:/bin")
        #expect(run.listening.hasPrefix("listening on http://127.0.0.1:"), "\(run.listening)")
        #expect(run.program == folder + "/bin/coffer-serve")
        #expect(run.status == 0)
    }

    @Test func serveFindsTheServerOnPathWhenItIsNotBesideCoffer() throws {
        let folder = try temporaryFolder()
        try lay(folder + "/alone", server: false)
        try lay(folder + "/server", server: true)
        let run = try serve(folder + "/alone/coffer", store: folder + "/store.sqlite", path: folder + "/server:/usr/bin:/bin")
        #expect(run.listening.hasPrefix("listening on http://127.0.0.1:"), "\(run.listening)")
        #expect(run.program == folder + "/server/coffer-serve")
        #expect(run.status == 0)
    }

    @Test func withoutTheServerServeSaysWhatIsMissingAndTouchesNothing() throws {
        let folder = try temporaryFolder()
        try lay(folder + "/alone", server: false)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: folder + "/alone/coffer")
        process.arguments = ["serve", "--store", folder + "/store.sqlite"]
        process.environment = ["HOME": folder, "PATH": "/usr/bin:/bin"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("coffer-serve binary, which is neither beside \(folder)/alone/coffer nor on PATH"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/store.sqlite"))

        // A usage error is still `coffer serve`'s own, with or without the server.
        let usage = Process()
        usage.executableURL = process.executableURL
        usage.arguments = ["serve", "--listen", "nowhere"]
        usage.environment = process.environment
        let usageErr = Pipe()
        usage.standardError = usageErr
        try usage.run()
        let usageText = String(decoding: usageErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        usage.waitUntilExit()
        #expect(usage.terminationStatus == 64)
        #expect(usageText.contains("--listen expects HOST:PORT"), "\(usageText)")
    }

    @Test func cofferServeRunByHandTakesServesArguments() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: serverBinary)
        process.arguments = ["--listen", "nowhere"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(stderr.contains("Usage: coffer serve"), "\(stderr)")
    }

    /// Runs `binary` with `arguments` and `environment`; returns the exit status and stderr.
    func run(_ binary: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, stderr: String, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        let err = Pipe(), out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr, stdout)
    }

    @Test func aServerFromAnotherVersionIsRefusedBeforeItOpensTheStore() throws {
        let folder = try temporaryFolder()
        // As an exec from a coffer of another version leaves the environment.
        let refused = try run(serverBinary, ["serve", "--store", folder + "/store.sqlite", "--listen", "127.0.0.1:0"],
                              environment: ["HOME": folder, "PATH": "/usr/bin:/bin", "COFFER_SERVE_FOR_VERSION": "0.0.0-other"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("coffer serve (coffer 0.0.0-other) found"), "\(refused.stderr)")
        #expect(refused.stderr.contains("install both binaries of one version together"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/store.sqlite"))
        // Both binaries say the same version.
        let server = try run(serverBinary, ["--version"], environment: ["HOME": folder])
        let coffer = try run(cofferBinary, ["--version"], environment: ["HOME": folder])
        #expect(server.status == 0 && coffer.status == 0)
        #expect(server.stdout == coffer.stdout && !coffer.stdout.isEmpty)
    }

    @Test func aServerThatCannotBeRunIsNamed() throws {
        let folder = try temporaryFolder()
        try lay(folder + "/bin", server: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/bin/coffer-serve")
        let result = try run(folder + "/bin/coffer", ["serve", "--store", folder + "/store.sqlite"],
                             environment: ["HOME": folder, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("coffer serve runs \(folder)/bin/coffer-serve, which is not an executable file"), "\(result.stderr)")
        // A folder of that name on PATH is passed over, as a shell passes it over.
        try FileManager.default.createDirectory(atPath: folder + "/odd/coffer-serve", withIntermediateDirectories: true)
        try lay(folder + "/alone", server: false)
        try lay(folder + "/server", server: true)
        let served = try serve(folder + "/alone/coffer", store: folder + "/store.sqlite", path: folder + "/odd:" + folder + "/server:/usr/bin:/bin")
        #expect(served.program == folder + "/server/coffer-serve")
        #expect(served.status == 0)
    }
}
