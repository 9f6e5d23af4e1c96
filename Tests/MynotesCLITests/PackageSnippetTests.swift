import Foundation
import MyNotesTesting
import Testing

/// The SDK snippet of docs/CLIENT.md, resolved by SwiftPM as an app
/// would, with the package in a folder named as the snippet says and in another.
@Suite("docs/CLIENT.md's Package.swift snippet")
struct PackageSnippetTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let swift: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map {
            URL(fileURLWithPath: String($0)).appendingPathComponent("swift")
        }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The two lines of the snippet, `.package(…)` and `.target(…)`, as the document has them.
    static func snippet() throws -> (package: String, target: String) {
        let text = try String(
            contentsOf: repository.appendingPathComponent("docs/CLIENT.md"), encoding: .utf8)
        let lines = text.split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let package = try #require(lines.first { $0.hasPrefix(".package(path:") })
        let target = try #require(lines.first { $0.hasPrefix(".target(name: \"App\"") })
        return (package, target)
    }

    /// An app beside a copy of this package in `folder`, using `package` and `target`;
    /// what `swift package describe` says of it.
    static func describe(folder: String, package: String, target: String) async throws
        -> CLI.Output
    {
        let cli = CLI()
        defer { cli.remove() }
        let copy = cli.home.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in ["Package.swift", "Sources", "Tests"] {
            try FileManager.default.copyItem(
                at: repository.appendingPathComponent(item),
                to: copy.appendingPathComponent(item))
        }
        let app = cli.home.appendingPathComponent("App")
        try FileManager.default.createDirectory(
            at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("import MyNotesKit\nprint(NoteLimits.contentBytes)\n".utf8).write(
            to: app.appendingPathComponent("Sources/App/main.swift"))
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [\(package)],
                targets: [\(target.hasSuffix(",") ? String(target.dropLast()) : target)])

            """
        try Data(manifest.utf8).write(to: app.appendingPathComponent("Package.swift"))
        return await cli.run(
            ["-c", "cd \"$0\" && exec \"$1\" package describe", app.path, swift!.path],
            executable: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test(
        "The snippet as written resolves, the clone in the folder it names",
        .enabled(if: swift != nil))
    func asWritten() async throws {
        let (package, target) = try Self.snippet()
        #expect(package.contains("\"../MyNotes\""))
        let output = try await Self.describe(folder: "MyNotes", package: package, target: target)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("App"))
    }

    @Test(
        "In another folder, package: is the folder's name, as the document says",
        .enabled(if: swift != nil))
    func anotherFolder() async throws {
        let (package, target) = try Self.snippet()
        let moved = package.replacingOccurrences(of: "../MyNotes", with: "../mynotes-src")
        let wrong = try await Self.describe(folder: "mynotes-src", package: moved, target: target)
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("unknown package 'MyNotes'"))
        let right = try await Self.describe(
            folder: "mynotes-src", package: moved,
            target: target.replacingOccurrences(
                of: "package: \"MyNotes\"", with: "package: \"mynotes-src\""))
        #expect(right.status == 0, "\(right.stderr)")
    }
}
