import Foundation
import MyNotesTesting

/// Runs the built `mynotes` executable as a person would: arguments, environment,
/// standard input; collects its exit status and both output streams.
struct CLI {
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `mynotes` binary beside the test bundle (SwiftPM builds it for this target).
    static let executable: URL = {
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("mynotes")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        fatalError("mynotes executable not found near \(candidates)")
    }()

    /// A private home: config and state folders of its own, English, no terminal.
    let home: URL
    var environment: [String: String]

    init(server: TestServer? = nil, email: String? = nil, token: String? = nil) {
        home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mynotes-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "LANG": "en_US.UTF-8",
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ]
        if let server { environment["MYNOTES_SERVER"] = server.baseURL.absoluteString }
        if let email { environment["MYNOTES_EMAIL"] = email }
        if let token { environment["MYNOTES_TOKEN"] = token }
    }

    /// A CLI signed in to a new account on `server`.
    static func account(on server: TestServer, email: String = "ann@example.com") throws -> CLI {
        let token = try server.createAccount(email: email)
        return CLI(server: server, email: email, token: token)
    }

    /// Runs the CLI with `input` on a pipe as its standard input, or with `standardInput`
    /// (such as /dev/null) when given.
    func run(
        _ arguments: [String], input: String? = nil, extra: [String: String] = [:],
        executable: URL = CLI.executable, standardInput: FileHandle? = nil
    ) async -> Output {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        let (stdout, stderr, stdin) = (Pipe(), Pipe(), Pipe())
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = standardInput ?? stdin
        // A thread of its own: waiting on a process must not hold one of Dispatch's
        // few worker threads, which URLSession and the SDK's timers need.
        return await withCheckedContinuation { continuation in
            Thread {
                do {
                    try process.run()
                } catch {
                    continuation.resume(
                        returning: Output(status: -1, stdout: "", stderr: "\(error)"))
                    return
                }
                stdin.fileHandleForWriting.write(Data((input ?? "").utf8))
                try? stdin.fileHandleForWriting.close()
                let errors = ReadAll(stderr.fileHandleForReading)
                let out = stdout.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(
                    returning: Output(
                        status: process.terminationStatus,
                        stdout: String(decoding: out, as: UTF8.self),
                        stderr: String(decoding: errors.wait(), as: UTF8.self)))
            }.start()
        }
    }

    /// Runs the CLI in `directory`, as `cd DIR && mynotes …` would, for relative paths.
    func run(_ arguments: [String], workingIn directory: URL) async -> Output {
        await run(
            ["-c", "cd \"$0\" && exec \"$@\"", directory.path, Self.executable.path] + arguments,
            executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// Starts the CLI and returns the running process, for tests that interrupt it.
    func start(_ arguments: [String]) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    func write(_ text: String, to name: String) throws -> URL {
        let url = home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    func remove() {
        try? FileManager.default.removeItem(at: home)
    }
}
