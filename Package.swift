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
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto",
            providers: [.apt(["libssl-dev"])]),
        // Issue 13: GnuTLS, libmicrohttpd's TLS library, for HTTPS certificates.
        .systemLibrary(
            name: "CGnuTLS", path: "Sources/CGnuTLS",
            providers: [.apt(["libgnutls28-dev"])]),

        // Server side.
        .target(name: "Logging"),
        .target(name: "BoundedExecution"),
        // Issue 13: counters, histograms and the Prometheus text format (no dependencies).
        .target(name: "Metrics"),
        .target(
            name: "HTTPCore",
            dependencies: ["CMicroHTTPD", "CGnuTLS", "Logging", "BoundedExecution", "Metrics"]),
        .target(name: "Storage", dependencies: ["CSQLite", "BoundedExecution", "Metrics"]),
        .target(name: "Secrets", dependencies: ["CCrypto"]),
        .target(name: "MyNotesProtocol"),
        // Command-line parsing, help and prompts, shared by both executables.
        .target(name: "CommandLineSupport"),
        .target(
            name: "MyNotesService",
            dependencies: [
                "HTTPCore", "Storage", "Secrets", "MyNotesProtocol", "Logging", "BoundedExecution",
                "Metrics",
            ],
            resources: [.copy("Web/Assets")]),
        .executableTarget(
            name: "mynotes-server",
            dependencies: [
                "MyNotesService", "Storage", "HTTPCore", "Logging", "CommandLineSupport",
                "BoundedExecution", "Metrics",
            ]),
        .target(
            name: "MyNotesTesting",
            dependencies: ["MyNotesService", "Storage", "HTTPCore", "Logging", "BoundedExecution"]),

        // Tests.
        .testTarget(
            name: "HTTPCoreTests", dependencies: ["HTTPCore", "MyNotesTesting", "Logging"]),
        .testTarget(name: "LoggingTests", dependencies: ["Logging", "MyNotesTesting"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "BoundedExecution"]),
        .testTarget(name: "BoundedExecutionTests", dependencies: ["BoundedExecution"]),
        .testTarget(name: "SecretsTests", dependencies: ["Secrets"]),
        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"]),
        .testTarget(
            name: "MyNotesServiceTests",
            dependencies: [
                "MyNotesService", "MyNotesTesting", "MyNotesProtocol", "Storage",
                "BoundedExecution",
            ]),
        .testTarget(
            name: "RESTTests",
            dependencies: [
                "MyNotesService", "MyNotesTesting", "Storage", "HTTPCore", "Logging",
                "BoundedExecution", "Secrets",
            ]),
        .testTarget(
            name: "ServerCommandTests",
            dependencies: ["mynotes-server", "MyNotesTesting"]),
        // Issue 10 (faults-soak): the real server under faults: a full disk, kill -9,
        // SIGSTOP, the storage quota.
        .testTarget(
            name: "FaultTests", dependencies: ["mynotes-server", "MyNotesTesting", "Storage"]),
        // Issue 13: health, metrics, access log, TLS, backups, doctor, the service unit.
        .testTarget(
            name: "OperationsTests",
            dependencies: [
                "Metrics", "HTTPCore", "Storage", "MyNotesService", "MyNotesTesting", "Logging",
                "mynotes-server",
            ]),
        .testTarget(
            name: "WebAppTests",
            dependencies: ["MyNotesService", "MyNotesTesting", "HTTPCore", "mynotes-server"]),

        // Client side (MyNotesKit, PercentEncoding, the mynotes CLI) below this line.
        .target(name: "PercentEncoding"),
        .target(name: "MyNotesKit", dependencies: ["MyNotesProtocol", "PercentEncoding"]),
        .executableTarget(
            name: "mynotes",
            dependencies: [
                "MyNotesKit", "PercentEncoding", "MyNotesProtocol", "CommandLineSupport",
            ]),
        .testTarget(name: "PercentEncodingTests", dependencies: ["PercentEncoding"]),
        .testTarget(
            name: "MyNotesKitTests",
            dependencies: ["MyNotesKit", "MyNotesProtocol", "PercentEncoding", "MyNotesTesting"]),
        .testTarget(
            name: "MynotesCLITests",
            dependencies: ["mynotes", "MyNotesKit", "MyNotesProtocol", "MyNotesTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
