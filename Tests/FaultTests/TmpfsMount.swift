import Foundation
import MyNotesTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted on a new folder, to fill up or make read-only on purpose.
/// Needs root (or CAP_SYS_ADMIN); ``unavailable`` says why when it cannot be had, and
/// the tests that need one are skipped with that reason.
final class TmpfsMount {
    let folder: URL

    init(kibibytes: Int) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=\(kibibytes)k,mode=0700", "tmpfs", folder.path])
    }

    /// Changes the size; files open on it stay open.
    func resize(kibibytes: Int) throws {
        try Self.mount(["-o", "remount,size=\(kibibytes)k", folder.path])
    }

    /// Makes the file system read-only or writable again. Linux refuses to make it
    /// read-only while a process holds a file on it open for writing (EBUSY), so a
    /// running server cannot be made to see this; only one started afterwards does.
    func remount(_ access: Access) throws {
        try Self.mount(["-o", "remount,\(access.rawValue)", folder.path])
    }

    enum Access: String {
        case readOnly = "ro"
        case readWrite = "rw"
    }

    func unmount() {
        try? Self.run("/bin/umount", ["-l", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Why no tmpfs can be mounted here, or `nil` when one can.
    static let unavailable: String? = {
        guard geteuid() == 0 else { return "needs root to mount a tmpfs" }
        do {
            try TmpfsMount(kibibytes: 64).unmount()
            return nil
        } catch {
            return "cannot mount a tmpfs here: \(error)"
        }
    }()

    private static func mount(_ arguments: [String]) throws {
        try run("/bin/mount", arguments)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = ReadAll(error.fileHandleForReading)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RigFailure(
                "\(executable) \(arguments.joined(separator: " ")): "
                    + String(decoding: message.wait(), as: UTF8.self))
        }
    }
}
