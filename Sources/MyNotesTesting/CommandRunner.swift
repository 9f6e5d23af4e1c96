import Foundation

/// Runs the package's built executables the way a user runs them.
public enum CommandRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String

        public var outputLines: [String] {
            standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
        public var errorLines: [String] {
            standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }

    /// The folder SwiftPM built this test run's products into.
    public static var productsDirectory: URL {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // On Apple platforms the runner sits inside an .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        return directory
    }

    public static func executable(_ name: String) -> URL {
        productsDirectory.appendingPathComponent(name)
    }

    /// Runs `name` with `arguments` to completion.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        input: String? = nil
    ) throws -> Result {
        try run(executable: executable(name), arguments, environment: environment, input: input)
    }

    /// The same from an async test: the child is awaited on a thread of its own, so the
    /// test holds no thread of the concurrency pool meanwhile, which work it runs beside the
    /// child (a stream of adds during a backup) may need. On two cores that pool has two.
    ///
    /// ```swift
    /// let backup = try await CommandRunner.run("mynotes-server", ["backup", "--to", copy])
    /// ```
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        input: String? = nil
    ) async throws -> Result {
        let program = executable(name)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Swift.Result<Result, any Error> {
                        try run(
                            executable: program, arguments, environment: environment, input: input)
                    })
            }.start()
        }
    }

    /// Runs any program (`/usr/bin/promtool`, `openssl`) to completion.
    public static func run(
        executable: URL, _ arguments: [String], environment: [String: String] = [:],
        input: String? = nil
    ) throws -> Result {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in
            new
        }
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let errorData = ReadAll(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own, so that a child's full stderr pipe
/// cannot block it while the test reads its stdout.
public final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    /// Blocks until the pipe has ended, then gives everything read from it; again on
    /// every later call (an expectation's message may read it a second time).
    public func wait() -> Data {
        done.wait()
        defer { done.signal() }
        return data
    }
}
