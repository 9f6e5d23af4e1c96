import Foundation
import MyNotesDomain
import SQLiteStore
import Testing

/// The database and the files SQLite makes beside it are private to their owner
/// (they were once created 0644, so any local user could read every note).
@Suite struct FileModeTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func aNewDatabaseAndItsWALAndSharedMemoryAre0600() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let store = try SQLiteNoteStore(path: database.path)
        defer { store.close() }
        // A write makes the -wal and the -shm exist while the store is open.
        let account = try await store.createAccount(
            email: "ann@x", tokenHash: nil, passwordHash: nil)
        _ = try await store.addNote(
            NoteDraft(date: "2026-12-01", content: "secret"), account: account.id,
            quota: .unlimited)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try Self.mode(database.path + suffix) == 0o600, "notes.sqlite\(suffix)")
        }
    }

    /// The owner's choice for a file that already exists stands.
    @Test func anExistingFileKeepsItsMode() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        #expect(FileManager.default.createFile(atPath: database.path, contents: nil))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o640], ofItemAtPath: database.path)
        let store = try SQLiteNoteStore(path: database.path)
        _ = try await store.createAccount(email: "ann@x", tokenHash: nil, passwordHash: nil)
        #expect(try Self.mode(database.path + "-wal") == 0o640)
        store.close()
        #expect(try Self.mode(database.path) == 0o640)
    }
}
