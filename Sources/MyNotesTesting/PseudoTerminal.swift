import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs one of the package's executables on a pseudo-terminal, as in a person's shell:
/// the test waits for a prompt, types an answer, and sees exactly what the terminal
/// shows (echo included), which is how prompts without echo are tested.
///
/// ```swift
/// let (status, output) = try await PseudoTerminal.run(
///     "mynotes-server", ["accounts", "set-password", "a@example.com"],
///     answering: [("New password", "secret"), ("Repeat", "secret")])
/// ```
public final class PseudoTerminal: @unchecked Sendable {
    private let master: Int32
    private let process = ChildProcess()
    /// Everything the terminal has shown, as it arrives.
    private let shown = Observed<[UInt8]>([])
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts `executable` (a product of this package) with `arguments`; `environment`
    /// replaces the inherited one when given.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws {
        master = Self.posixOpenPT(O_RDWR | O_NOCTTY)
        guard master >= 0, Self.grantPT(master) == 0, Self.unlockPT(master) == 0,
            let name = Self.ptsName(master)
        else { throw POSIXError(.ENOTTY) }
        let terminal = FileHandle(
            fileDescriptor: open(String(cString: name), O_RDWR | O_NOCTTY), closeOnDealloc: true)
        process.executableURL = CommandRunner.executable(executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        // Only the child keeps the terminal open, so reading ends when it exits.
        try terminal.close()
        let master = self.master
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                shown.update { $0 += buffer[0..<count] }
            }
            readerDone.signal()
        }.start()
    }

    // Glibc's module map hides the pseudo-terminal calls (they need _XOPEN_SOURCE), so
    // they are looked up in the C library by name.
    private static func function<T>(_ name: String, _ type: T.Type) -> T {
        unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), name), to: type)
    }
    private static let posixOpenPT = function(
        "posix_openpt", (@convention(c) (Int32) -> Int32).self)
    private static let grantPT = function("grantpt", (@convention(c) (Int32) -> Int32).self)
    private static let unlockPT = function("unlockpt", (@convention(c) (Int32) -> Int32).self)
    private static let ptsName = function(
        "ptsname", (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    /// Runs a command on a terminal, typing each answer (a line) once its prompt shows
    /// and the program has turned echo off: every answer in these dialogues is a secret,
    /// and a person types it after the prompt, not in the microseconds between the
    /// prompt and the program's `tcsetattr`. If echo never goes off, it is typed anyway,
    /// and shows.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        answering dialogue: [(prompt: String, answer: String)]
    ) async throws -> (status: Int32, output: String) {
        let terminal = try PseudoTerminal(executable, arguments, environment: environment)
        for (prompt, answer) in dialogue {
            guard await terminal.waitFor(prompt) else { break }
            // No event announces a change of terminal settings: they are polled.
            try? Poll.until("the terminal to stop echoing", timeout: .seconds(10)) {
                !terminal.echoes
            }
            terminal.type(answer + "\n")
        }
        return await terminal.finish()
    }

    /// What the terminal has shown so far.
    public var output: String { shown.read { String(decoding: $0, as: UTF8.self) } }

    /// Waits until the terminal shows `text`; false after `timeout`.
    public func waitFor(_ text: String, timeout: Duration = .seconds(30)) async -> Bool {
        do {
            try await shown.wait("the terminal to show \(text)", timeout: timeout) {
                String(decoding: $0, as: UTF8.self).contains(text)
            }
            return true
        } catch {
            return false
        }
    }

    /// Whether the terminal echoes what is typed: the program's setting, which Linux
    /// reports through the master side too.
    public var echoes: Bool {
        var settings = termios()
        return tcgetattr(master, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `text` (a line needs its "\n").
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits for the command to end; its exit status and everything the terminal showed.
    public func finish() async -> (status: Int32, output: String) {
        await withCheckedContinuation { continuation in
            Thread { [self] in
                process.waitUntilExit()
                readerDone.wait()
                close(master)
                continuation.resume(returning: (process.terminationStatus, output))
            }.start()
        }
    }
}
