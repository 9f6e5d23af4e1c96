import Foundation

/// A ``ReplicaStore`` in one file, written atomically: the new document goes to a
/// temporary file beside it, is flushed to disk, and is renamed over the old one. The
/// file and its folder are readable by their owner only (notes are private).
///
/// ```swift
/// let store = FileReplicaStore(url: support.appendingPathComponent("notes-replica.json"))
/// let replica = try await NotesReplica(client: client, store: store)
/// ```
public struct FileReplicaStore: ReplicaStore {
    /// The file.
    public let url: URL

    /// A store in the file at `url`; its folder is created when first saved.
    public init(url: URL) {
        self.url = url
    }

    public func load() throws(ReplicaError) -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .store("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    public func save(_ state: Data) throws(ReplicaError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .store("cannot create \(directory.path): \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create", temporary) }
        let written = state.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        // Flushed before the rename, so the name never points at a half-written file.
        let synced = written && fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard synced, closed else {
            let error = failure("cannot write", temporary)
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let error = failure("cannot replace", url)
            unlink(temporary.path)
            throw error
        }
        // The rename itself is durable once the folder is.
        let folder = open(directory.path, O_RDONLY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    private func failure(_ what: String, _ file: URL) -> ReplicaError {
        .store("\(what) \(file.path): \(String(cString: strerror(errno)))")
    }
}
