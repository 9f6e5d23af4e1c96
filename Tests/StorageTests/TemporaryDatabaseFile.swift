import Foundation
import Storage

/// A database path in a new temporary folder, for tests that open real files.
struct TemporaryDatabaseFile {
    let directory: URL
    let path: String

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("notes.sqlite").path
    }

    /// Opens the store on the file, runs `body`, and closes the store (the file stays).
    func withStore<T>(_ body: (SQLiteNoteStore) async throws -> T) async throws -> T {
        let store = try SQLiteNoteStore(path: path)
        defer { store.close() }
        return try await body(store)
    }

    /// Deletes the folder and everything SQLite wrote into it.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
