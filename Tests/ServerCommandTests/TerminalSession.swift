import Foundation
import MyNotesTesting

#if canImport(Glibc)
    import Glibc
#endif

/// `mynotes-server` on a pseudo-terminal, as an operator types at it: the test waits for a
/// prompt, types a line, and sees exactly what the terminal showed (echo included).
final class TerminalSession: @unchecked Sendable {
    private let master: Int32
    private let process = Process()
    private let lock = NSLock()
    private var shown: [UInt8] = []
    private let readerDone = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) throws {
        master = Self.posixOpenPT(O_RDWR | O_NOCTTY)
        guard master >= 0, Self.grantPT(master) == 0, Self.unlockPT(master) == 0,
            let name = Self.ptsName(master)
        else { throw POSIXError(.ENOTTY) }
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENOTTY) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.executableURL = CommandRunner.executable("mynotes-server")
        process.arguments = arguments
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        // Only the child keeps the terminal open now, so reading ends when it exits.
        try terminal.close()
        let master = self.master
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                lock.withLock { shown += buffer[0..<count] }
            }
            readerDone.signal()
        }.start()
    }

    // Glibc's module map hides the pseudo-terminal calls (they need _XOPEN_SOURCE).
    private static func function<T>(_ name: String, _ type: T.Type) -> T {
        unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), name), to: type)
    }
    private static let posixOpenPT = function(
        "posix_openpt", (@convention(c) (Int32) -> Int32).self)
    private static let grantPT = function("grantpt", (@convention(c) (Int32) -> Int32).self)
    private static let unlockPT = function("unlockpt", (@convention(c) (Int32) -> Int32).self)
    private static let ptsName = function(
        "ptsname", (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    var output: String { lock.withLock { String(decoding: shown, as: UTF8.self) } }

    /// Waits until the terminal shows `text`, then types `line` and a return.
    @discardableResult
    func answer(_ text: String, with line: String) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !output.contains(text) {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        return true
    }

    /// Waits for the command to end: its exit status and all the terminal showed.
    func finish() -> (status: Int32, output: String) {
        process.waitUntilExit()
        readerDone.wait()
        close(master)
        return (process.terminationStatus, output)
    }
}
