import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `coffer pick` driven as a person would: the real binary on a pseudo-terminal of 80×24, keys written to it, the
/// screen and the printed JSON read back.
@Suite struct PickCLITests {
    /// Ten card payments, one a day from March 1 (Payee 01) to March 10 (Payee 10): newest first in the picker.
    static func store() throws -> String {
        let folder = try temporaryFolder()
        var rows = ""
        for day in 1...10 {
            let d = String(format: "%02d", day)
            rows += "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>202603\(d)<TRNAMT>-\(day).25<FITID>P\(d)<NAME>PAYEE \(d) SHOP</STMTTRN>\n"
        }
        let ofx = """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
            <BANKACCTFROM><BANKID>1<ACCTID>555000222<ACCTTYPE>CHECKING</BANKACCTFROM>
            <BANKTRANLIST><DTSTART>20260301<DTEND>20260310
            \(rows)</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
        try ofx.write(toFile: folder + "/march.ofx", atomically: true, encoding: .utf8)
        let store = folder + "/s.sqlite"
        let run = try coffer(["import", "--store", store, folder + "/march.ofx"])
        try #require(run.status == 0, "\(run.stderr)")
        return store
    }

    /// What follows the picker's leaving the alternate screen: what it printed for the caller.
    static func printed(_ screen: String) -> String {
        guard let range = screen.range(of: "\u{1B}[?1049l", options: .backwards) else { return "" }
        return String(screen[range.upperBound...]).replacingOccurrences(of: "\r\n", with: "\n")
    }

    static func descriptions(_ json: String) throws -> [String] {
        try jsonArray(json).map { $0["transactionDescription"] as? String ?? "?" }
    }

    @Test func selectingTwoOfTenPrintsExactlyThoseTwo() throws {
        let store = try Self.store()
        let session = try PseudoTerminalSession(["pick", "--store", store])
        try session.waitFor("10/10 shown")
        // Space selects the highlighted row (Payee 10) and moves down; Down skips Payee 09; Space selects Payee 08.
        try session.send(" ")
        try session.send("\u{1B}[B")
        try session.send(" ")
        try session.waitFor("2 selected")
        try session.send("\r")
        let status = try session.finish()
        #expect(status == 0)
        let json = Self.printed(session.output)
        #expect(try Self.descriptions(json) == ["Payee 10 Shop", "Payee 08 Shop"], "\(json)")
        #expect(try jsonArray(json).map { ($0["transactionAmount"] as? [String: Any])?["amount"] as? String } == ["10.25", "8.25"])
    }

    @Test func typingFiltersAndTheSelectionSurvivesClearingIt() throws {
        let store = try Self.store()
        let session = try PseudoTerminalSession(["pick", "--store", store])
        try session.waitFor("10/10 shown")
        try session.send("PAYEX")
        try session.waitFor("0/10 shown")
        try session.send("\u{7F}\u{7F}")  // Backspace twice: 'PAY' (case and accents ignored)
        try session.waitFor("10/10 shown")
        try session.send("\u{15}")  // Ctrl-U: the filter is cleared
        try session.send("07")
        try session.waitFor("1/10 shown")
        try session.send("\t")  // Tab selects too
        try session.send("\u{15}")
        try session.waitFor("10/10 shown")
        try session.send("\u{1B}[F")  // End: the oldest, Payee 01
        try session.send(" ")
        try session.waitFor("2 selected")
        try session.send("\r")
        #expect(try session.finish() == 0)
        // In the list's order (newest first), whatever order they were chosen in.
        #expect(try Self.descriptions(Self.printed(session.output)) == ["Payee 07 Shop", "Payee 01 Shop"])
    }

    @Test func enterWithNothingSelectedTakesTheHighlightedRow() throws {
        let store = try Self.store()
        let session = try PseudoTerminalSession(["pick", "--store", store, "--sort", "amount", "--format", "ndjson"])
        try session.waitFor("10/10 shown")
        try session.send("\u{1B}[B\u{1B}[B")
        try session.send("\r")
        #expect(try session.finish() == 0)
        let lines = Self.printed(session.output).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("\"Payee 03 Shop\"") == true)
    }

    @Test func escapeCancelsPrintsNothingAndRestoresTheTerminal() throws {
        let store = try Self.store()
        let session = try PseudoTerminalSession(["pick", "--store", store])
        try session.waitFor("10/10 shown")
        try session.send(" ")
        try session.send("\u{1B}")
        #expect(try session.finish() == 130)
        #expect(!Self.printed(session.output).contains("transactionDescription"))
        #expect(session.output.contains("nothing picked"))
        #expect(session.output.hasSuffix("\u{1B}[?1049l") || session.output.contains("\u{1B}[?25h"))
        #expect(session.canonicalAtExit == true)
    }

    @Test func colourOnlyWithoutNoColor() throws {
        let store = try Self.store()
        for noColor in [false, true] {
            let session = try PseudoTerminalSession(["pick", "--store", store], environment: noColor ? ["NO_COLOR": "1"] : [:])
            try session.waitFor("10/10 shown")
            try session.send("\u{3}")  // Ctrl-C cancels like Escape
            #expect(try session.finish() == 130)
            #expect(session.output.contains("\u{1B}[7m") == !noColor, "NO_COLOR=\(noColor)")
            #expect(session.output.contains(">[ ] 2026-03-10"))
        }
    }

    @Test func refusesWithoutATerminalAndChecksFiltersFirst() throws {
        let store = try Self.store()
        let piped = try coffer(["pick", "--store", store])
        #expect(piped.status == 64)
        #expect(piped.stderr.contains("pick needs a terminal on stdin and stdout"))
        #expect(piped.stdout.isEmpty)
        let bad = try coffer(["pick", "--store", store, "--from", "March"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--from expects a day like 2026-03-14, not 'March'"))
    }

    @Test func writesTheChoiceToAFileWithOutput() throws {
        let store = try Self.store()
        let file = try temporaryFolder() + "/chosen.json"
        let session = try PseudoTerminalSession(["pick", "-o", file, "--store", store, "--text", "payee 05"])
        try session.waitFor("1/1 shown")
        try session.send("\r")
        #expect(try session.finish() == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(try Self.descriptions(text) == ["Payee 05 Shop"])
        #expect(session.output.contains("1 transaction written to \(file)"))
    }
}

/// The `coffer` binary on a pseudo-terminal (80 columns, 24 rows): stdin, stdout and stderr are the terminal.
final class PseudoTerminalSession: @unchecked Sendable {
    private let master: Int32
    private let slave: Int32
    private let process = Process()
    private let lock = NSLock()
    private var buffer = Data()
    private let reader = DispatchGroup()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        // posix_openpt and friends are not in Swift's Glibc module: the same through /dev/ptmx and Linux's ioctls
        // (TIOCSPTLCK to unlock the other side, TIOCGPTN for its number).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw CocoaError(.fileNoSuchFile)
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw CocoaError(.fileNoSuchFile) }
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: cofferBinary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["COFFER_STORE"] = nil
        env["COFFER_CONFIG"] = nil
        env["NO_COLOR"] = nil
        env["XDG_CONFIG_HOME"] = emptyConfigHome
        env["TERM"] = "xterm-256color"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        reader.enter()
        let master = master
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &chunk, chunk.count)
                if count <= 0 { break }  // EIO once the child and our side of the slave are closed
                lock.withLock { buffer.append(contentsOf: chunk[0..<count]) }
            }
            reader.leave()
        }
    }

    var output: String { lock.withLock { String(decoding: buffer, as: UTF8.self) } }

    /// Waits (up to 20 s: a loaded CI machine) until the screen has shown `text`.
    func waitFor(_ text: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !output.contains(text) {
            if Date() > deadline || !process.isRunning && !output.contains(text) {
                Issue.record("never saw '\(text)'; the screen was: \(output.suffix(800))")
                throw CancellationError()
            }
            // A poll of the reader's buffer, not a wait for time to pass: it ends as soon as the text is there.
            usleep(10_000)
        }
    }

    func send(_ keys: String) throws {
        let bytes = Array(keys.utf8)
        guard write(master, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        // Each key its own read on the other side (as typed): an Escape then '[' is not read as one sequence.
        usleep(60_000)
    }

    /// Whether the terminal was back in line mode with echo when the process ended (the picker restored it).
    private(set) var canonicalAtExit: Bool?

    /// Waits for the process to end (20 s at most) and for its output; its exit status.
    func finish() throws -> Int32 {
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                Issue.record("coffer pick did not end; the screen was: \(output.suffix(800))")
                throw CancellationError()
            }
            usleep(10_000)
        }
        let status = process.terminationStatus
        var settings = termios()
        if tcgetattr(slave, &settings) == 0 {
            canonicalAtExit = settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
        }
        _ = reader.wait(timeout: .now() + 0.5)  // what the child wrote last is already in the pty
        close(slave)
        _ = reader.wait(timeout: .now() + 5)
        close(master)
        return status
    }
}
