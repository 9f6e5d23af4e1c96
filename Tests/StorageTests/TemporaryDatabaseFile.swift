import Foundation

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

    /// Deletes the folder and everything SQLite wrote into it.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
