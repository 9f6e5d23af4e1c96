import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `mynotes-server serve` as a separate process, for what needs a real process:
/// signals, `kill -9`, restarts on the same database.
///
/// ```swift
/// let server = try ServerProcess(database: "sqlite:/tmp/x/notes.sqlite")
/// // HTTP to server.port …
/// let status = try server.stop(signal: SIGTERM)  // 0
/// ```
public final class ServerProcess {
    public enum Failure: Error {
        case notReady(String)
    }

    public let process = ChildProcess()
    public let port: Int
    public let readyLine: String
    private let errorOutput: ReadAll
    private let output: Pipe

    public init(database: String, arguments: [String] = []) throws {
        process.executableURL = CommandRunner.executable("mynotes-server")
        process.arguments = ["serve", "--port", "0", "--database", database] + arguments
        output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        errorOutput = ReadAll(error.fileHandleForReading)
        // The first line on stdout says where it listens; a server that says nothing
        // for 30 s is not coming up.
        readyLine = Self.line(from: output, timeout: .seconds(30))
        guard let portText = readyLine.split(separator: ":").last, let port = Int(portText) else {
            process.terminate()
            process.waitUntilExit()
            throw Failure.notReady(readyLine + String(decoding: errorOutput.wait(), as: UTF8.self))
        }
        self.port = port
    }

    /// Sends `signal` and waits for the process to end; returns its exit status. A
    /// server that has not stopped 30 s after the signal is killed, and its status is
    /// then SIGKILL's.
    @discardableResult
    public func stop(signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        if !process.waitUntilExit(timeout: .seconds(30)) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    /// The next line the server prints on standard output after its ready line (where
    /// its other listeners are), or what it printed of it within `timeout`.
    public func nextLine(timeout: Duration = .seconds(30)) -> String {
        Self.line(from: output, timeout: timeout)
    }

    private static func line(from output: Pipe, timeout: Duration) -> String {
        var line = Data()
        let deadline = ContinuousClock.now + timeout
        var reading = pollfd(
            fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let left = max(.zero, deadline - ContinuousClock.now)
            guard poll(&reading, 1, Int32(left / .milliseconds(1))) > 0 else { break }
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// What the server printed after its ready line, once it has ended.
    public var remainingOutput: String {
        String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    public var standardError: String {
        String(decoding: errorOutput.wait(), as: UTF8.self)
    }

    deinit {
        if process.isRunning { stop(signal: SIGKILL) }
    }
}
