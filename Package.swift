// swift-tools-version: 6.1
import PackageDescription

// Modules by role; dependencies point one way:
//   CofferModel ← CofferFormats ─┐   (CofferFormats also reads Wallet order archives: zip, manifest, signature)
//   CofferModel ← CofferStore ───┴← CofferPipeline ← Coffer (umbrella library) ← CofferCommands ← coffer (CLI)
//                                   CofferPipeline ← CofferWatch (long-running service) ← CofferCommands
//                                   CofferPipeline ← CofferExport (journals: hledger, beancount, ledger; CSV, OFX) ← Coffer
//                                   CofferPipeline ← CofferServe (HTTP: clients read through their grants) ← coffer-serve
//   CofferCommands ← coffer-serve: `coffer serve` execs it, so only the server links Hummingbird and SwiftNIO.
let package = Package(
    name: "Coffer",
    // Linux only (Debian 12 is what CI runs): the watch service uses inotify, and file locking, process spawning and
    // encoding conversion call Glibc. No Apple platform is claimed; none is built or tested (README "Platform").
    products: [
        .library(name: "Coffer", targets: ["Coffer"]),
        .library(name: "CofferWatch", targets: ["CofferWatch"]),
        .executable(name: "coffer", targets: ["CofferCLI"]),
        .executable(name: "coffer-serve", targets: ["CofferServeCLI"]),
        .executable(name: "coffer-bench", targets: ["CofferBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Wallet order archives (issue 18): the zip (ZIPFoundation, zlib through pkg-config) and the CMS signature of
        // its manifest (swift-certificates' X509, whose CMS verification is behind `@_spi(CMS)`).
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // `coffer serve` only (CofferServe; the library modules never build them): the HTTP server, bearer tokens,
        // and the channel that carries a history stream's events with backpressure.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        // Tests only: the real HTTP client the server's tests read it with (SSE included).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Documentation only (scripts/docs.sh): adds the `generate-documentation` command; nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Tests only: `TestClock` drives history monitoring's polls instead of sleeping.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        // FinanceKit's value types. No dependencies.
        .target(name: "CofferModel"),
        // libxml2's C API (the SAX2 parser camt is read with); libxml2-dev, found through pkg-config.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Process-wide SQLite settings made through sqlite3_config (variadic, so C): memory statistics off.
        .target(name: "CSQLiteTuning", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Pure parsers: bytes → raw statement records. No database, no I/O but reading.
        .target(name: "CofferFormats", dependencies: [
            "CofferModel", "CLibXML2",
            .product(name: "Yams", package: "Yams"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // SQLite through GRDB: current-state tables, change log, queries, history.
        .target(name: "CofferStore", dependencies: [
            "CofferModel", "CSQLiteTuning",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // identify → parse → normalize → match/dedupe → commit.
        .target(name: "CofferPipeline", dependencies: [
            "CofferModel", "CofferFormats", "CofferStore",
            .product(name: "Yams", package: "Yams"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Writes the store out for plain-text accounting (hledger, beancount, ledger) and as CSV or OFX.
        .target(name: "CofferExport", dependencies: [
            "CofferModel", "CofferFormats", "CofferStore", "CofferPipeline",
            .product(name: "Yams", package: "Yams"),
        ]),
        // The library other Swift packages depend on: re-exports the modules above.
        .target(name: "Coffer", dependencies: ["CofferModel", "CofferFormats", "CofferStore", "CofferPipeline", "CofferExport"]),
        // The drop-folder service and background delivery hooks, under swift-service-lifecycle.
        .target(name: "CofferWatch", dependencies: [
            "CofferPipeline", "CofferStore",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // `coffer serve`: Hummingbird 2 routes over the store, every read through the client's grant (docs/serve.md).
        .target(name: "CofferServe", dependencies: [
            "CofferModel", "CofferStore", "CofferPipeline",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Every command of the CLI (ArgumentParser), as a library both executables link. `coffer serve`'s options and
        // help are here; its server is in coffer-serve.
        .target(name: "CofferCommands", dependencies: [
            "Coffer", "CofferWatch",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // `coffer`. It does not link CofferServe: each (type, protocol) check the Swift runtime makes reads every
        // conformance record in the binary, and Hummingbird and SwiftNIO's 2,000 of them cost every command about 10%
        // of its start (docs/benchmarks.md, "a binary of its own for the server").
        .executableTarget(name: "CofferCLI", dependencies: ["CofferCommands"], linkerSettings: [
            // The executable's symbols stay out of its dynamic symbol table (the Swift driver exports all 43,000 of
            // them): each command's start read through that table (the dynamic loader, and the Swift runtime's
            // `dladdr` of its own path), 1.2 ms of `coffer --version`'s 8.7 (docs/benchmarks.md). Nothing looks
            // Coffer's symbols up by name. An executable's flags do not reach packages that use the library.
            .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
        ]),
        // `coffer-serve`: the HTTP server, which `coffer serve` replaces itself with (execv, same arguments).
        .executableTarget(name: "CofferServeCLI", dependencies: [
            "CofferCommands", "CofferServe", "CofferWatch",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: [
            .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
        ]),
        // Library-side benchmarks that scripts/bench.sh runs (queries, history, monitoring latency).
        .executableTarget(name: "CofferBench", dependencies: [
            "Coffer",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),  // the query by hand (`ByHandQuery`)
        ]),
        // SplitMix64, the seeded generator the property and mutation tests share; and, through CofferTestRuntime (C,
        // a constructor that runs before Swift Testing starts), at most 8 test cases at once (see its source).
        .target(name: "CofferTestRuntime", path: "Tests/CofferTestRuntime"),
        .target(name: "CofferTestSupport", dependencies: ["CofferTestRuntime"], path: "Tests/CofferTestSupport"),
        // Tests only: a counting wrapper of SQLite's default VFS (which statement journals spill to files).
        .target(name: "CSQLiteProbe", path: "Tests/CSQLiteProbe", linkerSettings: [.linkedLibrary("sqlite3")]),
        .testTarget(name: "CofferModelTests", dependencies: ["CofferModel", "CofferTestSupport"]),
        .testTarget(name: "CofferFormatsTests", dependencies: ["CofferFormats", "CofferTestSupport"]),
        .testTarget(name: "CofferStoreTests", dependencies: [
            "CofferStore", "CofferTestSupport", "CSQLiteProbe", .product(name: "Clocks", package: "swift-clocks"),
        ]),
        .testTarget(name: "CofferPipelineTests", dependencies: ["CofferPipeline", "CofferStore", "CofferTestSupport"]),
        .testTarget(name: "CofferCLITests", dependencies: ["CofferModel"]),
        .testTarget(name: "CofferExportTests", dependencies: ["CofferExport", "CofferPipeline", "CofferStore", "CofferTestSupport"]),
        .testTarget(name: "CofferServeTests", dependencies: [
            "CofferServe", "CofferPipeline", "CofferStore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .testTarget(name: "CofferWatchTests", dependencies: [
            "CofferWatch", "CofferPipeline", "CofferStore", .product(name: "Logging", package: "swift-log"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
