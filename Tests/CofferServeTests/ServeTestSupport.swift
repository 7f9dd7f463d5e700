import AsyncHTTPClient
import CofferModel
import CofferPipeline
import CofferServe
import CofferStore
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Testing

/// Every suite of this target, one after another: the load test would otherwise share this process's cooperative
/// threads with the tests that time a stream's reaction (revocation within a second, shutdown), and starve them.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ServeTests {}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The built `coffer` binary beside this test bundle (whatever the scratch path), else the usual one.
let cofferBinary: String = {
    let here = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
    for folder in [here, here.deletingLastPathComponent()] {
        let path = folder.appendingPathComponent("coffer").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return packageRoot + "/.build/debug/coffer"
}()

/// One HTTP client for every test (never shut down: it lives as long as the test process), allowing many
/// connections to one host at once (open streams each hold one; the load test runs 110).
let testHTTPClient: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60),
                                                                          concurrentHTTP1ConnectionsPerHostSoftLimit: 256)
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
}()

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "coffer-serve-tests/" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// One invented transaction of a test statement.
struct Line {
    var id: String
    var day: String      // YYYYMMDD
    var amount: String   // signed: -12.50 is money out
    var name: String
}

/// An OFX 1.02 checking statement of `account` with `lines`, written for these tests.
func ofx(account: String, _ lines: [Line], org: String = "Servebank", fid: String = "4242", bankID: String = "121000358") -> String {
    let days = lines.map(\.day).sorted()
    var text = """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102
        SECURITY:NONE
        ENCODING:USASCII
        CHARSET:1252
        COMPRESSION:NONE
        OLDFILEUID:NONE
        NEWFILEUID:NONE

        <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260401<LANGUAGE>ENG
        <FI><ORG>\(org)<FID>\(fid)</FI></SONRS></SIGNONMSGSRSV1>
        <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
        <STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>\(bankID)<ACCTID>\(account)<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>\(days.first ?? "20260101")<DTEND>\(days.last ?? "20260101")

        """
    for line in lines {
        text += "<STMTTRN><TRNTYPE>\(line.amount.hasPrefix("-") ? "DEBIT" : "CREDIT")<DTPOSTED>\(line.day)<TRNAMT>\(line.amount)"
            + "<FITID>\(line.id)<NAME>\(line.name)</STMTTRN>\n"
    }
    text += "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    return text
}

/// `count` lines on consecutive days from 2026-01-01, ids prefixed with `prefix`.
func lines(_ prefix: String, count: Int, from start: Int = 0) -> [Line] {
    (start..<(start + count)).map { index in
        let date = Date(timeIntervalSince1970: 1_767_225_600 + Double(index % 300) * 86_400)   // 2026-01-01 on
        let day = CalendarDay.text(date).replacingOccurrences(of: "-", with: "")
        return Line(id: "\(prefix)-\(index)", day: day, amount: index % 3 == 0 ? "\(100 + index).25" : "-\(10 + index % 50).40",
                    name: "Shop \(index % 7)")
    }
}

/// A store on disk served in this process on a free loopback port, with the owner's store for setting it up.
final class TestServer: Sendable {
    let folder: String
    let path: String
    let owner: FinanceStore
    let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    static func start(heartbeat: Duration = .seconds(15)) async throws -> TestServer {
        let folder = try temporaryFolder()
        let path = folder + "/store.sqlite"
        let owner = try FinanceStore(path: path)
        var logger = Logger(label: "coffer.serve.test")
        logger.logLevel = .warning
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let app = CofferServer.application(owner: owner, configuration: CofferServer.Configuration(port: 0, heartbeat: heartbeat),
                                           logger: logger, onRunning: { portSink.yield($0) })
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CofferError(.internal, "the test server did not start") }
        return TestServer(folder: folder, path: path, owner: owner, port: port, group: group, running: running)
    }

    private init(folder: String, path: String, owner: FinanceStore, port: Int, group: ServiceGroup, running: Task<Void, any Error>) {
        self.folder = folder
        self.path = path
        self.owner = owner
        self.port = port
        self.group = group
        self.running = running
    }

    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
        owner.close()
    }

    /// Imports a statement (the text of a file) as the owner.
    @discardableResult
    func importStatement(_ text: String, name: String = UUID().uuidString + ".ofx") async throws -> FileReport {
        let file = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let report = try await importFile(file)
        #expect(report.status == .imported, "\(report.error?.description ?? "")")
        return report
    }

    /// Imports a statement file as the owner, with the shipped configuration.
    func importFile(_ file: String) async throws -> FileReport {
        let importer = Importer(store: owner, configuration: try CofferConfiguration.load(directory: packageRoot + "/config"))
        return try await importer.importFile(file)
    }

    /// Adds a client and decides for it; its token.
    func client(_ name: String, accounts: [FinanceStore.GrantedAccount]? = nil,
                types: [FinanceStore.ClientDataType] = FinanceStore.ClientDataType.allCases, authorize: Bool = true) async throws -> String {
        let (_, token) = try owner.addClient(named: name)
        if authorize {
            let all = try await owner.accounts(query: AccountQuery()).map { FinanceStore.GrantedAccount(accountID: $0.id) }
            _ = try owner.authorizeClient(named: name, grant: FinanceStore.Grant(accounts: accounts ?? all, dataTypes: types))
        }
        return token
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// One request; the whole body.
    func request(_ path: String, token: String?, method: HTTPMethod = .GET, headers: [(String, String)] = []) async throws -> Reply {
        var request = HTTPClientRequest(url: url(path))
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await testHTTPClient.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 256 << 20)
        return Reply(status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type") ?? "",
                     headers: response.headers, body: Data(buffer: body))
    }

    func get(_ path: String, token: String?) async throws -> Reply { try await request(path, token: token) }
}

struct Reply {
    var status: Int
    var contentType: String
    var headers: HTTPHeaders
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text)")
    }

    func list(_ key: String) throws -> [[String: Any]] {
        try #require(try object()[key] as? [[String: Any]], "no list \(key) in \(text.prefix(300))")
    }
}

/// One Server-Sent Event.
struct Event {
    var id: String?
    var name: String?
    var data: String
    var comments: [String]
}

/// Reads a `text/event-stream` response's events as they arrive.
struct EventReader {
    let response: HTTPClientResponse
    private var iterator: HTTPClientResponse.Body.AsyncIterator
    private var pending = ""

    init(_ response: HTTPClientResponse) {
        self.response = response
        iterator = response.body.makeAsyncIterator()
    }

    static func open(_ server: TestServer, _ path: String, token: String, lastEventID: String? = nil) async throws -> EventReader {
        try await open(url: server.url(path), token: token, lastEventID: lastEventID)
    }

    static func open(url: String, token: String, lastEventID: String? = nil, client: HTTPClient = testHTTPClient) async throws -> EventReader {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await client.execute(request, timeout: .seconds(600))
        return EventReader(response)
    }

    /// The next event (comment-only blocks included, as events without data), or nil at the end of the stream.
    mutating func next() async throws -> Event? {
        while true {
            if let range = pending.range(of: "\n\n") {
                let block = String(pending[..<range.lowerBound])
                pending.removeSubrange(..<range.upperBound)
                var event = Event(id: nil, name: nil, data: "", comments: [])
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { event.comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces)) }
                    else if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    else if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    else if line.hasPrefix("data: ") { event.data += String(line.dropFirst(6)) }
                }
                return event
            }
            guard let chunk = try await iterator.next() else { return nil }
            pending += String(buffer: chunk)
        }
    }

    /// The next `changes` or `error` event, skipping comments.
    mutating func nextEvent() async throws -> Event? {
        while let event = try await next() {
            if event.name != nil { return event }
        }
        return nil
    }
}

/// The ids in a changes object's three lists.
struct ChangeIDs {
    var inserted: [String] = []
    var updated: [String] = []
    var deleted: [String] = []

    init(_ object: [String: Any]) {
        inserted = (object["inserted"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        updated = (object["updated"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        deleted = object["deleted"] as? [String] ?? []
    }

    init(event: Event) throws {
        self.init(try #require(try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]))
    }
}

/// Runs `coffer` with `arguments`; stdout, stderr and the status.
@discardableResult
func coffer(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: cofferBinary)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["COFFER_STORE"] = nil
    environment["COFFER_CLIENT_TOKEN"] = nil
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

/// The real `coffer serve` in a process of its own, on a free loopback port (read from its first line).
struct ServeProcess {
    let process: Process
    let port: Int

    var base: String { "http://127.0.0.1:\(port)" }

    static func start(store: String, _ extra: [String] = []) throws -> ServeProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cofferBinary)
        process.arguments = ["serve", "--store", store, "--listen", "127.0.0.1:0"] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["COFFER_CLIENT_TOKEN"] = nil
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on http://127.0.0.1:"),
              let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":").last ?? "") else {
            process.terminate()
            throw CofferError(.internal, "coffer serve did not say where it listens: '\(text)'")
        }
        return ServeProcess(process: process, port: port)
    }

    /// SIGTERM, then the exit status once it has ended (within `limit`, else nil).
    func stop(within limit: Duration = .seconds(10)) async throws -> Int32? {
        process.terminate()
        let clock = ContinuousClock()
        let start = clock.now
        while process.isRunning, clock.now - start < limit { try await Task.sleep(for: .milliseconds(20)) }
        return process.isRunning ? nil : process.terminationStatus
    }
}

/// A store file with `lines` of one account imported by the real binary, and a client of it authorized for `types`
/// on every account; the client's token.
func storeWithClient(_ store: String, account: String, _ lines: [Line], client: String, types: String,
                     org: String = "Servebank", fid: String = "4242", bankID: String = "121000358") throws -> String {
    let statement = store + ".first.ofx"
    try Data(ofx(account: account, lines, org: org, fid: fid, bankID: bankID).utf8).write(to: URL(fileURLWithPath: statement))
    let imported = try coffer(["import", "--store", store, statement])
    guard imported.status == 0 else { throw CofferError(.internal, "import failed: \(imported.stderr)") }
    let token = try coffer(["clients", "add", "--store", store, client]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let authorized = try coffer(["clients", "authorize", "--store", store, client, "--accounts", "all", "--types", types])
    guard authorized.status == 0 else { throw CofferError(.internal, "authorize failed: \(authorized.stderr)") }
    return token
}
