// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MyNotes",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "mynotes-server", targets: ["mynotes-server"]),
        .library(name: "MyNotesProtocol", targets: ["MyNotesProtocol"]),
        .library(name: "MyNotesKit", targets: ["MyNotesKit"]),
        .library(name: "PercentEncoding", targets: ["PercentEncoding"]),
        .executable(name: "mynotes", targets: ["mynotes"]),
    ],
    targets: [
        // C libraries, each wrapped by exactly one Swift module.
        // h2o's event loop and HTTP/1 library, imported by HTTPCore alone (why h2o:
        // docs/decisions/0001-h2o-event-loop.md).
        .systemLibrary(
            name: "CH2O", path: "Sources/CH2O",
            providers: [.apt(["libh2o-evloop-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto",
            providers: [.apt(["libssl-dev"])]),
        // PostgreSQL's client library, imported by PostgreSQLStore alone, so that a program
        // that opens only SQLite databases links no libpq.
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        // glibc's allocator settings, imported by mynotes-server alone (HeapPolicy).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),

        // A lock ThreadSanitizer understands, used by every module in place of `Mutex`.
        .target(name: "Locking"),
        // JSON string and XML text escaping, one way for the server's answers, its log lines
        // and the `mynotes` client's files.
        .target(name: "TextEscaping"),

        // Server side.
        .target(name: "ServerLogging", dependencies: ["Locking", "TextEscaping"]),
        .target(name: "BoundedExecution", dependencies: ["Locking"]),
        // Counters, histograms and the Prometheus text format for /metrics (no outside package).
        .target(name: "Telemetry", dependencies: ["Locking"]),
        .target(
            name: "HTTPCore",
            dependencies: [
                "CH2O", "Locking", "ServerLogging", "BoundedExecution", "Telemetry",
                "PercentEncoding",
            ]),
        // The rules of notes, accounts, sessions and the change feed, and the store roles
        // they need: no HTTP, no SQL.
        .target(
            name: "MyNotesDomain",
            dependencies: [
                "MyNotesProtocol", "Secrets", "Locking", "BoundedExecution", "Telemetry",
            ]),
        // The stores, one module per database engine, so that a program that opens only
        // SQLite links no libpq. StorageSupport holds what both share (limits, statistics,
        // the search index's words, the rows `migrate` copies) and no C library.
        .target(
            name: "StorageSupport",
            dependencies: ["MyNotesDomain", "Locking", "BoundedExecution", "Telemetry"]),
        .target(
            name: "SQLiteStore",
            dependencies: [
                "StorageSupport", "MyNotesDomain", "MyNotesProtocol", "CSQLite", "Locking",
                "BoundedExecution", "Telemetry",
            ]),
        .target(
            name: "PostgreSQLStore",
            dependencies: [
                "StorageSupport", "MyNotesDomain", "MyNotesProtocol", "CLibPQ", "Locking",
                "BoundedExecution", "Telemetry",
            ]),
        // The store locations (`sqlite:PATH`, `postgres://…`) and the copy between stores:
        // the one storage module that knows both engines.
        .target(
            name: "Storage",
            dependencies: ["SQLiteStore", "PostgreSQLStore", "StorageSupport", "MyNotesDomain"]),
        .target(name: "Secrets", dependencies: ["CCrypto"]),
        .target(name: "MyNotesProtocol"),
        // The REST API's request and response bodies as Codable types, which the server
        // decodes and checks its writers against and MyNotesKit decodes.
        .target(name: "MyNotesAPI"),
        // Command-line parsing, help and prompts, shared by both executables.
        .target(name: "CommandLineSupport"),
        .target(
            name: "MyNotesService",
            dependencies: [
                "MyNotesDomain", "MyNotesAPI", "HTTPCore", "Secrets", "MyNotesProtocol",
                "Locking", "ServerLogging", "BoundedExecution", "Telemetry", "TextEscaping",
                "PercentEncoding",
            ],
            resources: [.copy("Web/Assets")]),
        .executableTarget(
            name: "mynotes-server",
            dependencies: [
                "MyNotesService", "MyNotesDomain", "Storage", "SQLiteStore", "PostgreSQLStore",
                "StorageSupport", "HTTPCore", "ServerLogging", "CommandLineSupport",
                "BoundedExecution", "CMalloc",
            ]),
        .target(
            name: "MyNotesTesting",
            dependencies: [
                "MyNotesService", "MyNotesDomain", "MyNotesProtocol", "SQLiteStore",
                "PostgreSQLStore", "StorageSupport", "HTTPCore", "Secrets", "Locking",
                "ServerLogging", "BoundedExecution",
            ]),

        // Tests.
        .testTarget(
            name: "HTTPCoreTests",
            dependencies: ["HTTPCore", "MyNotesTesting", "Locking", "ServerLogging"]),
        .testTarget(name: "ServerLoggingTests", dependencies: ["ServerLogging", "MyNotesTesting"]),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "SQLiteStore", "PostgreSQLStore", "StorageSupport", "BoundedExecution",
                "Locking", "Telemetry", "MyNotesTesting", "MyNotesProtocol",
            ],
            // Databases made by earlier code, which the current code must open and upgrade.
            resources: [.copy("Fixtures")]),
        // The domain's rules over an in-memory store: no HTTP, no database.
        .testTarget(
            name: "MyNotesDomainTests",
            dependencies: ["MyNotesDomain", "MyNotesTesting", "MyNotesProtocol", "Secrets"]),
        .testTarget(name: "BoundedExecutionTests", dependencies: ["BoundedExecution"]),
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        // Reads the sources and docs/ARCHITECTURE.md: the module diagram holds.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "SecretsTests", dependencies: ["Secrets"]),
        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"]),
        .testTarget(name: "TextEscapingTests", dependencies: ["TextEscaping"]),
        .testTarget(
            name: "MyNotesServiceTests",
            dependencies: [
                "MyNotesService", "MyNotesTesting", "MyNotesProtocol", "SQLiteStore",
                "BoundedExecution", "Locking", "Telemetry",
            ]),
        .testTarget(
            name: "RESTTests",
            dependencies: [
                "MyNotesService", "MyNotesAPI", "MyNotesTesting", "HTTPCore", "ServerLogging",
                "BoundedExecution", "Secrets",
            ]),
        .testTarget(
            name: "ServerCommandTests",
            dependencies: ["mynotes-server", "MyNotesTesting", "Storage", "Locking"]),
        // The real server under faults: a full disk, kill -9,
        // SIGSTOP, the storage quota.
        .testTarget(
            name: "FaultTests",
            dependencies: ["mynotes-server", "MyNotesTesting", "SQLiteStore", "Locking"]),
        // Health, metrics, access log, TLS, backups, doctor, the service unit.
        .testTarget(
            name: "OperationsTests",
            dependencies: [
                "Telemetry", "HTTPCore", "SQLiteStore", "MyNotesService", "MyNotesTesting",
                "Locking", "ServerLogging", "mynotes-server",
            ]),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "MyNotesService", "MyNotesAPI", "MyNotesTesting", "HTTPCore", "mynotes-server",
            ]),

        // Client side (MyNotesKit, PercentEncoding, the mynotes CLI) below this line.
        .target(name: "PercentEncoding"),
        .target(
            name: "MyNotesKit", dependencies: ["MyNotesProtocol", "MyNotesAPI", "PercentEncoding"]),
        .executableTarget(
            name: "mynotes",
            dependencies: [
                "MyNotesKit", "PercentEncoding", "MyNotesProtocol", "CommandLineSupport",
                "TextEscaping", "Secrets",
            ]),
        .testTarget(name: "PercentEncodingTests", dependencies: ["PercentEncoding"]),
        .testTarget(
            name: "MyNotesKitTests",
            dependencies: [
                "MyNotesKit", "MyNotesAPI", "MyNotesProtocol", "PercentEncoding", "MyNotesTesting",
                "Locking",
            ]),
        .testTarget(
            name: "MynotesCLITests",
            dependencies: ["mynotes", "MyNotesKit", "MyNotesProtocol", "MyNotesTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzzing: one libFuzzer target per parser of outside input, in Fuzz/Targets/NAME.
// `swift build` builds them as replayers of inputs; `scripts/fuzz.sh NAME SECONDS` builds
// them with `-sanitize=fuzzer,address` and fuzzes. docs/TESTING.md, *Fuzzing*, says how.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("form", ["HTTPCore", "PercentEncoding"]),
    ("multipart", ["HTTPCore"]),
    ("percent-decoding", ["PercentEncoding"]),
    ("header-validation", ["HTTPCore"]),
    ("http1-framing", ["HTTPCore"]),
    ("json-request-body", ["HTTPCore", "MyNotesService"]),
    ("note-cursor", ["MyNotesService"]),
    ("entity-tag", ["MyNotesService"]),
    ("note-date", ["MyNotesProtocol", "MyNotesService"]),
    ("legacy-json-response", ["MyNotesKit"]),
    ("legacy-xml-response", ["MyNotesKit"]),
    ("rest-response", ["MyNotesKit"]),
    ("notes-file", ["MyNotesKit", "CommandLineSupport", "TextEscaping"]),
]
package.targets += [
    // libFuzzer's driver, declared weak: linked only under -sanitize=fuzzer.
    .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
    .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Support"),
]
package.targets += fuzzTargets.map { target in
    .executableTarget(
        name: "fuzz-" + target.name, dependencies: target.dependencies + ["FuzzSupport"],
        path: "Fuzz/Targets/" + target.name)
}
