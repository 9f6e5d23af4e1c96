import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, with the part of `Process`'s interface
/// the tests use. `Process.run()` in this toolchain's Foundation reads past the end of
/// `/proc/self/fd` entries to find descriptors to close, and now and then crashes the
/// whole test process (swift-corelibs-foundation #5472) — the more descriptors are open,
/// as when suites run in parallel, the likelier. Here the child closes them itself
/// (`posix_spawn_file_actions_addclosefrom_np`).
///
/// ```swift
/// let child = ChildProcess()
/// child.executableURL = CommandRunner.executable("mynotes")
/// child.arguments = ["--version"]
/// let output = Pipe()
/// child.standardOutput = output
/// try child.run()
/// child.waitUntilExit()  // child.terminationStatus == 0
/// ```
public final class ChildProcess: @unchecked Sendable {
    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's environment; this process's when `nil`.
    public var environment: [String: String]?
    /// Each a `Pipe` or a `FileHandle`, as `Process` takes them; `nil` is `/dev/null`.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    // Guarded by `lock` once the child runs: a waiter and `isRunning` may race.
    private let lock = NSLock()
    private var pid: pid_t = 0
    private var exit: Int32?
    private let exited = DispatchSemaphore(value: 0)

    public init() {}

    private static let sanitizerSettings: Set<String> = [
        "ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS",
    ]

    public var processIdentifier: Int32 { lock.withLock { pid } }

    /// Starts the child; throws when the executable cannot be run.
    public func run() throws {
        guard let path = executableURL?.path else { throw POSIXError(.ENOENT) }
        guard access(path, X_OK) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        for (target, stream, reads) in [
            (STDIN_FILENO, standardInput, true), (STDOUT_FILENO, standardOutput, false),
            (STDERR_FILENO, standardError, false),
        ] {
            posix_spawn_file_actions_adddup2(
                &actions, Self.descriptor(stream, reading: reads) ?? devNull, target)
        }
        Self.closeFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, and the spawning thread's signal mask, as with Process:
        // mynotes-server's dispatch signal sources have been seen to miss a SIGINT that
        // was not blocked when it started.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        // A child with an environment of its own still gets the sanitizers' settings, so
        // that the suite run under `swift test --sanitize=…` runs its children alike.
        let parent = ProcessInfo.processInfo.environment
        let environment =
            self.environment?.merging(parent.filter { Self.sanitizerSettings.contains($0.key) }) {
                own, _ in own
            } ?? parent
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status)!) }
        let spawned = child
        lock.withLock { pid = spawned }
        // The child's ends of pipes belong to the child now.
        (standardInput as? Pipe).map { try? $0.fileHandleForReading.close() }
        (standardOutput as? Pipe).map { try? $0.fileHandleForWriting.close() }
        (standardError as? Pipe).map { try? $0.fileHandleForWriting.close() }
        Thread { [self] in
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) == -1, errno == EINTR {}
            // Exited: its code; killed: the signal, as Process reports it.
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
            lock.withLock { exit = code }
            exited.signal()
        }.start()
    }

    public var isRunning: Bool { lock.withLock { pid != 0 && exit == nil } }

    /// Blocks until the child has ended.
    public func waitUntilExit() {
        exited.wait()
        exited.signal()
    }

    /// Blocks until the child has ended or `timeout` has passed; whether it ended.
    public func waitUntilExit(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard exited.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else {
            return false
        }
        exited.signal()
        return true
    }

    /// The exit code, or the number of the signal that ended the child.
    public var terminationStatus: Int32 {
        lock.withLock {
            precondition(exit != nil, "the child is still running")
            return exit!
        }
    }

    /// Sends SIGTERM.
    public func terminate() {
        kill(processIdentifier, SIGTERM)
    }

    private static func descriptor(_ stream: Any?, reading: Bool) -> Int32? {
        switch stream {
        case let pipe as Pipe:
            reading
                ? pipe.fileHandleForReading.fileDescriptor
                : pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle: handle.fileDescriptor
        default: nil
        }
    }

    /// Closes every descriptor from `lowest` up in the child. Glibc's module map hides
    /// the call (a GNU extension), so it is looked up by name.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) {
        typealias CloseFrom =
            @convention(c) (
                UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32
            ) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        else { preconditionFailure("glibc 2.34 or later is needed to spawn test processes") }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
    }
}
