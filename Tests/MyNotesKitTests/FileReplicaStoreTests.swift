import Foundation
import MyNotesKit
import Testing

/// The file a replica's state lives in: replaced whole, private, and clear about failures.
@Suite("FileReplicaStore")
struct FileReplicaStoreTests {
    @Test("Each save replaces the file whole, mode 0600, leaving no temporary file behind")
    func saves() throws {
        let folder = NotesReplicaIntegrationTests.Folder()
        defer { folder.remove() }
        let store = folder.store("copy")
        #expect(try store.load() == nil)
        try store.save(Data("first".utf8))
        try store.save(Data("second, longer than the first".utf8))
        #expect(try store.load() == Data("second, longer than the first".utf8))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(files == ["copy.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("A file that cannot be written or read is a .store error naming it")
    func failures() throws {
        let folder = NotesReplicaIntegrationTests.Folder()
        defer { folder.remove() }
        let store = folder.store("copy")
        // A folder where the file should be: neither read nor replaced
        try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)
        for attempt in [{ _ = try store.load() }, { try store.save(Data("x".utf8)) }] {
            do {
                try attempt()
                Issue.record("expected a failure")
            } catch let error as ReplicaError {
                guard case .store(let detail) = error else {
                    Issue.record("expected .store, got \(error)")
                    continue
                }
                #expect(detail.contains(store.url.path))
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["copy.json"])
    }

    @Test("A replica refuses a file that does not hold a replica's state")
    func unreadable() throws {
        let folder = NotesReplicaIntegrationTests.Folder()
        defer { folder.remove() }
        let store = folder.store("copy")
        try store.save(Data("{\"notes\": []}".utf8))
        let client = NotesAPIClient(server: URL(string: "http://127.0.0.1:9")!)
        #expect(throws: ReplicaError.self) { try NotesReplica(client: client, store: store) }
    }
}
